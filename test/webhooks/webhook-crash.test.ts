// At least once, across crashes: a real worker process (`cleaver serve --role worker`) is killed
// with SIGKILL five times while 2,000 events are being delivered, and restarted each time.
// Needs PostgreSQL, which several processes can share (PGlite is one process's database).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { RecordedEvent } from '../../src/modules/events/event-contract.js';
import { buildEvent } from '../support/event-factory.js';
import { ADMIN_TOKEN, bearer, createMerchant, createTestApp, SECRET_KEY, type TestApp } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const EVENTS = 2_000;
const ORDERS = 200;
const KILLS = 5;

const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  while (cleanups.length) await cleanups.pop()?.();
});

function startWorker(databaseUrl: string, dataDir: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--role', 'worker'], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      CLEAVER_SECRET_KEY: SECRET_KEY,
      CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN,
      CLEAVER_DATA_DIR: dataDir,
      CLEAVER_WEBHOOK_LEASE_SEC: '2',
      CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.5,1,1,1,1,1,1,1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c) => {
    stderr += String(c);
  });
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (signal !== 'SIGKILL' && code !== 0) process.stderr.write(`worker exited ${code}: ${stderr}\n`);
  });
  children.add(child);
  return child;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('crash safety with a real worker process', () => {
  it('every event reaches the receiver at least once although the worker is killed 5 times', async () => {
    if (testDbKind() !== 'postgres') {
      console.log('webhook crash test: runs in the postgres project only (worker processes share PostgreSQL)');
      return;
    }
    const t: TestApp = await createTestApp();
    cleanups.push(() => t.close());
    const url = t.database.url as string;
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-crash-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    // Answers take a few milliseconds, so kills land while attempts are in flight.
    const receiver: WebhookReceiver = await startWebhookReceiver(() => ({
      status: 200,
      delayMs: 2 + Math.floor(Math.random() * 15),
    }));
    cleanups.push(() => receiver.close());
    const merchant = await createMerchant(t.app);
    const onboarded = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(merchant.token),
      payload: { ordersWebhookURL: receiver.url },
    });
    expect(onboarded.statusCode).toBe(200);

    const orders = Array.from({ length: ORDERS }, () => newId());
    const events: RecordedEvent[] = Array.from({ length: EVENTS }, (_, i) =>
      buildEvent({ merchantId: merchant.merchantId, orderId: orders[i % ORDERS] }),
    );
    // The producer records events at a steady pace while workers come and go.
    const producer = (async () => {
      for (let i = 0; i < events.length; i += 10) {
        await t.database.db.transaction(async (tx) => {
          for (const e of events.slice(i, i + 10)) await t.services.webhooks.enqueueForEvent(tx, e);
        });
        await new Promise((r) => setTimeout(r, 8));
      }
    })();

    const started = performance.now();
    for (let k = 0; k < KILLS; k++) {
      const child = startWorker(url, dataDir);
      const seen = receiver.requests.length;
      await receiver.waitFor((r) => r.length >= seen + 120, 20_000);
      await killed(child);
    }
    await producer;
    const last = startWorker(url, dataDir);
    const unique = (r: typeof receiver.requests) => new Set(r.map((x) => String(x.headers['webhook-id']))).size;
    await receiver.waitFor((r) => unique(r) === EVENTS, 40_000);
    // The last worker records its final results just after the receiver saw them.
    const pendingRows = async () =>
      (
        await t.database.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'DELIVERED'`,
        )
      ).rows[0].n;
    for (let i = 0; i < 200 && (await pendingRows()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    await killed(last);
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);

    const ids = new Set(events.map((e) => e.occurrenceId));
    const received = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(received.every((id) => ids.has(id))).toBe(true);
    expect(new Set(received).size).toBe(EVENTS);
    const duplicates = received.length - EVENTS;
    const { rows } = await t.database.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status',
    );
    const { rows: interrupted } = await t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_attempts WHERE error LIKE 'Attempt interrupted%'`,
    );
    console.log(
      `webhook crash test: ${EVENTS} events, ${KILLS} SIGKILLs, ${received.length} requests received, ` +
        `${duplicates} duplicates, ${interrupted[0].n} attempts recorded as interrupted, ${elapsed} s`,
    );
    // Delivery state may lag the receiver by the last in-flight batch; every row ends DELIVERED.
    expect(rows.filter((r) => r.status !== 'DELIVERED').reduce((n, r) => n + r.n, 0)).toBeLessThanOrEqual(EVENTS);

    // Per-order ordering survives crashes: first arrivals follow the order of recording.
    const firstSeen = new Map<string, number>();
    received.forEach((id, i) => {
      if (!firstSeen.has(id)) firstSeen.set(id, i);
    });
    for (const orderId of orders) {
      const sequence = events.filter((e) => e.orderId === orderId).map((e) => firstSeen.get(e.occurrenceId) as number);
      expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
    }
  }, 90_000);
});
