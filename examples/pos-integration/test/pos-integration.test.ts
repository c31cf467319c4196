// The reference POS as a real child process against a real server, killed once mid-run
// (SIGKILL: no chance to clean up). After the restart no event may be lost and none processed
// twice. "Lost" is checked against a second integration key of the merchant that never
// acknowledges: it still sees every event (spec 4.13 rules 1 and 5).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperatorClient,
  createPosClient,
  type EventRecord,
  type OperatorClient,
  runEventLoop,
} from '../../../packages/pos-client/src/index.js';
import {
  type RunningApp,
  startApp,
  startAppWorkers,
  startFailingProxy,
} from '../../../packages/pos-client/test/support.js';
import { ADMIN_TOKEN, addIntegrationKey, createMerchant } from '../../../test/support/test-app.js';
import { createReferencePos } from '../src/pos.js';
import type { PosState } from '../src/state-store.js';

const readStateFile = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as PosState;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('reference POS integration (examples/pos-integration)', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let op: OperatorClient;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000', CLEAVER_RATE_LIMIT_READ: '100000' } });
    workers = await startAppWorkers(server);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it('survives a kill mid-run: after restart no event is lost and none is processed twice', {
    timeout: 120_000,
  }, async () => {
    const merchant = await createMerchant(server.app, 'Açougue Referência');
    const verifierSecret = (await addIntegrationKey(server.app, merchant.merchantId)).clientSecret;
    const dir = mkdtempSync(join(tmpdir(), 'cleaver-pos-'));
    const statePath = join(dir, 'pos-state.json');
    const output: string[] = [];

    const startPos = (): ChildProcess => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'examples/pos-integration/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          CLEAVER_URL: server.url,
          CLEAVER_CLIENT_ID: merchant.merchantId,
          CLEAVER_CLIENT_SECRET: merchant.clientSecret,
          POS_STATE_FILE: statePath,
          POS_WEBHOOK_URL: 'http://127.0.0.1:8099',
          POS_POLL_INTERVAL_MS: '100',
          POS_PREPARATION_MS: '500',
          POS_DELIVERY_MS: '2500',
          POS_KITCHEN_TICK_MS: '100',
          POS_CATALOG_POLL_MS: '100',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d) => output.push(String(d)));
      child.stderr?.on('data', (d) => output.push(String(d)));
      return child;
    };
    const readState = (): PosState | undefined =>
      existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as PosState) : undefined;
    const exited = (child: ChildProcess) =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });

    let pos = startPos();
    try {
      await waitFor('the catalog sync', () => readState()?.catalog?.status === 'SUCCESS');
      const state0 = readState()!;
      expect(state0.onboardedWebhookURL).toBe('http://127.0.0.1:8099');

      const place = (type: 'DELIVERY' | 'TAKEOUT', items: Array<{ pdvId: string; quantity: number }>) =>
        op.createOrder(merchant.merchantId, { type, items });
      const orders = [
        await place('DELIVERY', [{ pdvId: 'picanha', quantity: 1.2 }]),
        await place('DELIVERY', [
          { pdvId: 'fraldinha', quantity: 0.8 },
          { pdvId: 'hamburguer-180', quantity: 4 },
        ]),
        await place('TAKEOUT', [{ pdvId: 'linguica-toscana', quantity: 2 }]),
        await place('DELIVERY', [{ pdvId: 'hamburguer-180', quantity: 2 }]),
      ];
      // A customer changes their mind at once: preparation can stop, so the POS accepts.
      await op.customerCancellation(orders[3].id, 'pedido duplicado');

      await waitFor('some events processed', () => (readState()?.processed.length ?? 0) >= 4);
      pos.kill('SIGKILL');
      await exited(pos);

      // While the POS is down, the world moves on.
      orders.push(await place('DELIVERY', [{ pdvId: 'picanha', quantity: 2 }]));
      orders.push(await place('TAKEOUT', [{ pdvId: 'hamburguer-180', quantity: 1 }]));
      await op.customerCancellation(orders[5].id);

      pos = startPos();
      // A cancellation asked after the order left the shop: the POS denies it.
      await waitFor('order 1 dispatched', () => readState()?.orders[orders[1].id]?.status === 'DISPATCHED');
      await op.customerCancellation(orders[1].id, 'demorou');

      const expected: Record<string, string> = {
        [orders[0].id]: 'DELIVERED',
        [orders[1].id]: 'DELIVERED',
        [orders[2].id]: 'READY_FOR_PICKUP',
        [orders[3].id]: 'CANCELLED',
        [orders[4].id]: 'DELIVERED',
        [orders[5].id]: 'CANCELLED',
      };
      await waitFor(
        'every order in its final state',
        () => {
          const s = readState();
          return s && Object.entries(expected).every(([id, status]) => s.orders[id]?.status === status);
        },
        60_000,
      );
      // Let the echoes of the last actions (DELIVERED…) be polled and processed, then stop cleanly.
      const verifier = createPosClient({
        baseUrl: server.url,
        clientId: merchant.merchantId,
        clientSecret: verifierSecret,
      });
      let all: EventRecord[] = [];
      await waitFor('the POS to catch up with every event', () => {
        void verifier.pollEvents().then((e) => {
          all = e;
        });
        const done = new Set(readState()?.processed.map((p) => `${p.orderId}|${p.eventType}|${p.createdAt}`));
        return all.length > 0 && all.every((e) => done.has(`${e.orderId}|${e.eventType}|${e.createdAt}`));
      });
      pos.kill('SIGTERM');
      expect(await exited(pos)).toBe(0);

      const final = readState()!;
      // None processed twice.
      const keys = final.processed.map((p) => `${p.orderId}|${p.eventType}|${p.createdAt}`);
      expect(new Set(keys).size).toBe(keys.length);
      // None lost: every event the platform holds for this merchant was processed…
      all = await verifier.pollEvents();
      const processedKeys = new Set(keys);
      expect(all.filter((e) => !processedKeys.has(`${e.orderId}|${e.eventType}|${e.createdAt}`))).toEqual([]);
      expect(all.map((e) => e.eventType)).toEqual(expect.arrayContaining(['CREATED', 'CANCELLED', 'CANCELLED_DENIED']));
      // …and acknowledged by the POS's key: nothing is pending for it.
      const posKey = createPosClient({
        baseUrl: server.url,
        clientId: merchant.merchantId,
        clientSecret: merchant.clientSecret,
      });
      expect(await posKey.pollEvents()).toEqual([]);
      // The answers the POS gave are the ones the platform recorded.
      expect(
        final.processed.find((p) => p.orderId === orders[3].id && p.eventType === 'ORDER_CANCELLATION_REQUEST')
          ?.outcome,
        // "already": the answer went out just before the kill and the restarted POS found it recorded.
      ).toMatch(/^accept (done|already)$/);
      expect(
        final.processed.find((p) => p.orderId === orders[1].id && p.eventType === 'ORDER_CANCELLATION_REQUEST')
          ?.outcome,
      ).toMatch(/^deny (done|already)$/);
    } catch (error) {
      pos.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n--- POS output ---\n${output.join('')}`);
    }
  });

  it('an event saved but not acknowledged before a crash is acknowledged after restart, not processed again', async () => {
    const merchant = await createMerchant(server.app, 'Açougue Janela');
    const proxy = await startFailingProxy(server.url);
    const dir = mkdtempSync(join(tmpdir(), 'cleaver-pos-'));
    const statePath = join(dir, 'pos-state.json');
    const catalog = JSON.parse(readFileSync(join(ROOT, 'examples/pos-integration/catalog.json'), 'utf8'));
    const instance = () =>
      createReferencePos({
        client: createPosClient({
          baseUrl: proxy.url,
          clientId: merchant.merchantId,
          clientSecret: merchant.clientSecret,
        }),
        statePath,
        catalog,
        webhookURL: 'http://127.0.0.1:8099',
        catalogPollMs: 50,
        log: () => {},
      });
    try {
      const first = instance();
      await first.setup();
      const order = await op.createOrder(merchant.merchantId, {
        type: 'DELIVERY',
        items: [{ pdvId: 'picanha', quantity: 1 }],
      });
      const poller = createPosClient({
        baseUrl: server.url,
        clientId: merchant.merchantId,
        clientSecret: merchant.clientSecret,
      });
      const [created] = await poller.pollEvents();
      expect(created).toMatchObject({ orderId: order.id, eventType: 'CREATED' });
      // The first process handles and saves the event, then dies before acknowledging it.
      await first.handleEvent(created);

      // The restarted process: setup does nothing again, the event comes back and is only acknowledged.
      const second = instance();
      await second.setup();
      const controller = new AbortController();
      const summary = await runEventLoop(
        poller,
        async (event) => {
          await second.handleEvent(event);
          if (event.eventType === 'CONFIRMED') controller.abort();
        },
        { signal: controller.signal, intervalMs: 50 },
      );
      expect(summary.acknowledged).toBeGreaterThanOrEqual(2);
      expect(await poller.pollEvents()).toEqual([]);
      const state = readStateFile(statePath);
      expect(state.processed.filter((p) => p.orderId === order.id).map((p) => [p.eventType, p.outcome])).toEqual([
        ['CREATED', 'confirm done'],
        ['CONFIRMED', 'noted'],
      ]);
      const requests = proxy.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`);
      expect(requests.filter((r) => r === `POST /v1/orders/${order.id}/confirm`)).toHaveLength(1);
      expect(requests.filter((r) => r === 'PUT /v1/merchantUpdate')).toHaveLength(1);
      expect(requests.filter((r) => r === 'PUT /v1/merchantOnboarding')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
