// The platform feed (D36): other modules hand it items inside their own transactions (an
// outbox); a stamper gives committed items their positions one run at a time, and readers page
// by position, optionally waiting for the next item (docs/adr/0010-feed-cursor.md).
import type { Span } from '@opentelemetry/api';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { traced } from '../../lib/tracing.js';
import * as repo from './feed-repository.js';
import { FEED_WAIT_MAX_SEC, type FeedItemView, type FeedKind } from './feed-schemas.js';

/** What a module says happened; the feed adds the id and the time. */
export interface FeedInput {
  kind: FeedKind;
  type: string;
  merchantId: string;
  orderId?: string | null;
  data: Record<string, unknown>;
  occurredAt?: Date;
}

/** How another module writes an item, inside the transaction of its change. */
export type FeedRecorder = (tx: Queryable, item: FeedInput) => Promise<void>;
/** A recorder that writes nothing: for services built without the feed (unit tests). */
export const noFeed: FeedRecorder = async () => {};

/** An order event as the events module hands it to its listeners (kept structural: no import). */
export interface FeedOrderEvent {
  merchantId: string;
  orderId: string;
  eventType: string;
  createdAt: Date;
  metadata?: Record<string, unknown> | null;
  /** What the platform acts on beyond the event's POS-facing metadata (D36: CONFIRMED's code). */
  detail?: Record<string, unknown>;
  /** D42: a key's opt-in copy of a change the feed already has (WEIGHING_DECIDED): no second item. */
  optIn?: boolean;
}

/** A weighing as the orders module hands it to its listeners (D38). */
export interface FeedWeighing {
  merchantId: string;
  orderId: string;
  occurredAt: Date;
  data: object;
}

const STAMP_BATCH = 1000;
/** How often a process stamps and wakes its waiting readers without a notification. */
const SWEEP_MS = 1000;

export interface FeedQueryInput {
  after?: string;
  limit?: number;
  kinds?: string;
  merchantId?: string;
  wait?: number;
}

export const toFeedView = (r: repo.FeedItemRow): FeedItemView => ({
  id: r.id,
  cursor: String(r.position),
  kind: r.kind,
  type: r.type,
  merchantId: r.merchant_id,
  ...(r.order_id ? { orderId: r.order_id } : {}),
  occurredAt: new Date(r.occurred_at).toISOString(),
  data: r.data,
  ...(r.traceparent ? { traceparent: r.traceparent } : {}),
});

export function createFeedService(deps: { db: Db; clock: Clock; maxWaitSec?: number }) {
  const { db, clock } = deps;
  const maxWaitSec = Math.min(deps.maxWaitSec ?? FEED_WAIT_MAX_SEC, FEED_WAIT_MAX_SEC);
  const waiters = new Set<() => void>();
  const followers = new Set<() => void>();
  const wakeReaders = () => {
    for (const wake of [...waiters]) wake();
    for (const follow of [...followers]) follow();
  };

  /** One run: stamps everything committed and unstamped, a batch per transaction. */
  const stampAll = () => traced('feed stamp', stampAllUntraced);
  async function stampAllUntraced(span: Span | null): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await db.transaction((tx) => repo.stampCommitted(tx, STAMP_BATCH));
      total += n;
      if (n < STAMP_BATCH) break;
    }
    span?.setAttribute('cleaver.feed.stamped', total);
    if (total > 0) wakeReaders();
    return total;
  }

  // Runs are coalesced: one at a time in this process; a request made during a run is served by
  // one more run after it (the running one may have looked before the caller's commit).
  let current: Promise<number> | null = null;
  let queued: Promise<number> | null = null;
  function stamp(): Promise<number> {
    if (!current) {
      current = stampAll().finally(() => {
        current = null;
      });
      return current;
    }
    if (!queued) {
      queued = current
        .catch(() => 0)
        .then(() => {
          queued = null;
          return stamp();
        });
    }
    return queued;
  }

  /** Resolves when this process stamps something, or after `ms`. */
  function nextWake(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }

  const record: FeedRecorder = (tx, item) =>
    repo.insertItems(tx, [
      {
        id: newId(),
        kind: item.kind,
        type: item.type,
        merchantId: item.merchantId,
        orderId: item.orderId ?? null,
        occurredAt: item.occurredAt ?? clock.now(),
        data: item.data,
      },
    ]);

  /** Several items in one statement (D45: the statements one closing transaction closes). */
  const recordAll = (tx: Queryable, items: FeedInput[]) =>
    repo.insertItems(
      tx,
      items.map((item) => ({
        id: newId(),
        kind: item.kind,
        type: item.type,
        merchantId: item.merchantId,
        orderId: item.orderId ?? null,
        occurredAt: item.occurredAt ?? clock.now(),
        data: item.data,
      })),
    );

  let stopListening: (() => Promise<void>) | null = null;
  let sweep: NodeJS.Timeout | null = null;

  return {
    record,
    recordAll,

    /** The events module's listener: every order event becomes an `order` item (D36). */
    onOrderEvent: async (tx: Queryable, event: FeedOrderEvent) => {
      if (event.optIn) return;
      await record(tx, {
        kind: 'order',
        type: event.eventType,
        merchantId: event.merchantId,
        orderId: event.orderId,
        occurredAt: event.createdAt,
        data: { ...(event.metadata ?? {}), ...(event.detail ?? {}) },
      });
    },

    /** The orders module's weighing listener (D38): the `order WEIGHED` item. */
    onWeighed: (tx: Queryable, weighed: FeedWeighing) =>
      record(tx, {
        kind: 'order',
        type: 'WEIGHED',
        merchantId: weighed.merchantId,
        orderId: weighed.orderId,
        occurredAt: weighed.occurredAt,
        data: { ...weighed.data },
      }),

    stamp,

    /** Called whenever this process stamped something or heard of new items (the NATS relay). */
    onStamped(follow: () => void): () => void {
      followers.add(follow);
      return () => followers.delete(follow);
    },

    /** GET /admin/v1/feed: stamped items after the cursor; `wait` holds an empty answer. */
    async read(query: FeedQueryInput): Promise<{ items: FeedItemView[]; next: string }> {
      const after = query.after ? Number(query.after) : 0;
      const limit = query.limit ?? 100;
      const kinds = query.kinds ? ([...new Set(query.kinds.split(','))] as FeedKind[]) : null;
      const filter = { after, limit, kinds, merchantId: query.merchantId ?? null };
      const deadline = Date.now() + Math.min(query.wait ?? 0, maxWaitSec) * 1000;
      await stamp();
      let page = await repo.readPage(db, filter);
      while (page.rows.length === 0 && Date.now() < deadline) {
        await nextWake(Math.min(SWEEP_MS, deadline - Date.now()));
        await stamp();
        page = await repo.readPage(db, filter);
      }
      const last = page.rows.at(-1);
      // A short page saw every item up to `head`: the cursor may move there, filtered or not.
      const next = page.rows.length < limit ? Math.max(after, page.head) : (last as repo.FeedItemRow).position;
      return { items: page.rows.map(toFeedView), next: String(next) };
    },

    /** Readers of this process wake on any commit of feed items (NOTIFY), and every second. */
    async start(): Promise<void> {
      if (stopListening) return;
      const onNotify = () => {
        stamp()
          .then(wakeReaders)
          .catch(() => {});
      };
      stopListening = await db.listen(repo.FEED_CHANNEL, onNotify, onNotify);
      sweep = setInterval(onNotify, SWEEP_MS);
      sweep.unref();
    },

    async stop(): Promise<void> {
      if (sweep) clearInterval(sweep);
      sweep = null;
      const stopping = stopListening;
      stopListening = null;
      if (stopping) await stopping();
      wakeReaders();
      await current?.catch(() => {});
      await queued?.catch(() => {});
    },

    headPosition: () => repo.headPosition(db),
    /** The console's order timeline: each check of the order's delivery code, right or wrong, while the feed keeps it. */
    async codeChecks(orderId: string): Promise<Array<{ at: string; valid: boolean; source: string }>> {
      return (await repo.codeChecksOfOrder(db, orderId)).map((r) => ({
        at: r.occurred_at.toISOString(),
        valid: r.data.valid,
        source: r.data.source,
      }));
    },
    relayRows: () => repo.relayRows(db),
    /** Retention (D36): one batch of items older than `before` that every relay has published. */
    async pruneOlderThan(before: Date, limit: number): Promise<number> {
      // Only stamped items go: stamp first, so that items no one read are not kept forever.
      await stamp();
      const relays = await repo.relayRows(db);
      const keepAbove = relays.length ? Math.min(...relays.map((r) => r.position)) : null;
      return repo.pruneItems(db, before, keepAbove, limit);
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
