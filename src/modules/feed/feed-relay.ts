// D36: the NATS JetStream relay of the platform feed, run by the worker role when
// CLEAVER_NATS_URL is set. It publishes stamped items in position order from where its row of
// feed_relays says it stopped; `Nats-Msg-Id` is the item's id, so the broker drops a re-publish
// after a kill (within the stream's duplicate window). Items are sent in waves in which no
// merchant appears twice, each wave awaited whole: a merchant's items reach the stream in feed
// order. The mark moves once per pass (a page of `batch` items), only past items whose
// publication was acknowledged: a mark written per wave cost the relay more than half its
// throughput (docs/benchmarks.md, the feed relay); a kill re-publishes at most a page. While NATS is
// away nothing moves: the backlog waits in feed_items (retention keeps what the relay has not
// published) and leaves in order when the broker is back.
import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import * as repo from './feed-repository.js';
import { toFeedView } from './feed-service.js';
import {
  defaultReplicas,
  ensureFeedStream,
  knownServers,
  publishProblem,
  type StreamReplication,
} from './feed-stream.js';

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

/** Waves of at most `max` items in which each merchant appears once, in position order. */
export function wavesOf<T extends { merchant_id: string }>(rows: T[], max = 256): T[][] {
  const waves: T[][] = [];
  let wave: T[] = [];
  let merchants = new Set<string>();
  for (const row of rows) {
    if (merchants.has(row.merchant_id) || wave.length >= max) {
      waves.push(wave);
      wave = [];
      merchants = new Set();
    }
    wave.push(row);
    merchants.add(row.merchant_id);
  }
  if (wave.length) waves.push(wave);
  return waves;
}

const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** test:ha measured a stream leader's death at 7.3 s of silence with 5 s and 1 s here (docs/operations.md). */
const PUBLISH_TIMEOUT_MS = 2_000;
const RETRY_AFTER_FAILURE_MS = 250;

export function createFeedRelay(options: FeedRelayOptions) {
  const { db, clock } = options;
  const name = options.name ?? `nats:${options.stream}`;
  const batch = options.batch ?? 500;
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

  /** One pass: publishes what is stamped after the mark; returns how many went out. */
  async function publishOnce(): Promise<number> {
    const client = await ensureConnected();
    await options.stamp();
    const mark = await repo.relayState(db, name, clock.now());
    state.position = mark.position;
    const page = await repo.readPage(db, { after: mark.position, limit: batch, kinds: null, merchantId: null });
    state.head = page.head;
    let sent = 0;
    let acked = mark.position;
    try {
      for (const wave of wavesOf(page.rows)) {
        const results = await Promise.allSettled(
          wave.map((row) =>
            client.publish(subjectOf(toFeedView(row), prefix), encoder.encode(JSON.stringify(toFeedView(row))), {
              msgID: row.id,
            }),
          ),
        );
        const failed = results.findIndex((r) => r.status === 'rejected');
        const done = failed < 0 ? wave.length : failed;
        const lastDone = wave[done - 1]; // none when the first send failed
        if (lastDone !== undefined) {
          acked = lastDone.position;
          sent += done;
        }
        if (failed >= 0) throw (results[failed] as PromiseRejectedResult).reason;
      }
    } finally {
      // The mark moves once per pass, past what was acknowledged (also when a wave failed): a
      // kill before this line costs at most one page of re-publishes, which the broker drops.
      if (acked > mark.position) {
        const at = clock.now();
        await repo.advanceRelay(db, name, acked, at);
        state.position = acked;
        state.lastPublishAt = at;
      }
    }
    return sent;
  }

  async function run(): Promise<void> {
    while (running) {
      try {
        const sent = await publishOnce();
        state.lastError = null;
        if (sent < batch && running) await sleep(idleMs);
      } catch (error) {
        state.lastError = publishProblem(error);
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
