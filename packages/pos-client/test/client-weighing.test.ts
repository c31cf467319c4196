// The client's butchery calls against a real server (D37, D38): the chosen cut on the order the
// client reads, `weigh` and the order after it, the 400 that names the line's field, and a weigh
// resent after its connection broke (the server weighed; the resend changes nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createMerchant } from '../../../test/support/test-app.js';
import { CleaverApiError, createOperatorClient, createPosClient, type OperatorClient } from '../src/index.js';
import { type FailingProxy, RESET, type RunningApp, startApp, startFailingProxy } from './support.js';

describe('pos-client against a real server: cuts and weighing', () => {
  let server: RunningApp;
  let proxy: FailingProxy;
  let op: OperatorClient;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    proxy = await startFailingProxy(server.url);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('reads the cut, weighs a KG line, is refused outside the tolerance, and resends a broken weigh', async () => {
    const m = await createMerchant(server.app);
    const client = createPosClient({ baseUrl: proxy.url, clientId: m.merchantId, clientSecret: m.clientSecret });
    const picanha = (await op.createProduct(m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id as string;
    const cut = await op.addCut(m.merchantId, picanha, { id: 'bife', name: 'Bife', spice: { name: 'Alho' } });
    expect(cut).toEqual({ id: 'bife', name: 'Bife', spice: { id: expect.any(String), name: 'Alho' } });
    expect((await client.getMerchant()).products[0].cuts).toEqual([cut]);

    const placed = await op.createOrder(m.merchantId, {
      type: 'TAKEOUT',
      items: [{ productId: picanha, quantity: 1, cutId: 'bife' }],
    });
    await client.confirm(placed.id, { createdAt: placed.createdAt, orderExternalCode: 'PDV-W1' });
    const order = await client.getOrder(placed.id);
    expect(order.items[0].options?.[0]).toMatchObject({ id: 'bife', name: 'Bife – Alho', unitPrice: { value: 0 } });

    await client.weigh(placed.id, [{ index: 0, quantity: 0.94 }]);
    const weighed = await client.getOrder(placed.id);
    expect(weighed.items[0]).toMatchObject({ quantity: 0.94, orderedQuantity: 1, totalPrice: { value: 84.51 } });
    expect(weighed.weighingAdjustment).toEqual({ value: -5.39, currency: 'BRL' });

    const refused = await client.weigh(placed.id, [{ index: 0, quantity: 1.5 }]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CleaverApiError);
    expect(refused).toMatchObject({
      status: 400,
      title: 'items[0].quantity must be between 0.8 and 1.2 (±20 % of the 1 kg ordered)',
    });

    // The connection breaks after the server weighed: the client resends, which changes nothing.
    proxy.inject({
      match: (method, path) => method === 'POST' && path.endsWith('/weighing'),
      count: 1,
      reset: 'after',
    });
    await client.weigh(placed.id, [{ index: 0, quantity: 1.02 }]);
    const sent = proxy.requests.filter((r) => r.path.endsWith('/weighing')).slice(-2);
    expect(sent.map((r) => r.status)).toEqual([RESET, 202]);
    expect((await client.getOrder(placed.id)).items[0]).toMatchObject({ quantity: 1.02, orderedQuantity: 1 });

    // Ready: weighing is over.
    await client.readyForPickup(placed.id);
    await expect(client.weigh(placed.id, [{ index: 0, quantity: 1 }])).rejects.toMatchObject({
      status: 400,
      title: 'Order is READY_FOR_PICKUP',
    });
  });
});
