// The logistics client against a real server (spec 4.14, 4.15, 5.2): signed delivery updates
// and delivery-code checks, on an order handed in through the operator API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createMerchant } from '../../../test/support/test-app.js';
import {
  createLogisticsClient,
  createOperatorClient,
  createPosClient,
  type OperatorClient,
  type PosClient,
  signBody,
} from '../src/index.js';
import { type FailingProxy, type RunningApp, startApp, startAppWorkers, startFailingProxy } from './support.js';

describe('pos-client against a real server: logistics', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let proxy: FailingProxy;
  let op: OperatorClient;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    proxy = await startFailingProxy(server.url);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await proxy?.close();
    await workers?.stop();
    await server?.close();
  });

  /** Hand-made products (operator API): orders need products; the catalog upload is tested apart. */
  async function products(merchantId: string) {
    const picanha = await op.createProduct(merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const burger = await op.createProduct(merchantId, { name: 'Hambúrguer 180 g', price: 9.5, unit: 'UN' });
    return { picanha: picanha.id as string, burger: burger.id as string };
  }

  async function newMerchant(): Promise<{ merchantId: string; clientSecret: string; client: PosClient }> {
    const m = await createMerchant(server.app);
    return {
      merchantId: m.merchantId,
      clientSecret: m.clientSecret,
      client: createPosClient({ baseUrl: proxy.url, clientId: m.merchantId, clientSecret: m.clientSecret }),
    };
  }

  it('the logistics client signs what it sends (spec 5.2): delivery updates move the order, codes are checked', async () => {
    const { client, merchantId } = await newMerchant();
    const { picanha } = await products(merchantId);
    const order = await op.createOrder(merchantId, { type: 'DELIVERY', items: [{ productId: picanha, quantity: 1 }] });
    await client.confirm(order.id, {
      createdAt: (await client.getOrder(order.id)).createdAt,
      orderExternalCode: 'L-1',
    });
    const app = await op.createLogisticsApp({ name: 'Motoboys', merchantIds: [merchantId] });
    const logistics = createLogisticsClient({ baseUrl: proxy.url, appId: app.appId, clientSecret: app.clientSecret });
    const update = (type: string) => ({
      deliveryId: '3b0f8c2e-5d41-4a8e-9c77-2f6e1d0a9b13',
      orderId: order.id,
      orderDisplayId: order.displayId,
      merchant: { id: merchantId, name: 'Açougue' },
      event: { type, message: type, datetime: new Date().toISOString() },
      customerName: 'Ana',
    });
    proxy.requests.length = 0;
    await logistics.deliveryUpdate(merchantId, update('DELIVERY_ONGOING'));
    const sent = proxy.requests.find((r) => r.path === '/v1/logistics/deliveryUpdate')!;
    expect(sent.headers['x-app-id']).toBe(app.appId);
    expect(sent.headers['x-app-merchantid']).toBe(merchantId);
    // The signature is the HMAC of exactly the bytes that went over the wire.
    expect(sent.headers['x-app-signature']).toBe(signBody(sent.body, app.clientSecret));
    expect(JSON.parse(sent.body).event.type).toBe('DELIVERY_ONGOING');
    expect((await client.getOrder(order.id)).lastEvent).toBe('DISPATCHED');

    const wrongCode = await logistics
      .confirmationCode(merchantId, { orderId: order.id, deliveryCode: 'nope' })
      .catch((e: unknown) => e);
    expect(wrongCode).toMatchObject({ status: 400, title: 'Invalid code provided' });
    expect(
      await logistics.confirmationCode(merchantId, { orderId: order.id, deliveryCode: order.deliveryCode }),
    ).toEqual({
      orderId: order.id,
      deliveryCode: order.deliveryCode,
    });
    await logistics.deliveryUpdate(merchantId, update('DELIVERY_FINISHED'));
    expect((await client.getOrder(order.id)).lastEvent).toBe('DELIVERED');

    // A wrong secret signs differently: 401.
    const impostor = createLogisticsClient({ baseUrl: proxy.url, appId: app.appId, clientSecret: 'not-the-secret' });
    const refused = await impostor.deliveryUpdate(merchantId, update('DELIVERY_ONGOING')).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'CleaverAuthError', status: 401 });
  });
});
