// Benchmark: what the request log costs per request when every request is written,
// as with real POS keys (each within its rate limits, so no batch holds more than 1,000 rows of
// one key and every row is inserted, then trimmed or pruned). Records rows for many keys, flushes
// them each "second", and reads this process's CPU time (the embedded database's thread
// included) per row, beside the same loop without the log's writes.
// Run: node --import tsx bench/request-log.ts
import { cpuUsage } from 'node:process';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { manualClock } from '../src/lib/clock.js';
import { createRequestLog } from '../src/modules/usage/index.js';
import { fmt, machine, median, reportRow } from './support/measure.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const PER_FLUSH = Number(process.env.BENCH_ROWS ?? 2000);
const FLUSHES = Number(process.env.BENCH_FLUSHES ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const db = await openPglite();
await migrate(db);
const clock = manualClock(new Date('2026-11-28T00:00:00Z'));
// PER_FLUSH stays under the log's own early flush (5,000 rows waiting).
const log = createRequestLog({
  db,
  clock,
  flushEveryMs: 3_600_000,
  onError: (error) => {
    throw error;
  },
});
const keys = Array.from({ length: KEYS }, (_, i) => ({
  keyId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  merchantId: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
}));
const request = (n: number) => ({
  id: `req-${n}`,
  method: 'GET',
  url: '/v1/events:polling',
  body: undefined,
});
const failed = { id: 'req-f', method: 'POST', url: '/v1/orders/x/confirm', body: { orderExternalCode: 'PDV-1', x: 1 } };

const cpuMs = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};

let n = 0;
const perRow: number[] = [];
const recordOnly: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Every row inserted, keys trimmed after every 100 rows of theirs. record() (what the request
  // path pays) and the writes are timed apart: no write runs while record() is called.
  let recording = 0;
  let total = 0;
  for (let f = 0; f < FLUSHES; f++) {
    const start = cpuMs();
    for (let i = 0; i < PER_FLUSH; i++) {
      n++;
      // One request in 20 failed, with a body to redact.
      log.record(keys[n % KEYS], n % 20 === 0 ? failed : request(n), n % 20 === 0 ? 400 : 200, 1.5);
    }
    const recorded = cpuMs();
    clock.advance(1_000);
    await log.flush();
    recording += recorded - start;
    total += cpuMs() - start;
  }
  perRow.push((total * 1000) / (FLUSHES * PER_FLUSH));
  recordOnly.push((recording * 1000) / (FLUSHES * PER_FLUSH));
}
const { rows } = await db.query<{ n: number }>('SELECT coalesce(sum(entries), 0)::int AS n FROM request_log_batches');
console.log(
  `machine: ${machine()}; ${KEYS} keys, ${fmt(PER_FLUSH)} requests a flush, ${FLUSHES} flushes, ${ROUNDS} rounds; embedded PGlite`,
);
console.log(`CPU per logged request, written and trimmed: ${perRow.map((x) => fmt(x, 1)).join(' / ')} µs`);
console.log(`CPU per request of record() alone (the request path): ${recordOnly.map((x) => fmt(x, 2)).join(' / ')} µs`);
console.log(`rows in the table at the end: ${fmt(rows[0].n)} (at most ${KEYS} × 1,100)`);
reportRow({
  workload: `request log: CPU per request, ${KEYS} keys, every row written (PGlite)`,
  baseline: 'record() alone on the request path',
  now: `${fmt(median(perRow), 1)} µs per request written and trimmed; record() ${fmt(median(recordOnly), 2)} µs`,
  ratio: '—',
  goal: 'informative',
  met: true,
});
await db.close();
