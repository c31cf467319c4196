// The client against a real server for orders: the polling loop and every order action.
// Orders are handed in through the operator API as a customer would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, addIntegrationKey, createMerchant } from '../../../test/support/test-app.js';
import {
  createOperatorClient,
  createPosClient,
  type EventRecord,
  type OperatorClient,
  type PosClient,
  runEventLoop,
} from '../src/index.js';
import { type FailingProxy, type RunningApp, startApp, startAppWorkers, startFailingProxy } from './support.js';

describe('pos-client against a real server: orders and the polling loop', () => {
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

  it('runEventLoop confirms CREATED orders, acknowledges only what it handled, and stops on abort', async () => {
    const { client, merchantId } = await newMerchant();
    const { picanha } = await products(merchantId);
    // A second key that never acknowledges, created before the orders: it receives their events too.
    const other = createPosClient({
      baseUrl: server.url,
      clientId: merchantId,
      clientSecret: (await addIntegrationKey(server.app, merchantId)).clientSecret,
    });
    const orders = [];
    for (let i = 0; i < 3; i++) {
      orders.push(
        await op.createOrder(merchantId, { type: 'DELIVERY', items: [{ productId: picanha, quantity: 1.5 }] }),
      );
    }
    const controller = new AbortController();
    const handled: EventRecord[] = [];
    let failOnce = true;
    const summary = await runEventLoop(
      client,
      async (event) => {
        if (event.eventType === 'CREATED') {
          if (failOnce) {
            failOnce = false;
            throw new Error('POS database busy'); // not acknowledged: comes back
          }
          const order = await client.getOrder(event.orderId);
          await client.confirm(order.id, { createdAt: order.createdAt, orderExternalCode: `PDV-${handled.length}` });
        }
        handled.push(event);
        const confirmed = handled.filter((e) => e.eventType === 'CONFIRMED').length;
        if (confirmed === 3) controller.abort();
      },
      { signal: controller.signal, intervalMs: 20, errorDelayMs: 20 },
    );
    expect(summary.failed).toBe(1);
    expect(
      handled
        .filter((e) => e.eventType === 'CREATED')
        .map((e) => e.orderId)
        .sort(),
    ).toEqual(orders.map((o) => o.id).sort());
    // Everything handled was acknowledged: nothing is pending for this key…
    expect(await client.pollEvents()).toEqual([]);
    // …but another key of the merchant still sees every event (spec 4.13 rule 1).
    const pending = await other.pollEvents();
    expect(pending.filter((e) => e.eventType === 'CREATED')).toHaveLength(3);
    expect(pending.filter((e) => e.eventType === 'CONFIRMED')).toHaveLength(3);
    expect(await other.pollEvents({ eventTypes: ['CONFIRMED'] })).toHaveLength(3);
  });

  it('every order action through its typed method', async () => {
    const { client, merchantId } = await newMerchant();
    const { picanha, burger } = await products(merchantId);
    const order = await op.createOrder(merchantId, {
      type: 'DELIVERY',
      items: [
        { productId: picanha, quantity: 0.75 },
        { productId: burger, quantity: 4 },
      ],
    });
    const read = await client.getOrder(order.id);
    // Hand-made products are not linked to the POS: items carry the internal id (spec 2.6.1).
    expect(read.items.map((i) => [i.id, i.unit, i.quantity])).toEqual([
      [picanha, 'KG', 0.75],
      [burger, 'UN', 4],
    ]);
    await client.confirm(order.id, { createdAt: read.createdAt, orderExternalCode: 'PDV-7', preparationTime: 15 });
    const again = await client
      .confirm(order.id, { createdAt: read.createdAt, orderExternalCode: 'PDV-7' })
      .catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 400, title: 'Order has already same event type' });
    await client.readyForPickup(order.id);
    await client.dispatch(order.id, { deliveryTrackingInfo: { event: { type: 'DELIVERY_ONGOING', message: 'Saiu' } } });
    await client.tracking(order.id, { geoLocalization: { latitude: -23.55, longitude: -46.63 } });
    const wrong = await client.validateCode(order.id, 'not-the-code').catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 400, title: 'Invalid code provided' });
    expect(await client.validateCode(order.id, order.deliveryCode)).toEqual({
      orderId: order.id,
      deliveryCode: order.deliveryCode,
    });
    await client.delivered(order.id);
    expect((await client.getOrder(order.id)).lastEvent).toBe('DELIVERED');

    // Customer cancellation: accept on one order, deny on another.
    const second = await op.createOrder(merchantId, { type: 'DELIVERY', items: [{ productId: burger, quantity: 1 }] });
    await op.customerCancellation(second.id, 'mudei de ideia');
    await client.acceptCancellation(second.id);
    expect((await client.getOrder(second.id)).lastEvent).toBe('CANCELLED');
    const third = await op.createOrder(merchantId, { type: 'DELIVERY', items: [{ productId: burger, quantity: 2 }] });
    await op.customerCancellation(third.id);
    await client.denyCancellation(third.id, { reason: 'Já saiu para entrega', code: 'DELIVERY_PROBLEM' });
    expect((await client.getOrder(third.id)).lastEvent).toBe('CANCELLED_DENIED');
    await client.requestCancellation(third.id, { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'AUTO' });
    const twice = await client
      .requestCancellation(third.id, { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'AUTO' })
      .catch((e: unknown) => e);
    expect(twice).toMatchObject({ status: 400, title: 'Order has already same event type' });

    const missing = await client.getOrder('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, title: 'Order not found' });

    // Open Delivery's progress actions, available to every profile: preparing, details, pickedUp.
    const takeout = await op.createOrder(merchantId, { type: 'TAKEOUT', items: [{ productId: burger, quantity: 1 }] });
    const created = await client.getOrder(takeout.id);
    await client.confirm(takeout.id, { createdAt: created.createdAt, orderExternalCode: 'PDV-8' });
    await client.preparing(takeout.id);
    expect((await client.getOrder(takeout.id)).lastEvent).toBe('PREPARING');
    const start = new Date(Date.now() + 10 * 60_000).toISOString();
    await client.updateDetails(takeout.id, { preparationStartDateTime: start });
    const detailed = (await client.getOrder(takeout.id)) as unknown as { preparationStartDateTime?: string };
    expect(new Date(detailed.preparationStartDateTime ?? 0).toISOString()).toBe(start);
    await client.readyForPickup(takeout.id);
    await client.pickedUp(takeout.id);
    expect((await client.getOrder(takeout.id)).lastEvent).toBe('PICKED_UP');
    const badDetails = await client
      .updateDetails(takeout.id, { preparationStartDateTime: 'tomorrow' })
      .catch((e: unknown) => e);
    expect(badDetails).toMatchObject({ status: 400 });
    expect((badDetails as { title: string }).title).toContain('preparationStartDateTime');

    // Acknowledging in batches of 100 (D4) and re-sending is harmless (4.13 rule 3).
    const events = await client.pollEvents();
    expect(events.length).toBeGreaterThan(5);
    await client.acknowledgeEvents(events);
    await client.acknowledgeEvents(events);
    expect(await client.pollEvents()).toEqual([]);
  });
});
