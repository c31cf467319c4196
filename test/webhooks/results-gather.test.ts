// The results writer's gather (src/modules/webhooks/webhook-result-writer.ts): while other
// attempts are still running, a results write waits a little for more results, so a saturated
// worker writes many per statement; when nothing more is coming, a result goes out at once. Real
// deliveries, claimed from the real database; statements counted on the database handle.
import { describe, expect, it } from 'vitest';
import { createResultWriter } from '../../src/modules/webhooks/webhook-result-writer.js';
import {
  type AttemptResult,
  type ClaimedRow,
  claimDueDeliveries,
} from '../../src/modules/webhooks/webhooks-repository.js';
import { createSimpleOrder } from '../support/orders.js';
import { hookStatements } from '../support/statement-hook.js';
import { closeAfterEach, deliveries, setup } from '../support/webhook-kit.js';

closeAfterEach();

/** A merchant with `n` pending deliveries, claimed under one lease, and a results-write counter. */
async function claimed(n: number) {
  const { t, merchant } = await setup();
  for (let i = 0; i < n; i++) await createSimpleOrder(t.app, merchant.merchantId);
  const now = new Date();
  const rows = await claimDueDeliveries(t.database.db, {
    now,
    limit: n,
    leaseToken: '00000000-0000-4000-8000-00000000000a',
    leaseUntil: new Date(now.getTime() + 60_000),
  });
  expect(rows).toHaveLength(n);
  let writes = 0;
  const undo = hookStatements(t.database.db, (sql) => {
    if (sql.includes('INSERT INTO webhook_attempts') && sql.includes('unnest(')) writes += 1;
  });
  const result = (row: ClaimedRow): AttemptResult => ({
    deliveryId: row.id,
    merchantId: row.merchant_id,
    leaseToken: '00000000-0000-4000-8000-00000000000a',
    attemptNo: row.attempt_count,
    startedAt: now,
    durationMs: 3,
    targetUrl: 'http://127.0.0.1:9/webhook',
    statusCode: 204,
    error: null,
    responseSnippet: null,
    status: 'DELIVERED',
    nextAttemptAt: null,
    at: new Date(),
  });
  return { t, merchant, rows, result, writes: () => writes, undo };
}

/** Whether `promise` settles within `ms` (resolves as soon as it does). */
const settledWithin = (promise: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });

describe('results writer gather', () => {
  it('while others run, results wait for one another; the last one out sends them all in one statement', async () => {
    const { t, merchant, rows, result, writes, undo } = await claimed(3);
    let running = 3;
    // A wait far longer than the test: any write before the last result is the gather failing.
    const writer = createResultWriter(t.database.db, { gatherMs: 60_000, running: () => running });
    try {
      running -= 1;
      const first = writer.write(result(rows[0] as ClaimedRow));
      running -= 1;
      const second = writer.write(result(rows[1] as ClaimedRow));
      expect(await settledWithin(first, 300)).toBe(false);
      expect(writes()).toBe(0);
      running -= 1;
      await Promise.all([first, second, writer.write(result(rows[2] as ClaimedRow))]);
      expect(writes()).toBe(1);
      await writer.idle();
    } finally {
      undo();
    }
    const written = await deliveries(t, merchant.merchantId);
    expect(written.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(written.every((d) => d.attempts.length === 1 && d.attempts[0]?.statusCode === 204)).toBe(true);
  });

  it('a lone result (nothing else running) is written at once', async () => {
    const { t, rows, result, writes, undo } = await claimed(1);
    const writer = createResultWriter(t.database.db, { gatherMs: 60_000, running: () => 0 });
    try {
      expect(await settledWithin(writer.write(result(rows[0] as ClaimedRow)), 2_000)).toBe(true);
      expect(writes()).toBe(1);
    } finally {
      undo();
    }
  });

  it('enough results gathered: written without waiting for the rest', async () => {
    const { t, rows, result, writes, undo } = await claimed(4);
    const writer = createResultWriter(t.database.db, { gatherMs: 60_000, gatherTarget: 2, running: () => 10 });
    try {
      const pair = Promise.all(rows.slice(0, 2).map((row) => writer.write(result(row))));
      expect(await settledWithin(pair, 2_000)).toBe(true);
      expect(writes()).toBe(1);
      // The next two: a second statement, once they are two again.
      const single = writer.write(result(rows[2] as ClaimedRow));
      expect(await settledWithin(single, 300)).toBe(false);
      await Promise.all([single, writer.write(result(rows[3] as ClaimedRow))]);
      expect(writes()).toBe(2);
    } finally {
      undo();
    }
  });

  it('the wait is bounded: a result goes out after gatherMs though others still run', async () => {
    const { t, rows, result, writes, undo } = await claimed(1);
    const writer = createResultWriter(t.database.db, { gatherMs: 200, running: () => 5 });
    try {
      const started = performance.now();
      await writer.write(result(rows[0] as ClaimedRow));
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      expect(writes()).toBe(1);
      await writer.idle();
    } finally {
      undo();
    }
  });
});
