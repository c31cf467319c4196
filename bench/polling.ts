// Polling and orders benchmark (architecture.md#benchmarks): `node --import tsx bench/polling.ts`.
// - GET /v1/events:polling latency and throughput with 1,000 and with 1,000,000 acknowledged
//   events in the key's history (target: within 1.2× of each other; D3 partial index), for a
//   cleaver key and for an opendelivery key (D27), whose throughput must stay within 10 % of the
//   cleaver key's at both history sizes (D28: one eventId per occurrence costs nothing extra);
// - the cost of the key-profile feed every process tails (architecture.md#revocation-feed);
// - GET /v1/orders/{id} throughput relative to a bare Fastify route doing one primary-key read
//   of the same row, in the same run (target ≥ 0.9; measured first, BENCH_ORDER_ONLY=1 stops there).
// PostgreSQL only (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres); a
// scratch database is created and dropped. Rate limits are raised through configuration.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import pg from 'pg';
import { median, reportRow } from './support/measure.js';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// Loaded without its type package so the benchmark adds no dependency.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION_SEC ?? 8);
const CONNECTIONS = 10;
const TYPES = [
  'CREATED',
  'CONFIRMED',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'DELIVERED',
  'CONCLUDED',
  'PICKUP_AREA_ASSIGNED',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'ORDER_CANCELLATION_REQUEST',
];

interface Target {
  appUrl: string;
  bareUrl: string;
  token: string;
  merchantId: string;
  keyId: string;
  token2: string;
  keyId2: string;
  token3: string;
  keyId3: string;
  token4: string;
  keyId4: string;
  orderId: string;
}

async function load(url: string, headers: Record<string, string>, seconds = DURATION) {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  if (r.non2xx + r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.average };
}

async function startTarget(dbUrl: string): Promise<{ info: Target; child: ChildProcess }> {
  // BENCH_TARGET_PROF=dir: a CPU profile of the server process (node --cpu-prof) for where the time goes.
  const prof = process.env.BENCH_TARGET_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_TARGET_PROF}`] : [];
  const child = spawn(
    process.execPath,
    [...prof, '--import', 'tsx', new URL('./polling-target.ts', import.meta.url).pathname],
    {
      env: { ...process.env, BENCH_DB_URL: dbUrl },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const info = await new Promise<Target>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Target);
    });
    child.on('exit', (code) => reject(new Error(`target exited with ${code}`)));
  });
  return { info, child };
}

/**
 * Set-based history (generate_series): `orders` finished orders × 10 event types, each
 * acknowledged by the bench key. Pending receipts already there stay pending.
 */
async function addHistory(db: pg.Client, t: Target, orders: number, keyIds: string[]): Promise<void> {
  const batch = 50_000;
  for (let done = 0; done < orders; done += batch) {
    const n = Math.min(batch, orders - done);
    await db.query(
      `WITH src AS (SELECT merchant_id, customer_id, document FROM orders WHERE id = $1),
            made AS (
              INSERT INTO orders (id, merchant_id, type, display_id, status, last_event, event_types, customer_id,
                                  delivery_code, items_price, other_fees, discount, order_amount, document,
                                  created_at, updated_at)
              SELECT gen_random_uuid(), s.merchant_id, 'DELIVERY', 'H' || g, 'CONCLUDED', 'CONCLUDED', $3::text[],
                     s.customer_id, '0000', 0, 0, 0, 0, s.document, now() - interval '30 days', now() - interval '30 days'
                FROM src s, generate_series(1, $2::int) g
              RETURNING id, merchant_id),
            evs AS (
              INSERT INTO order_events (order_id, event_type, merchant_id, occurrence_id, seq, metadata, created_at)
              SELECT m.id, ty, m.merchant_id, gen_random_uuid(), nextval('order_events_seq'), NULL,
                     now() - interval '30 days'
                FROM made m, unnest($3::text[]) ty
              RETURNING order_id, event_type, seq)
       INSERT INTO event_receipts (key_id, order_id, event_type, seq, acknowledged_at)
       SELECT k, order_id, event_type, seq, now() - interval '29 days' FROM evs, unnest($4::uuid[]) k`,
      [t.orderId, n, TYPES, keyIds],
    );
  }
  await db.query('VACUUM ANALYZE orders');
  await db.query('VACUUM ANALYZE order_events');
  await db.query('VACUUM ANALYZE event_receipts');
}

async function acknowledgedCount(db: pg.Client, keyId: string): Promise<number> {
  const { rows } = await db.query(
    'SELECT count(*)::int AS n FROM event_receipts WHERE key_id = $1 AND acknowledged_at IS NOT NULL',
    [keyId],
  );
  return rows[0].n;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function main() {
  const name = `cleaver_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  let child: ChildProcess | undefined;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  try {
    const started = await startTarget(dbUrl.toString());
    child = started.child;
    const t = started.info;
    await db.connect();
    const auth = { authorization: `Bearer ${t.token}` };
    const pollUrl = `${t.appUrl}/v1/events:polling`;

    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    );
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${DURATION} s per run, PostgreSQL; each poll returns 50 pending events\n`,
    );

    // The four keys share 1,000 acknowledged events; then the second key of each profile gets
    // 999,000 more (1,000,000). The four are then polled in alternating rounds, so machine noise
    // hits all alike.
    const keys = [
      { name: 'cleaver, 1k', auth },
      { name: 'cleaver, 1M', auth: { authorization: `Bearer ${t.token2}` } },
      { name: 'opendelivery, 1k', auth: { authorization: `Bearer ${t.token3}` } },
      { name: 'opendelivery, 1M', auth: { authorization: `Bearer ${t.token4}` } },
    ];
    // GET /v1/orders/{id} against the bare primary-key read, interleaved to even out drift.
    const orderUrl = `${t.appUrl}/v1/orders/${t.orderId}`;
    const bareUrl = `${t.bareUrl}/orders/${t.orderId}`;
    await load(orderUrl, auth, 2);
    await load(bareUrl, {}, 2);
    const app: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < 5; round++) {
      bare.push((await load(bareUrl, {}, DURATION / 2)).rps);
      app.push((await load(orderUrl, auth, DURATION / 2)).rps);
    }
    const orderRatio = median(app) / median(bare);
    console.log('GET /v1/orders/{id} (auth + rate limit + validation + serialization) vs bare Fastify PK read');
    console.log(`  bare:  ${bare.map((x) => fmt(x)).join(' / ')} req/s (median ${fmt(median(bare))})`);
    console.log(`  order: ${app.map((x) => fmt(x)).join(' / ')} req/s (median ${fmt(median(app))})`);
    console.log(`  ratio = ${fmt(orderRatio, 2)} (target ≥ 0.90)\n`);
    reportRow({
      workload: 'GET /v1/orders/{id} (token, rate limit, full order), PostgreSQL',
      baseline: `bare Fastify + one pg primary-key read ${fmt(median(bare))} req/s`,
      now: `${fmt(median(app))} req/s`,
      ratio: `${fmt(orderRatio, 2)}×`,
      goal: '≥ 0.9×',
      met: orderRatio >= 0.9,
    });
    if (process.env.BENCH_ORDER_ONLY === '1') return;

    await addHistory(db, t, 100, [t.keyId, t.keyId2, t.keyId3, t.keyId4]);
    await load(pollUrl, auth, 2); // warm-up
    const before = await load(pollUrl, auth);
    const started1m = Date.now();
    await addHistory(db, t, 99_900, [t.keyId2, t.keyId4]);
    const genSec = (Date.now() - started1m) / 1000;
    const small = await acknowledgedCount(db, t.keyId);
    const large = await acknowledgedCount(db, t.keyId2);
    const largeOd = await acknowledgedCount(db, t.keyId4);
    for (const k of keys) await load(pollUrl, k.auth, 2);
    const runs: Array<Array<Awaited<ReturnType<typeof load>>>> = keys.map(() => []);
    for (let round = 0; round < 3; round++) {
      for (const [i, k] of keys.entries()) runs[i].push(await load(pollUrl, k.auth, DURATION / 2));
    }
    const summary = (r: (typeof runs)[number]) => ({
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      mean: median(r.map((x) => x.mean)),
    });
    const [pollSmall, pollLarge, odSmall, odLarge] = runs.map(summary);

    console.log('GET /v1/events:polling (medians of 3 alternating rounds)');
    console.log(
      `  acknowledged history: ${fmt(small)} (1k keys), ${fmt(large)} (cleaver 1M key), ${fmt(largeOd)} (opendelivery 1M key)`,
    );
    for (const [i, k] of keys.entries()) {
      const x = [pollSmall, pollLarge, odSmall, odLarge][i];
      console.log(
        `  ${k.name.padEnd(17)} ${fmt(x.rps)} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms, mean ${fmt(x.mean, 2)} ms` +
          `  (rounds ${runs[i].map((r) => fmt(r.rps)).join(' / ')})`,
      );
    }
    console.log(
      `  (before the 1M histories existed at all: ${fmt(before.rps)} req/s, mean ${fmt(before.mean, 2)} ms; history generated in ${fmt(genSec, 1)} s)`,
    );
    const latencyRatio = pollLarge.mean / pollSmall.mean;
    const throughputRatio = pollSmall.rps / pollLarge.rps;
    const odLatencyRatio = odLarge.mean / odSmall.mean;
    const odThroughputRatio = odSmall.rps / odLarge.rps;
    console.log(
      `  cleaver:      mean latency 1M / 1k = ${fmt(latencyRatio, 2)}×, throughput 1k / 1M = ${fmt(throughputRatio, 2)}× (target ≤ 1.20×)`,
    );
    console.log(
      `  opendelivery: mean latency 1M / 1k = ${fmt(odLatencyRatio, 2)}×, throughput 1k / 1M = ${fmt(odThroughputRatio, 2)}× (target ≤ 1.20×)`,
    );
    const odVsCleaverSmall = odSmall.rps / pollSmall.rps;
    const odVsCleaverLarge = odLarge.rps / pollLarge.rps;
    console.log(
      `  opendelivery / cleaver throughput: ${fmt(odVsCleaverSmall, 2)} at 1k, ${fmt(odVsCleaverLarge, 2)} at 1M (target ≥ 0.90)`,
    );
    const plan = await db.query(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT e.order_id FROM event_receipts r
         JOIN order_events e ON e.order_id = r.order_id AND e.event_type = r.event_type
        WHERE r.key_id = $1 AND r.acknowledged_at IS NULL ORDER BY r.seq LIMIT 1000`,
      [t.keyId2],
    );
    console.log(`  plan (1M key):\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);

    // The feed of profile changes (D27) every process reads four times a second beside the
    // revocations: 100 changes in the table, the tail past all of them (the common case).
    await db.query(
      `INSERT INTO key_profile_changes (key_id, profile, expires_at)
       SELECT $1, CASE WHEN g % 2 = 0 THEN 'cleaver' ELSE 'opendelivery' END, now() + interval '12 hours'
         FROM generate_series(1, 100) g`,
      [t.keyId3],
    );
    const { rows: seqRows } = await db.query('SELECT max(seq)::int AS seq FROM key_profile_changes');
    const tail = await db.query(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT seq, key_id, profile FROM key_profile_changes
        WHERE seq > $1 AND expires_at > now() ORDER BY seq LIMIT 5000`,
      [seqRows[0].seq],
    );
    const feedStarted = performance.now();
    for (let i = 0; i < 400; i++) {
      await db.query(
        'SELECT seq, key_id, profile FROM key_profile_changes WHERE seq > $1 AND expires_at > now() ORDER BY seq LIMIT 5000',
        [seqRows[0].seq],
      );
    }
    const feedMs = (performance.now() - feedStarted) / 400;
    console.log(
      `Profile feed tail (key_profile_changes, per process every 250 ms): ${fmt(feedMs, 3)} ms per read round trip, ` +
        `${fmt((feedMs * 4) / 10, 3)} % of one connection's time`,
    );
    console.log(`  plan:\n${tail.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);

    const ok =
      latencyRatio <= 1.2 &&
      throughputRatio <= 1.2 &&
      odLatencyRatio <= 1.2 &&
      odThroughputRatio <= 1.2 &&
      odVsCleaverSmall >= 0.9 &&
      odVsCleaverLarge >= 0.9 &&
      true;
    console.log(`\n${ok ? 'PASS' : 'FAIL'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    child?.stdin?.end();
    await new Promise((r) => setTimeout(r, 500));
    child?.kill();
    await db.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
