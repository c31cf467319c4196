// `cleaver pos orders weigh ORDER --line 0 --label 2010085025049` as a user runs it, against a
// real server (D41): the label weighs the line and the totals follow; and out of tolerance under
// the ASK policy (D42) the command waits for the platform's decision and prints it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { merchantBody, merchantRecord, productByPdv, sync } from '../support/catalog.js';
import { createOrder } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, type MerchantCredentials } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver pos orders weigh --label', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let me: MerchantCredentials;
  let posEnv: Record<string, string>;
  let picanha: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    me = await createMerchant(server.app, 'Açougue da Etiqueta');
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: me.merchantId, CLEAVER_CLIENT_SECRET: me.clientSecret };
    const status = await sync(
      server,
      me,
      merchantBody({
        categories: [{ id: 'C1', name: 'Bovinos', itemOfferId: ['O1'] }],
        itemOffers: [{ id: 'O1', itemId: 'PICANHA', price: { value: 12.19 } }],
        items: [{ id: 'PICANHA', name: 'Picanha', unit: 'KG', scaleCode: '10085' }],
      }),
    );
    expect(status.status).toBe('SUCCESS');
    picanha = productByPdv(await merchantRecord(server, me), 'PICANHA')?.id as string;
    const layouts = await server.app.inject({
      method: 'PUT',
      url: '/v1/merchant/scaleLabelLayouts',
      headers: bearer(me.token),
      payload: [{ prefix: '2', codeDigits: 6, value: 'WEIGHT', valueDigits: 5, decimals: 3 }],
    });
    expect(layouts.statusCode).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function confirmedOrder(quantity: number) {
    const order = await createOrder(server.app, me.merchantId, {
      type: 'DELIVERY',
      items: [{ productId: picanha, quantity }],
    });
    const confirmed = await server.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(me.token),
      payload: { createdAt: order.createdAt, orderExternalCode: 'CLI-L' },
    });
    expect(confirmed.statusCode).toBe(202);
    return order.id;
  }

  it('weighs a line by its label and prints the totals', async () => {
    const orderId = await confirmedOrder(2.5);
    const r = await runCli(
      ['pos', 'orders', 'weigh', orderId, '--line', '0', '--label', '2010085025049', '--json'],
      posEnv,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      state: 'APPLIED',
      body: { items: [{ index: 0, label: '2010085025049' }] },
      lines: [{ index: 0, quantity: 2.504, totalPrice: 30.52, scaleLabel: '2010085025049' }],
      // 30.52 and the intake's default delivery fee
      orderAmount: 38.42,
    });
  });

  it('a label without its --line is a usage error', async () => {
    const r = await runCli(
      ['pos', 'orders', 'weigh', '00000000-0000-4000-8000-000000000000', '--line', '0=1', '--label', '2010085025049'],
      posEnv,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('each --line INDEX without =KG needs one --label EAN13: 0 such --line, 1 --label');
  });

  it('out of tolerance under ASK: waits for the platform’s decision and prints it', async () => {
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
      payload: { weighingOutOfTolerance: 'ASK' },
    });
    expect(patched.statusCode).toBe(200);
    const orderId = await confirmedOrder(1);
    const running = runCli(['pos', 'orders', 'weigh', orderId, '--line', '0', '--label', '2010085025049'], posEnv);
    let weighingId: string | undefined;
    for (let i = 0; i < 100 && !weighingId; i++) {
      const order = await server.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: bearer(me.token) });
      weighingId = order.json().weighing?.weighingId;
      if (!weighingId) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const decided = await server.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${orderId}/weighings/${weighingId}/decision`,
      headers: adminHeaders,
      payload: { decision: 'ACCEPT' },
    });
    expect(decided.statusCode).toBe(200);
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('decision: ACCEPT by platform');
    expect(r.stdout).toContain('line 0 Picanha: 2.504 kg (ordered 1 kg) = 30.52 [label 2010085025049]');
  });
});
