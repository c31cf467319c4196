// Platform feed relay benchmark (D36, `node --import tsx bench/feed-relay.ts`), on PostgreSQL and
// PGlite, against the shared NATS JetStream (BENCH_NATS_URL, default nats://127.0.0.1:4222) on
// bench-only streams that are deleted afterwards:
// 1. throughput: N feed items of M merchants, stamped, published by the relay's own passes
//    (createFeedRelay, as the worker runs it: up to 256 publishes in flight, never two of one
//    merchant, the mark recorded once per page) into a fresh stream; the baseline is a plain
//    JetStream publish loop of the same messages (same subjects, bodies and Nats-Msg-Id) in windows
//    of 256 awaited whole (the relay's window), no database, into a fresh stream of the same
//    configuration. Rounds alternate the two so that load from elsewhere hits both alike.
// 2. lag at a steady 150 order events/s, each committed in its own transaction as the orders
//    module writes it (the item in the change's transaction, NOTIFY on commit), with the worker's
//    feed stamper and relay running: from the commit to the message arriving at an ordered
//    consumer of the stream (stored), p50 / p99; the baseline is the same messages published
//    straight to a stream at the same rate, publish call → arrival.
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a scratch
// database is created and dropped. BENCH_DB=postgres runs one kind; BENCH_FEED_N, BENCH_FEED_ROUNDS,
// BENCH_FEED_LAG_SEC make it smaller or larger.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connect,
  consumerOpts,
  type JetStreamClient,
  type JetStreamManager,
  nanos,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/lib/clock.js';
import { newId } from '../src/lib/ids.js';
import { createFeedRelay, type FeedItemView, subjectOf } from '../src/modules/feed/index.js';
import { createServices, type Services } from '../src/services.js';
import { openBenchDb } from './support/bench-db.js';
import { fmt, machine, median, reportRow } from './support/measure.js';

const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const N = Number(process.env.BENCH_FEED_N ?? 10_000);
const MERCHANTS = Number(process.env.BENCH_FEED_MERCHANTS ?? 100);
const ROUNDS = Number(process.env.BENCH_FEED_ROUNDS ?? 3);
const RATE = 150; // order events per second, lag phase
const LAG_SEC = Number(process.env.BENCH_FEED_LAG_SEC ?? 10);
const WINDOW = 256;
const RUN = randomBytes(3).toString('hex').toUpperCase();
const now = () => performance.timeOrigin + performance.now();
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const encoder = new TextEncoder();

const nc = await connect({ servers: NATS_URL, name: 'cleaver-bench-feed' });
const jsm: JetStreamManager = await nc.jetstreamManager();
const js: JetStreamClient = nc.jetstream({ timeout: 10_000 });
const streams = new Set<string>();
let streamNo = 0;
const streamName = (what: string) => `BENCH_FEED_${RUN}_${what}_${++streamNo}`;
// Subjects of this run's own (the relay's subjectPrefix): two streams of one broker cannot share
// subjects, and the machine's broker may hold a `cleaver.>` stream of a running service.
const PREFIX = `bench_feed_${RUN.toLowerCase()}`;

/** A stream as the relay creates it (D36: cleaver.>, file storage, a 10-minute duplicate window). */
async function createStream(name: string): Promise<void> {
  streams.add(name);
  await jsm.streams.add({
    name,
    subjects: [`${PREFIX}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: nanos(10 * 60_000),
  });
}

async function deleteStream(name: string): Promise<void> {
  await jsm.streams.delete(name).catch(() => {});
  streams.delete(name);
}

/** An order item as the platform reads it (a CONFIRMED with its code and preparation time). */
const orderItem = (merchantId: string, extra: Record<string, unknown> = {}) => ({
  kind: 'order' as const,
  type: 'CONFIRMED',
  merchantId,
  orderId: newId(),
  data: { orderExternalCode: `PDV-${randomBytes(3).toString('hex')}`, preparationTimeInSeconds: 900, ...extra },
});

/** A relay as the worker runs it, on a bench-only stream and subjects of this run. */
function benchRelay(services: Services, what: string) {
  const stream = streamName(what);
  const relay = createFeedRelay({
    subjectPrefix: PREFIX,
    db: services.db,
    clock: systemClock,
    url: NATS_URL,
    stream,
    name: `bench:${stream}`,
    stamp: services.feed.stamp,
  });
  return { stream, relay };
}

/** The relay's throughput: every item from position 0 into a fresh stream, pass after pass. */
async function relayRound(services: Services): Promise<number> {
  const { stream, relay } = benchRelay(services, 'RELAY');
  try {
    // Made beforehand as the relay would make it (it uses an existing stream as it is); the
    // relay's first pass still connects, a few ms of the count.
    await createStream(stream);
    const head = await services.feed.headPosition();
    const started = now();
    let sent = 0;
    for (let n = await relay.publishOnce(); n > 0; n = await relay.publishOnce()) sent += n;
    const elapsed = now() - started;
    if (sent !== head) throw new Error(`relay sent ${sent} of ${head}`);
    const info = await jsm.streams.info(stream);
    if (info.state.messages !== head) throw new Error(`stream holds ${info.state.messages} of ${head}`);
    return sent / (elapsed / 1000);
  } finally {
    await relay.stop();
    await deleteStream(stream);
  }
}

/** The baseline: the same messages, published in windows of WINDOW awaited whole. */
async function baselineRound(messages: FeedItemView[]): Promise<number> {
  const stream = streamName('BASE');
  await createStream(stream);
  try {
    const started = now();
    for (let i = 0; i < messages.length; i += WINDOW) {
      await Promise.all(
        messages
          .slice(i, i + WINDOW)
          .map((m) => js.publish(subjectOf(m, PREFIX), encoder.encode(JSON.stringify(m)), { msgID: m.id })),
      );
    }
    const elapsed = now() - started;
    const info = await jsm.streams.info(stream);
    if (info.state.messages !== messages.length) throw new Error('baseline: messages missing');
    return messages.length / (elapsed / 1000);
  } finally {
    await deleteStream(stream);
  }
}

/** Arrival times by message, from an ordered consumer of `stream` (stored messages only). */
async function follow(stream: string, key: (m: FeedItemView) => string) {
  const arrivals = new Map<string, number>();
  // An ordered push consumer (the pull consumers API's ordered consumer does not start on 2.9).
  const opts = consumerOpts().orderedConsumer().deliverAll().bindStream(stream);
  const sub = await js.subscribe(`${PREFIX}.>`, opts);
  void (async () => {
    for await (const m of sub) arrivals.set(key(m.json<FeedItemView>()), now());
  })();
  return {
    arrivals,
    async waitFor(keys: string[], ms: number) {
      const deadline = now() + ms;
      while (keys.some((k) => !arrivals.has(k))) {
        if (now() > deadline) throw new Error(`${keys.filter((k) => !arrivals.has(k)).length} messages never arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: () => sub.unsubscribe(),
  };
}

const paced = async (total: number, step: (i: number) => Promise<void>) => {
  const t0 = now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / RATE - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await step(i);
  }
  return total / ((now() - t0) / 1000);
};

const lags = (committed: Map<string, number>, arrivals: Map<string, number>) =>
  [...committed].map(([k, at]) => (arrivals.get(k) as number) - at).sort((a, b) => a - b);

/** Commit → stored at RATE, through the worker's stamper and relay. */
async function relayLag(services: Services, merchants: string[]) {
  const { stream, relay } = benchRelay(services, 'LAG');
  streams.add(stream);
  // From the head on: the throughput items are old news.
  await services.db.query('INSERT INTO feed_relays (name, position, updated_at) VALUES ($1, $2, now())', [
    `bench:${stream}`,
    await services.feed.headPosition(),
  ]);
  await services.feed.start();
  const unsubscribe = services.feed.onStamped(() => relay.poke());
  await relay.start();
  try {
    while (!relay.health().connected) await new Promise((r) => setTimeout(r, 20));
    while (!(await jsm.streams.info(stream).catch(() => null))) await new Promise((r) => setTimeout(r, 20));
    const consumer = await follow(stream, (m) => String(m.data.bench));
    const committed = new Map<string, number>();
    const achieved = await paced(RATE * LAG_SEC, async (i) => {
      const item = orderItem(merchants[i % merchants.length] as string, { bench: `r${i}` });
      await services.db.transaction((tx) => services.feed.record(tx, item));
      committed.set(`r${i}`, now());
    });
    await consumer.waitFor([...committed.keys()], 60_000);
    await consumer.stop();
    const sorted = lags(committed, consumer.arrivals);
    return { achieved, p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted[sorted.length - 1] as number };
  } finally {
    unsubscribe();
    await relay.stop();
    await services.feed.stop();
    await deleteStream(stream);
  }
}

/** The same messages published straight to a stream at RATE: publish call → stored. */
async function baselineLag(merchants: string[]) {
  const stream = streamName('BASELAG');
  await createStream(stream);
  try {
    const consumer = await follow(stream, (m) => String(m.data.bench));
    const sent = new Map<string, number>();
    const achieved = await paced(RATE * LAG_SEC, async (i) => {
      const m: FeedItemView = {
        id: newId(),
        cursor: String(i + 1),
        ...orderItem(merchants[i % merchants.length] as string, { bench: `b${i}` }),
        occurredAt: new Date().toISOString(),
      };
      sent.set(`b${i}`, now());
      await js.publish(subjectOf(m, PREFIX), encoder.encode(JSON.stringify(m)), { msgID: m.id });
    });
    await consumer.waitFor([...sent.keys()], 60_000);
    await consumer.stop();
    const sorted = lags(sent, consumer.arrivals);
    return { achieved, p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted[sorted.length - 1] as number };
  } finally {
    await deleteStream(stream);
  }
}

async function run(kind: 'postgres' | 'pglite') {
  const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-bench-'));
  const { db, close } = await openBenchDb(kind, 'feed');
  try {
    const config = loadConfig({
      CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijklmnop',
      CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrs',
      CLEAVER_DATA_DIR: dataDir,
    });
    const services = createServices({ config, db, clock: systemClock });
    const merchants: string[] = [];
    for (let i = 0; i < MERCHANTS; i++)
      merchants.push((await services.merchants.createMerchant({ name: `Bench ${i}` })).id);
    // N order items, merchants drawn at random (as orders arrive), 200 per transaction.
    for (let i = 0; i < N; i += 200) {
      await db.transaction(async (tx) => {
        for (let j = i; j < Math.min(N, i + 200); j++) {
          await services.feed.record(tx, orderItem(merchants[Math.floor(Math.random() * MERCHANTS)] as string));
        }
      });
    }
    await services.feed.stamp();
    const { rows } = await db.query<Parameters<typeof subjectOf>[0] & FeedItemView>(
      `SELECT id, position::text AS cursor, kind, type, merchant_id AS "merchantId", order_id AS "orderId",
              occurred_at AS "occurredAt", data FROM feed_items ORDER BY position`,
    );
    const messages = rows.map((r) => ({ ...r, occurredAt: new Date(r.occurredAt).toISOString() }));

    await baselineRound(messages); // warm-up, not counted: JIT, the broker's first stream files
    const relayRates: number[] = [];
    const baseRates: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseRates.push(await baselineRound(messages));
      relayRates.push(await relayRound(services));
    }
    const relay = median(relayRates);
    const base = median(baseRates);
    const lag = await relayLag(services, merchants);
    const baseLag = await baselineLag(merchants);
    await services.auth.stop();
    return { kind, items: messages.length, relay, base, relayRates, baseRates, lag, baseLag };
  } finally {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  console.log(
    `machine: ${machine()}; load average at the start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}; NATS ${nc.info?.version ?? '?'} at ${NATS_URL}, file storage`,
  );
  const kinds = (process.env.BENCH_DB ?? 'postgres,pglite').split(',') as Array<'postgres' | 'pglite'>;
  for (const kind of kinds) {
    const r = await run(kind);
    const name = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
    const ratio = r.relay / r.base;
    console.log(
      `${name}: ${fmt(r.items)} items of ${MERCHANTS} merchants: ` +
        `relay ${fmt(r.relay)} items/s (${r.relayRates.map((x) => fmt(x)).join(' / ')}), ` +
        `plain JetStream publish loop (windows of ${WINDOW}) ${fmt(r.base)} msgs/s (${r.baseRates.map((x) => fmt(x)).join(' / ')}): ${fmt(ratio, 2)}×`,
    );
    console.log(
      `${name}: at ${fmt(r.lag.achieved, 1)} order events/s, commit → stored in the stream p50 ${fmt(r.lag.p50, 1)} ms, ` +
        `p99 ${fmt(r.lag.p99, 1)} ms, max ${fmt(r.lag.max, 1)} ms; plain publish at ${fmt(r.baseLag.achieved, 1)}/s → stored ` +
        `p50 ${fmt(r.baseLag.p50, 1)} ms, p99 ${fmt(r.baseLag.p99, 1)} ms, max ${fmt(r.baseLag.max, 1)} ms`,
    );
    reportRow({
      workload: `platform feed relay to NATS JetStream, items/s on ${name}`,
      baseline: `plain JetStream publish loop of the same messages ${fmt(r.base)} msgs/s`,
      now: `${fmt(r.relay)} items/s`,
      ratio: `${fmt(ratio, 2)}×`,
      goal: '≥ 0.8×',
      met: ratio >= 0.8,
    });
    reportRow({
      workload: `platform feed, commit → message in the stream at ${RATE} order events/s on ${name}`,
      baseline: `plain publish → stored p50 ${fmt(r.baseLag.p50, 1)} ms, p99 ${fmt(r.baseLag.p99, 1)} ms`,
      now: `p50 ${fmt(r.lag.p50, 1)} ms, p99 ${fmt(r.lag.p99, 1)} ms`,
      ratio: `p99 + ${fmt(r.lag.p99 - r.baseLag.p99, 1)} ms`,
      goal: `p99 ≤ ${kind === 'postgres' ? 10 : 20} ms`,
      met: r.lag.p99 <= (kind === 'postgres' ? 10 : 20),
    });
  }
  console.log(
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
} finally {
  for (const s of [...streams]) await deleteStream(s);
  await nc.close();
}
