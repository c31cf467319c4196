// The reference POS weighs (D38): a confirmed order's KG lines go on the (made-up) scale before
// the order leaves the kitchen, within the platform's tolerance; the weights and the new total
// land in the state file; UN lines are not weighed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorClient, createPosClient } from '../../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../../packages/pos-client/test/support.js';
import { ADMIN_TOKEN, createMerchant } from '../../../test/support/test-app.js';
import { createReferencePos, scaleReading } from '../src/pos.js';
import type { PosState } from '../src/state-store.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('reference POS: weighing before the order leaves (D38)', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it('scale readings are plausible: within ±5 % of the order, in grams, the same every time', () => {
    for (const ordered of [0.001, 0.25, 1, 1.25, 3.333]) {
      const w = scaleReading('0b7a0b1e-0000-4000-8000-000000000001', 0, ordered);
      expect(Math.abs(w - ordered)).toBeLessThanOrEqual(ordered * 0.05 + 0.0005);
      expect(Math.round(w * 1000)).toBe(w * 1000);
      expect(scaleReading('0b7a0b1e-0000-4000-8000-000000000001', 0, ordered)).toBe(w);
    }
  });

  it('weighs the KG lines of a confirmed order, then dispatches it', { timeout: 60_000 }, async () => {
    const merchant = await createMerchant(server.app, 'Açougue Referência Balança');
    const client = createPosClient({
      baseUrl: server.url,
      clientId: merchant.merchantId,
      clientSecret: merchant.clientSecret,
    });
    const statePath = join(mkdtempSync(join(tmpdir(), 'pos-weighing-')), 'pos-state.json');
    const pos = createReferencePos({
      client,
      statePath,
      catalog: JSON.parse(readFileSync(join(ROOT, 'examples/pos-integration/catalog.json'), 'utf8')),
      webhookURL: 'http://127.0.0.1:8099',
      catalogPollMs: 50,
      preparationMs: 0,
      log: () => {},
    });
    await pos.setup();
    const op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
    const placed = await op.createOrder(merchant.merchantId, {
      type: 'DELIVERY',
      items: [
        { pdvId: 'picanha', quantity: 1.25 },
        { pdvId: 'hamburguer-180', quantity: 2 },
        { pdvId: 'linguica-toscana', quantity: 0.5 },
      ],
    });
    const [created] = await client.pollEvents();
    await pos.handleEvent(created);
    await pos.kitchenTick();

    const order = await client.getOrder(placed.id);
    expect(order.items.map((i) => i.orderedQuantity)).toEqual([1.25, undefined, 0.5]);
    expect(order.items[0].quantity).toBe(scaleReading(placed.id, 0, 1.25));
    expect(order.items[2].quantity).toBe(scaleReading(placed.id, 2, 0.5));
    expect(order.lastEvent).toBe('DISPATCHED');
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as PosState;
    expect(state.orders[placed.id]).toMatchObject({
      status: 'DISPATCHED',
      weights: { '0': order.items[0].quantity, '2': order.items[2].quantity },
      total: order.total.orderAmount.value,
    });
    const detail = (await op.getOrder(placed.id)) as unknown as { weighings: unknown[] };
    expect(detail.weighings).toHaveLength(1);
  });
});
