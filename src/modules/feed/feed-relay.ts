// D36: the NATS JetStream relay of the platform feed, run by the worker role when
// CLEAVER_NATS_URL is set. It publishes stamped items in position order from where its row of
// feed_relays says it stopped; `Nats-Msg-Id` is the item's id, so the broker drops a re-publish
// after a kill (within the stream's duplicate window). Many publishes are in flight across
// merchants, never two of one merchant (merchant-ordered-publish.ts): a merchant's items reach
// the stream in feed order. The mark moves once per pass (a page of `batch` items), only past
// items whose publication was acknowledged without a gap: a mark written more often cost the
// relay more than half its throughput (docs/benchmarks.md, the feed relay); a kill re-publishes
// at most a page. The stamper's wake-up (poke) starts the next pass at once, also when it comes
// during a pass, and spares the pass its own stamping. While NATS is away nothing moves: the
// backlog waits in feed_items (retention keeps what the relay has not published) and leaves in
// order when the broker is back.
// Size: one relay's life in one closure (connection, stream, passes, health); the per-merchant
// ordering of publishes is its own module (merchant-ordered-publish.ts), the stream's creation
// and replication too (feed-stream.ts).
import { connect, headers, type JetStreamClient, type NatsConnection } from 'nats';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { endSpan, SpanKind, startSpan, traced, traceparentOf, tracingOn } from '../../lib/tracing.js';
import * as repo from './feed-repository.js';
import { toFeedView } from './feed-service.js';
import {
  defaultReplicas,
  ensureFeedStream,
  knownServers,
  publishProblem,
  type StreamReplication,
} from './feed-stream.js';
import { MerchantOrderedPublisher } from './merchant-ordered-publish.js';

export interface FeedRelayOptions {
  db: Db;
  clock: Clock;
  /** D46: one server, or the cluster's servers (a list, or CLEAVER_NATS_URL's comma-separated form). */
  url: string | string[];
  stream: string;
  /** D46: replicas of the stream when the relay creates it; default 3 with three servers or more known, else 1. */
  replicas?: number;
  /** D46: a stream replicated less than asked, reported once per connection (a warning line). */
  onWarning?: (line: string) => void;
  /**
   * The subjects' first token, `cleaver` (D36). Two streams of one broker cannot share subjects,
   * so tests on a shared broker give each stream a prefix of its own.
   */
  subjectPrefix?: string;
  /** Stamps committed items (the feed service's coalesced stamper). */
  stamp: () => Promise<number>;
  /** The relay's row in feed_relays. */
  name?: string;
  batch?: number;
  /** How many pages one pass may send (a pass ends early when it reaches the head). */
  passPages?: number;
  /** How many publishes may await their acknowledgement at once (one per merchant at most). */
  window?: number;
  /** How long to wait for new items or after a failure before looking again. */
  idleMs?: number;
  onError?: (error: unknown) => void;
  /** Where the relay's lag and last publish go (/metrics). */
  registry?: Registry;
}

export interface FeedRelayHealth {
  stream: string;
  connected: boolean;
  /** The last position published and acknowledged. */
  position: number;
  /** The highest position given so far. */
  head: number;
  /** Items stamped and not yet published. */
  lagItems: number;
  lastPublishAt: string | null;
  lastError: string | null;
  /**
   * D46: `degraded` while the broker is away, a publication fails or the stream is replicated less
   * than asked; the process stays ready (the backlog waits in the database).
   */
  status: 'ok' | 'degraded';
  /** D46: items stamped and not yet published (lagItems, under the name of operator-api.md). */
  backlog: number;
  /** D46: the stream's replicas, asked and actual (null before the first connection). */
  replicas: { asked: number; actual: number } | null;
  /** D46: why the stream's replication is short, when it is. */
  warning: string | null;
}

/** `cleaver.<kind>.<merchantId>.<type>`: subscribers filter by kind, merchant and type. */
export const subjectOf = (item: { kind: string; merchantId: string; type: string }, prefix = 'cleaver') =>
  `${prefix}.${item.kind}.${item.merchantId}.${item.type}`;

const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** test:ha measured a stream leader's death at 7.3 s of silence with 5 s and 1 s here (docs/operations.md). */
const PUBLISH_TIMEOUT_MS = 2_000;
const RETRY_AFTER_FAILURE_MS = 250;

export function createFeedRelay(options: FeedRelayOptions) {
  const { db, clock } = options;
  const name = options.name ?? `nats:${options.stream}`;
  const batch = options.batch ?? 1000;
  const window = options.window ?? 256;
  const passPages = options.passPages ?? 8;
  const prefix = options.subjectPrefix ?? 'cleaver';
  const idleMs = options.idleMs ?? 250;
  const onError = options.onError ?? (() => {});
  const encoder = new TextEncoder();
  const servers = (Array.isArray(options.url) ? options.url : options.url.split(',')).map((s) => s.trim());
  let replication: StreamReplication | null = null;

  let nc: NatsConnection | null = null;
  let js: JetStreamClient | null = null;
  let connected = false;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  /** Set by poke(): the stamper stamped something since the flag was cleared. */
  let poked = false;
  /** The relay's row exists in feed_relays (checked once per connection). */
  let markRowReady = false;
  const state = { position: 0, head: 0, lastPublishAt: null as Date | null, lastError: null as string | null };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  async function ensureConnected(): Promise<JetStreamClient> {
    if (nc && !nc.isClosed() && js) return js;
    const conn = await connect({
      servers,
      name: 'cleaver-feed-relay',
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    nc = conn;
    connected = true;
    void (async () => {
      for await (const s of conn.status()) {
        if (s.type === 'disconnect') connected = false;
        if (s.type === 'reconnect') connected = true;
      }
    })().catch(() => {});
    const jsm = await nc.jetstreamManager();
    // D36: created when missing; an existing stream is used as it is (its operator may have
    // chosen its limits and replicas). D46: replicated as asked, or reported.
    replication = await ensureFeedStream(jsm, {
      name: options.stream,
      subjects: [`${prefix}.>`],
      duplicateWindowMs: DUPLICATE_WINDOW_MS,
      replicas: options.replicas ?? defaultReplicas(knownServers(conn, servers.length)),
    });
    if (replication.warning) options.onWarning?.(replication.warning);
    // D46: a publication to a stream leader that died waits this long for its acknowledgment
    // before the relay tries again (the new leader answers the retry; the broker drops a repeat).
    js = nc.jetstream({ timeout: PUBLISH_TIMEOUT_MS });
    return js;
  }

  /**
   * One pass: publishes what is stamped after the mark, up to `pages` pages, each page read while
   * the one before is still being sent; returns how many went out. `stamp: false` when the
   * caller has just stamped (the relay was woken by the stamper).
   */
  function publishOnce(pass: { stamp?: boolean; pages?: number } = {}): Promise<number> {
    return traced('feed relay pass', async (span) => {
      const sent = await publishPass(pass);
      span?.setAttribute('cleaver.feed.published', sent);
      return sent;
    });
  }

  async function publishPass(pass: { stamp?: boolean; pages?: number }): Promise<number> {
    const client = await ensureConnected();
    if (pass.stamp !== false) await options.stamp();
    if (!markRowReady) {
      await repo.relayState(db, name, clock.now());
      markRowReady = true;
    }
    const maxPages = pass.pages ?? passPages;
    let page = await repo.readRelayPage(db, name, batch);
    const startMark = page.mark;
    state.position = page.mark;
    state.head = page.head;

    // The mark moves once per page, past the items acknowledged without a gap, in the background
    // (one write at a time): a kill costs at most a page or two of re-publishes, which the broker
    // drops. A mark written more often cost more than half the throughput.
    let marked = startMark;
    let marking: Promise<void> = Promise.resolve();
    let markError: unknown;
    const pageEnds: number[] = [];
    const moveMark = (to: number) => {
      marking = marking
        .then(async () => {
          if (to <= marked) return;
          const at = clock.now();
          await repo.advanceRelay(db, name, to, at);
          marked = to;
          state.position = to;
          state.lastPublishAt = at;
        })
        .catch((error: unknown) => {
          markError ??= error;
        });
    };
    const publisher = new MerchantOrderedPublisher<repo.FeedItemRow>(
      (row) => {
        const view = toFeedView(row);
        const subject = subjectOf(view, prefix);
        const body = encoder.encode(JSON.stringify(view));
        if (!tracingOn()) return client.publish(subject, body, { msgID: row.id });
        // The publish continues the trace of the change that wrote the item; its `traceparent`
        // travels in the message's headers (the item carries the change's own).
        const span = startSpan(`${subject} publish`, {
          kind: SpanKind.PRODUCER,
          parent: row.traceparent,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': subject,
            'messaging.message.id': row.id,
            'cleaver.feed.cursor': row.position,
          },
        });
        const h = headers();
        h.set('traceparent', traceparentOf(span) ?? '');
        return client.publish(subject, body, { msgID: row.id, headers: h }).then(
          (ack) => {
            endSpan(span);
            return ack;
          },
          (error: unknown) => {
            endSpan(span, error);
            throw error;
          },
        );
      },
      window,
      (through) => {
        let end: number | undefined;
        while (pageEnds.length > 0 && (pageEnds[0] as number) <= through) end = pageEnds.shift();
        if (end !== undefined) moveMark(end);
      },
    );
    for (let n = 1; ; n++) {
      const last = page.rows.at(-1);
      if (last) pageEnds.push(last.position);
      publisher.add(page.rows);
      if (page.rows.length < batch || n >= maxPages || !last) break;
      // The next page is read while this one is sent (the relay is never idle waiting on a read).
      await publisher.hungry(batch);
      const next = await repo.readPage(db, { after: last.position, limit: batch, kinds: null, merchantId: null });
      page = { ...next, mark: page.mark };
      state.head = next.head;
    }
    const result = await publisher.drained();
    if (result.ackedThrough !== null) moveMark(result.ackedThrough);
    await marking;
    if (result.error !== undefined) throw result.error;
    if (markError !== undefined) throw markError;
    return result.sent;
  }

  async function run(): Promise<void> {
    let stampFirst = true;
    while (running) {
      try {
        // A poke during the pass is remembered: the pass may have read the page before the
        // stamper's commit, and the next pass starts at once instead of after `idleMs`.
        poked = false;
        const sent = await publishOnce({ stamp: stampFirst });
        state.lastError = null;
        stampFirst = true;
        if (sent >= batch || !running) continue;
        if (!poked) await sleep(idleMs);
        // Woken by the stamper (it has just stamped): no stamping of our own before the read.
        stampFirst = !poked;
      } catch (error) {
        state.lastError = publishProblem(error);
        markRowReady = false;
        stampFirst = true;
        onError(error);
        if (running) await sleep(RETRY_AFTER_FAILURE_MS);
      }
    }
  }

  if (options.registry) {
    const registers = [options.registry];
    new Gauge({
      name: 'cleaver_feed_relay_lag_items',
      help: 'Platform feed items stamped and not yet published to NATS (D36)',
      registers,
      collect() {
        this.set(Math.max(0, state.head - state.position));
      },
    });
    new Gauge({
      name: 'cleaver_feed_relay_last_publish_seconds',
      help: "Unix time of the relay's last acknowledged publication to NATS (0: none yet)",
      registers,
      collect() {
        this.set(state.lastPublishAt ? state.lastPublishAt.getTime() / 1000 : 0);
      },
    });
    new Gauge({
      name: 'cleaver_feed_relay_degraded',
      help: '1 while the relay is away from NATS, failing to publish, or its stream is replicated less than asked (D46)',
      registers,
      collect() {
        this.set(relay.health().status === 'degraded' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'cleaver_feed_relay_stream_replicas',
      help: "Replicas of the feed's NATS stream (0 before the relay first connected)",
      registers,
      collect() {
        this.set(replication?.actual ?? 0);
      },
    });
    new Gauge({
      name: 'cleaver_feed_relay_connected',
      help: '1 while the relay is connected to NATS',
      registers,
      collect() {
        this.set(connected ? 1 : 0);
      },
    });
  }

  const relay = {
    name,
    async start(): Promise<void> {
      if (running) return;
      running = true;
      loop = run();
    },
    /** Looks for new items now (a NOTIFY of the feed arrived). */
    poke(): void {
      poked = true;
      wake?.();
    },
    publishOnce,
    async stop(): Promise<void> {
      running = false;
      wake?.();
      await loop;
      loop = null;
      const closing = nc;
      nc = null;
      js = null;
      if (closing && !closing.isClosed()) await closing.close().catch(() => {});
    },
    health(): FeedRelayHealth {
      const isConnected = connected && nc !== null && !nc.isClosed() && js !== null;
      const backlog = Math.max(0, state.head - state.position);
      const warning = replication?.warning ?? null;
      return {
        stream: options.stream,
        connected: isConnected,
        position: state.position,
        head: state.head,
        lagItems: backlog,
        lastPublishAt: state.lastPublishAt ? state.lastPublishAt.toISOString() : null,
        lastError: state.lastError,
        status: isConnected && state.lastError === null && warning === null ? 'ok' : 'degraded',
        backlog,
        replicas: replication ? { asked: replication.asked, actual: replication.actual } : null,
        warning,
      };
    },
  };
  return relay;
}

export type FeedRelay = ReturnType<typeof createFeedRelay>;
