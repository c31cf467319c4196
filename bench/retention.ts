// Retention (D30) batch cost against table size (docs/adr/0006-retention-batch-deletes.md): one
// batch of the two main pruning steps, measured on the same schema at two table sizes. If indexed
// batch deletes are the right choice, a batch costs the same at 10× the rows.
//   node --import tsx bench/retention.ts
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test (a fresh database per
// size, created and dropped). SIZES=100000,1000000 by default; BATCH=1000 as the default config.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { systemClock } from '../src/lib/clock.js';
import { createServices } from '../src/services.js';

const SIZES = (process.env.SIZES ?? '100000,1000000').split(',').map(Number);
const BATCH = Number(process.env.BATCH ?? '1000');
const BATCHES = 15;

/** n orders, one CREATED event each, one acknowledged receipt each; the older half past the horizon. */
async function seed(db: Db, n: number): Promise<void> {
  const t0 = "timestamptz '2026-01-01T00:00:00Z'";
  await db.query(`INSERT INTO merchants (id, name) VALUES (md5('m')::uuid, 'Açougue')`);
  await db.query(
    `INSERT INTO integration_keys (id, merchant_id, name, secret_hash, secret_enc) VALUES (md5('k')::uuid, md5('m')::uuid, 'k', 'x', 'x')`,
  );
  // Row i is i minutes after t0: rows 1..n/2 are older than the horizon (t0 + n/2 minutes).
  await db.query(
    `INSERT INTO orders (id, merchant_id, type, display_id, status, last_event, customer_id, delivery_code,
                         items_price, other_fees, discount, order_amount, document, created_at, updated_at)
     SELECT md5('o' || i)::uuid, md5('m')::uuid, 'DELIVERY', i::text, 'CONCLUDED', 'CONCLUDED', md5('c')::uuid, '1',
            1, 0, 0, 1, '{}', ${t0} + i * interval '1 minute', ${t0} + i * interval '1 minute'
       FROM generate_series(1, $1::int) i`,
    [n],
  );
  await db.query(
    `INSERT INTO order_events (order_id, event_type, merchant_id, occurrence_id, seq, created_at)
     SELECT md5('o' || i)::uuid, 'CREATED', md5('m')::uuid, md5('e' || i)::uuid, i, ${t0} + i * interval '1 minute'
       FROM generate_series(1, $1::int) i`,
    [n],
  );
  await db.query(
    `INSERT INTO order_event_log (occurrence_id, order_id, event_type, polled, created_at)
     SELECT md5('e' || i)::uuid, md5('o' || i)::uuid, 'CREATED', true, ${t0} + i * interval '1 minute'
       FROM generate_series(1, $1::int) i`,
    [n],
  );
  await db.query(
    `INSERT INTO event_receipts (key_id, order_id, event_type, seq, acknowledged_at)
     SELECT md5('k')::uuid, md5('o' || i)::uuid, 'CREATED', i, ${t0} + i * interval '1 minute'
       FROM generate_series(1, $1::int) i`,
    [n],
  );
  await db.query('ANALYZE');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(db: Db, n: number) {
  const config = loadConfig({
    CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijklmnop',
    CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrstu',
    CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
  });
  const services = createServices({ config, db, clock: systemClock });
  const horizon = new Date(Date.parse('2026-01-01T00:00:00Z') + (n / 2) * 60_000);
  const receipts: number[] = [];
  const orders: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    let started = performance.now();
    const removed = await services.events.pruneAcknowledgedReceipts(horizon, BATCH);
    receipts.push(performance.now() - started);
    if (removed === 0) throw new Error('nothing left to prune: the table is too small for this many batches');
    // A finished order's history: find a batch through its partial index, delete through order_id indexes.
    started = performance.now();
    const ids = await services.orders.finishedOrdersToPrune(horizon, BATCH / 10);
    await services.events.pruneOrderHistory(ids);
    await services.orders.markHistoryPruned(ids);
    orders.push(performance.now() - started);
  }
  return { receipts: median(receipts), orders: median(orders) };
}

async function main() {
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  console.log(
    `| rows per table | receipts batch (${BATCH} rows) ms | finished orders batch (${BATCH / 10} orders) ms |`,
  );
  console.log('|---|---|---|');
  try {
    for (const n of SIZES) {
      const name = `cleaver_retention_${randomBytes(3).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const db = openPostgres({ connectionString: url.toString() });
      try {
        await migrate(db);
        await seed(db, n);
        const r = await measure(db, n);
        console.log(`| ${n.toLocaleString('en-US')} | ${r.receipts.toFixed(1)} | ${r.orders.toFixed(1)} |`);
      } finally {
        await db.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    }
  } finally {
    await admin.end();
  }
}

await main();
