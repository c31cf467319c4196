// D45: closing a week of statements, 2,000 merchants × 300 concluded orders (three lines each:
// ORDER, COMMISSION, COLLECTED_BY_MERCHANT; 1.8 million lines), time and memory, beside a bare
// `SELECT statement_id, kind, sum(value) … GROUP BY` over the same rows in the same run. The
// closing is the worker's own pass (statements-service.ts closeDue: batches of 500 statements
// locked FOR UPDATE SKIP LOCKED, their lines summed, totals and CLOSED written, one feed item
// each), on PostgreSQL (BENCH_DATABASE_URL's server, a database of its own, dropped after).
//   node --import tsx bench/statements-close.ts
// MERCHANTS and ORDERS make it smaller or larger.
import { loadConfig } from '../src/config.js';
import { manualClock } from '../src/lib/clock.js';
import { createServices } from '../src/services.js';
import { openBenchDb } from './support/bench-db.js';
import { fmt, machine, median, ratio, reportRow } from './support/measure.js';

const MERCHANTS = Number(process.env.MERCHANTS ?? '2000');
const ORDERS = Number(process.env.ORDERS ?? '300');
const WEEK_START = '2026-03-02T03:00:00Z';
const WEEK_END = '2026-03-09T03:00:00Z';

/** Peak RSS and heap over a piece of work, sampled every 20 ms. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; rssMb: number; heapMb: number }> {
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    return {
      result,
      ms: performance.now() - started,
      rssMb: (rss - base.rss) / 2 ** 20,
      heapMb: (heap - base.heapUsed) / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const { db, close } = await openBenchDb('postgres', 'statements');
  try {
    const seedStarted = performance.now();
    await db.query(
      `INSERT INTO statements (id, merchant_id, period_start, period_end, state, created_at)
       SELECT md5('s' || m)::uuid, md5('m' || m)::uuid, $2, $3, 'OPEN', $2 FROM generate_series(1, $1::int) m`,
      [MERCHANTS, WEEK_START, WEEK_END],
    );
    // Per order: its amount (20.00 to 219.99), 12 % commission half up, a third paid on delivery.
    await db.query(
      `INSERT INTO statement_lines (id, statement_id, kind, value, order_id, occurred_at)
       SELECT gen_random_uuid(), md5('s' || m)::uuid, k.kind,
              CASE k.kind WHEN 'ORDER' THEN a.amount
                          WHEN 'COMMISSION' THEN round(a.amount * 0.12, 2)
                          ELSE a.amount END,
              md5('o' || m || '-' || o)::uuid, $3::timestamptz + o * interval '30 minutes'
         FROM generate_series(1, $1::int) m CROSS JOIN generate_series(1, $2::int) o
        CROSS JOIN LATERAL (SELECT (20 + ((m * 7919 + o * 104729) % 20000) / 100.0)::numeric AS amount) a
        CROSS JOIN (VALUES ('ORDER'), ('COMMISSION'), ('COLLECTED_BY_MERCHANT')) AS k (kind)
        WHERE k.kind <> 'COLLECTED_BY_MERCHANT' OR o % 3 = 0`,
      [MERCHANTS, ORDERS, WEEK_START],
    );
    await db.query('ANALYZE statements');
    await db.query('ANALYZE statement_lines');
    const lines = Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM statement_lines')).rows[0]?.n);
    const seedMs = performance.now() - seedStarted;

    // The baseline, twice (the first warms the cache); the median of three.
    const bare = async () =>
      (
        await db.query(
          `SELECT statement_id, kind, sum(value)::text AS sum FROM statement_lines GROUP BY statement_id, kind`,
        )
      ).rows.length;
    await bare();
    const bareRuns = [];
    for (let i = 0; i < 3; i++) bareRuns.push(await measured(bare));
    const bareMs = median(bareRuns.map((r) => r.ms));

    const config = loadConfig({
      CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijklmnop',
      CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrstu',
      CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
    });
    const clock = manualClock(new Date('2026-03-09T03:00:01Z'));
    const services = createServices({ config, db, clock });
    const closing = await measured(() => services.statements.closeDue());
    if (closing.result !== MERCHANTS) throw new Error(`closed ${closing.result} of ${MERCHANTS} statements`);
    const feed = Number(
      (await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM feed_items WHERE kind = 'settlement'`)).rows[0]
        ?.n,
    );

    console.log(`machine: ${machine()}`);
    console.log(`seeded ${fmt(MERCHANTS)} statements, ${fmt(lines)} lines in ${fmt(seedMs / 1000, 1)} s`);
    console.log('| work | time ms | peak RSS growth MB | peak heap growth MB |');
    console.log('|---|---|---|---|');
    const bareMem = bareRuns[bareRuns.length - 1] ?? closing;
    console.log(
      `| bare SUM … GROUP BY (median of 3) | ${fmt(bareMs)} | ${fmt(bareMem.rssMb, 1)} | ${fmt(bareMem.heapMb, 1)} |`,
    );
    console.log(
      `| closeDue: ${fmt(MERCHANTS)} statements closed, ${fmt(feed)} feed items | ${fmt(closing.ms)} | ${fmt(closing.rssMb, 1)} | ${fmt(closing.heapMb, 1)} |`,
    );
    console.log(`ratio closing / bare: ${fmt(ratio(closing.ms, bareMs), 2)}`);
    reportRow({
      workload: `statements close: ${fmt(MERCHANTS)} merchants × ${fmt(ORDERS)} orders (${fmt(lines)} lines)`,
      baseline: `${fmt(bareMs)} ms bare SUM GROUP BY`,
      now: `${fmt(closing.ms)} ms`,
      ratio: `${fmt(ratio(closing.ms, bareMs), 2)}×`,
      goal: 'a week closes in the time of a few bare sums',
      met: ratio(closing.ms, bareMs) < 5,
    });
  } finally {
    await close();
  }
}

await main();
