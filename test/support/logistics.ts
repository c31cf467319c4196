import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { hmacSha256Hex } from '../../src/lib/crypto.js';
import { newId } from '../../src/lib/ids.js';
import type { RecordedEvent } from '../../src/modules/events/index.js';
import { createSimpleOrder } from './orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from './test-app.js';

export interface LogisticsApp {
  appId: string;
  clientSecret: string;
}

/** Registers a logistics partner through the operator API (operator-api.md#logistics-partners). */
export async function createLogisticsApp(app: FastifyInstance, merchantIds: string[]): Promise<LogisticsApp> {
  const res = await app.inject({
    method: 'POST',
    url: '/admin/v1/logisticsApps',
    headers: adminHeaders,
    payload: { name: 'Entregas Rápidas', merchantIds },
  });
  if (res.statusCode !== 201) throw new Error(`logistics app: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const sign = (secret: string, body: string | Buffer) => hmacSha256Hex(secret, body);

/** A signed call with the exact bytes given; `headers` override the computed ones. */
export function signedCall(
  app: FastifyInstance,
  partner: LogisticsApp,
  merchantId: string,
  path: 'deliveryUpdate' | 'confirmationCode',
  body: string | Buffer,
  headers: Record<string, string | undefined> = {},
): Promise<LightMyRequestResponse> {
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'x-app-id': partner.appId,
    'x-app-merchantid': merchantId,
    'x-app-signature': sign(partner.clientSecret, body),
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return app.inject({ method: 'POST', url: `/v1/logistics/${path}`, headers: defined, payload: body });
}

/** A complete spec 4.14 body. */
export function deliveryUpdate(
  order: { id: string; displayId?: unknown },
  merchant: { id: string; name?: string },
  event: { type: string; message?: string; datetime?: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    deliveryId: extra.deliveryId ?? newId(),
    orderId: order.id,
    orderDisplayId: String(order.displayId ?? 'ABCD'),
    merchant: { id: merchant.id, name: merchant.name ?? 'Açougue' },
    event: { message: 'update', datetime: '2026-03-02T15:00:00Z', ...event },
    customerName: 'Maria Souza',
    ...extra,
  };
}

export function expectError(
  expect: (v: unknown) => { toEqual(v: unknown): void },
  res: LightMyRequestResponse,
  status: number,
  title: string,
): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}

/**
 * The logistics tests' world (spec 4.14, 4.15, 5.2): one app on a test clock, a shop with a
 * logistics partner linked to it and to a second shop, and a listener standing in for the
 * webhook fan-out. Registers its own beforeAll/afterAll; call once at the top of a test file.
 */
export function logisticsSuite() {
  const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
  const heard: RecordedEvent[] = [];
  const world = {} as { t: TestApp; shop: MerchantCredentials; otherShop: MerchantCredentials; partner: LogisticsApp };

  beforeAll(async () => {
    // Stands in for the webhook fan-out: every recorded event reaches the listeners in its tx.
    world.t = await createTestApp({
      clock,
      onEvent: async (_tx, event) => {
        heard.push(event);
      },
    });
    world.shop = await createMerchant(world.t.app, 'Açougue Logística');
    world.otherShop = await createMerchant(world.t.app, 'Casa de Carnes Vizinha');
    world.partner = await createLogisticsApp(world.t.app, [world.shop.merchantId, world.otherShop.merchantId]);
  });
  afterAll(() => world.t.close());

  const tick = () => clock.advance(1000);

  async function newOrder(merchant = world.shop, type = 'DELIVERY') {
    tick();
    return createSimpleOrder(world.t.app, merchant.merchantId, type);
  }

  function send(body: unknown, options: { merchantId?: string; headers?: Record<string, string | undefined> } = {}) {
    tick();
    const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    return signedCall(
      world.t.app,
      world.partner,
      options.merchantId ?? world.shop.merchantId,
      'deliveryUpdate',
      raw,
      options.headers,
    );
  }

  function update(order: { id: string; displayId?: unknown }, type: string, extra: Record<string, unknown> = {}) {
    return deliveryUpdate(order, { id: world.shop.merchantId, name: 'Açougue Logística' }, { type }, extra);
  }

  async function operatorView(orderId: string) {
    const res = await world.t.app.inject({ method: 'GET', url: `/admin/v1/orders/${orderId}`, headers: adminHeaders });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      status: string;
      lastEvent: string;
      events: Array<{ eventType: string }>;
      logisticsUpdates: Array<Record<string, unknown>>;
    };
  }

  async function posOrder(me: MerchantCredentials, orderId: string) {
    const res = await world.t.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: bearer(me.token) });
    expect(res.statusCode).toBe(200);
    return res.json() as { lastEvent: string; delivery?: { deliveryDateTime?: string } };
  }

  async function polledTypes(me: MerchantCredentials, orderId: string): Promise<string[]> {
    const res = await world.t.app.inject({ method: 'GET', url: '/v1/events:polling', headers: bearer(me.token) });
    if (res.statusCode === 204) return [];
    expect(res.statusCode).toBe(200);
    return (res.json() as Array<{ orderId: string; eventType: string }>)
      .filter((e) => e.orderId === orderId)
      .map((e) => e.eventType);
  }

  const heardFor = (orderId: string) => heard.filter((e) => e.orderId === orderId).map((e) => e.eventType);

  return { world, clock, heard, tick, newOrder, send, update, operatorView, posOrder, polledTypes, heardFor };
}
