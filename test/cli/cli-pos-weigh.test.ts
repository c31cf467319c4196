// `cleaver pos orders weigh ORDER_ID --line INDEX=KG` as a user runs it, against a real server
// (D38): the weights, the totals printed after them, the --json document, the service's refusal
// naming the line's field, and usage errors (exit 2, one line naming the problem).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant } from '../support/test-app.js';
import { type CliResult, runCli } from './run-cli.js';

function expectUsage(r: CliResult, message: string): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^cleaver: /);
  expect(lines[0]).toContain(message);
  expect(r.stdout).toBe('');
}

describe('cleaver pos orders weigh', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let posEnv: Record<string, string>;
  let token: string;
  let merchantId: string;
  let picanha: string;
  let carvao: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    const m = await createMerchant(server.app, 'Açougue Balança de Comando');
    merchantId = m.merchantId;
    token = m.token;
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
    picanha = (await createProduct(server.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id;
    carvao = (await createProduct(server.app, merchantId, { name: 'Carvão', price: 25, unit: 'UN' })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const pos = (...args: string[]) => runCli(['pos', 'orders', ...args], posEnv);

  async function confirmedOrder() {
    const order = await createOrder(server.app, merchantId, {
      type: 'DELIVERY',
      items: [
        { productId: carvao, quantity: 1 },
        { productId: picanha, quantity: 1 },
      ],
      otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: 7.9 }],
      payments: { methods: [{ value: 122.8, type: 'PENDING', method: 'CASH', changeFor: 150 }] },
    });
    const confirmed = await server.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(token),
      payload: { createdAt: order.createdAt, orderExternalCode: 'CLI-W' },
    });
    expect(confirmed.statusCode).toBe(202);
    return order;
  }

  it('weighs a line and prints what the customer now pays; show marks the weighed line', async () => {
    const order = await confirmedOrder();
    const r = await pos('weigh', order.id, '--line', '1=0.94');
    expect(r.code, r.stderr).toBe(0);
    // 89.90 × 0.94 = 84.506 → 84.51; 25 + 84.51 + 7.90 = 117.41
    expect(r.stdout).toBe(
      `✓ weighed order ${order.id}:\n  line 1 Picanha: 0.94 kg (ordered 1 kg) = 84.51\n  order amount 117.41\n`,
    );
    const shown = await pos('show', order.id);
    expect(shown.stdout).toMatch(/Picanha\s+0\.94 \(ordered 1\)\s+KG\s+84\.51/);

    const json = await pos('weigh', order.id, '--line', '1=1,05', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      weighingId: expect.any(String),
      state: 'APPLIED',
      orderId: order.id,
      action: 'weigh',
      accepted: true,
      body: { items: [{ index: 1, quantity: 1.05 }] },
      // 89.90 × 1.05 = 94.395 → 94.40
      lines: [{ index: 1, name: 'Picanha', quantity: 1.05, orderedQuantity: 1, totalPrice: 94.4 }],
      orderAmount: 127.3,
    });
    const view = await server.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders });
    expect(view.json().weighings).toHaveLength(2);
  });

  it('shows the service’s refusal with the allowed range, and refuses bad usage before calling', async () => {
    const order = await confirmedOrder();
    const outside = await pos('weigh', order.id, '--line', '1=1.5');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('items[0].quantity must be between 0.8 and 1.2 (±20 % of the 1 kg ordered)');
    const unit = await pos('weigh', order.id, '--line', '0=1');
    expect(unit.stderr).toContain('items[0].quantity cannot be applied: line 0 is sold by UN');

    expectUsage(await pos('weigh', order.id), 'pos orders weigh needs --line INDEX=KG');
    expectUsage(
      await pos('weigh', order.id, '--line', '1:0.94'),
      '--line must be INDEX=KG such as 0=0.94, got "1:0.94"',
    );
    expectUsage(
      await pos('weigh', order.id, '--line', '1=0.94', '--reason', 'x'),
      '--reason does not apply to pos orders weigh',
    );
    expectUsage(await pos('ready', order.id, '--line', '1=0.94'), '--line does not apply to pos orders ready');
  });
});
