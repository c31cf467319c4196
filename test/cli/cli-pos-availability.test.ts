// D43 and D44 on a live service (a real socket, the real workers, the real clock), driven as a
// butcher would: `cleaver pos items pause` until a time and the product back by itself (the
// worker's sweep); stock by weight falling with an order and its weighing until the product is
// unavailable at its weight minimum; an encomenda taken into a slot and a full slot refused with
// the field named; `cleaver pos store pause --until` and resume.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { createProduct } from '../support/orders.js';
import { ADMIN_TOKEN, createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('what is in the case and the calendar, live (D43, D44)', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let posEnv: Record<string, string>;
  let token: string;
  let merchantId: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    const m = await createMerchant(server.app, 'Açougue do Natal');
    merchantId = m.merchantId;
    token = m.token;
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  const http = async (method: string, path: string, body?: unknown, as: 'pos' | 'admin' = 'admin') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${as === 'pos' ? token : ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { title?: string } };
  };
  const product = async (id: string) =>
    ((await http('GET', '/v1/merchant', undefined, 'pos')).body.products as Array<Record<string, unknown>>).find(
      (p) => p.id === id,
    );

  it('a product paused until a time comes back by itself', async () => {
    const picanha = (await createProduct(server.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id;
    const until = new Date(Date.now() + 1500).toISOString();
    const paused = await runCli(
      ['pos', 'items', 'pause', picanha, '--reason', 'QUALITY', '--until', until, '--json'],
      posEnv,
    );
    expect(paused.code, paused.stderr).toBe(0);
    expect(JSON.parse(paused.stdout)).toEqual([
      { productId: picanha, pdvId: null, available: false, reason: 'QUALITY', until, stock: null },
    ]);
    expect(await product(picanha)).toMatchObject({ status: 'UNAVAILABLE' });
    // The worker's sweep (every 5 s) ends the pause and announces it.
    const deadline = Date.now() + 20_000;
    let back = false;
    while (!back && Date.now() < deadline) {
      await sleep(500);
      const { rows } = await server.database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM feed_items WHERE merchant_id = $1 AND type = 'AVAILABILITY_CHANGED'`,
        [merchantId],
      );
      back = (rows[0]?.n ?? 0) >= 2;
    }
    expect(back).toBe(true);
    expect(await product(picanha)).toMatchObject({
      status: 'AVAILABLE',
      availability: { available: true, reason: null },
    });
  });

  it('stock by weight falls with an order and its weighing; at weight.min the product is unavailable', async () => {
    const pernil = (await createProduct(server.app, merchantId, { name: 'Pernil', price: 34.9, unit: 'KG' })).id;
    await server.database.db.query(
      'UPDATE products SET weight_min = 0.5, weight_max = 10, weight_step = 0.1 WHERE id = $1',
      [pernil],
    );
    const counted = await runCli(['pos', 'items', 'stock', pernil, '3'], posEnv);
    expect(counted.code, counted.stderr).toBe(0);
    expect(counted.stdout).toContain('3');
    const order = await http('POST', `/admin/v1/merchants/${merchantId}/orders`, {
      type: 'TAKEOUT',
      items: [{ productId: pernil, quantity: 2.3 }],
    });
    expect(order.status).toBe(201);
    const confirmed = await http(
      'POST',
      `/v1/orders/${order.body.id}/confirm`,
      { createdAt: order.body.createdAt, orderExternalCode: 'NATAL-1' },
      'pos',
    );
    expect(confirmed.status).toBe(202);
    expect((await product(pernil))?.stock).toBe(0.7);
    const weighed = await http(
      'POST',
      `/v1/orders/${order.body.id}/weighing`,
      { items: [{ index: 0, quantity: 2.5 }] },
      'pos',
    );
    expect(weighed.status).toBe(202);
    expect(await product(pernil)).toMatchObject({
      status: 'UNAVAILABLE',
      stock: 0.5,
      availability: { available: false, reason: 'OUT_OF_STOCK' },
    });
    const refused = await http('POST', `/admin/v1/merchants/${merchantId}/orders`, {
      type: 'TAKEOUT',
      items: [{ productId: pernil, quantity: 0.5 }],
    });
    expect(refused).toEqual({
      status: 400,
      body: { title: 'items[0] names an unavailable product (OUT_OF_STOCK)', status: 400 },
    });
  });

  it('an encomenda takes a slot; the full slot is refused naming schedule', async () => {
    const leitoa = (await createProduct(server.app, merchantId, { name: 'Leitoa', price: 480, unit: 'UN' })).id;
    const patched = await http('PATCH', `/admin/v1/merchants/${merchantId}`, { scheduling: { capacityPerSlot: 1 } });
    expect(patched.status).toBe(200);
    const slots = await http('GET', `/admin/v1/merchants/${merchantId}/slots`);
    const list = slots.body as unknown as Array<{ start: string; end: string; left: number }>;
    const slot = list[24] as { start: string; end: string; left: number };
    expect(slot.left).toBe(1);
    const encomenda = () =>
      http('POST', `/admin/v1/merchants/${merchantId}/orders`, {
        type: 'TAKEOUT',
        orderTiming: 'SCHEDULED',
        schedule: { scheduledDateTimeStart: slot.start, scheduledDateTimeEnd: slot.end },
        items: [{ productId: leitoa, quantity: 1 }],
      });
    const taken = await encomenda();
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ orderTiming: 'SCHEDULED', preparationStartDateTime: slot.start });
    expect(await encomenda()).toEqual({
      status: 400,
      body: { title: `schedule: the slot at ${slot.start} is full (1 orders per slot)`, status: 400 },
    });
  });

  it('pauses the store until a time and resumes it', async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const paused = await runCli(['pos', 'store', 'pause', '--until', until, '--reason', 'Inventário'], posEnv);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toBe(`UNAVAILABLE until ${until} (Inventário)\n`);
    const status = await http('GET', `/v1/merchant/${merchantId}/status`, undefined, 'pos');
    expect(status.body).toMatchObject({ status: 'UNAVAILABLE', pause: { reason: 'Inventário', until } });
    const resumed = await runCli(['pos', 'store', 'resume'], posEnv);
    expect(resumed.stdout).toBe('AVAILABLE\n');
  });
});
