// Property tests of spec 5.2 and the replay rule of 4.14: tampered requests are never accepted,
// and replays of one valid update change the order exactly once.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { RecordedEvent } from '../../src/modules/events/index.js';
import { generatedRuns } from '../support/generated-inputs.js';
import { createLogisticsApp, deliveryUpdate, type LogisticsApp, sign, signedCall } from '../support/logistics.js';
import { createSimpleOrder } from '../support/orders.js';
import {
  adminHeaders,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

/** 1,200 tampered requests at full depth. */
const RUNS = generatedRuns(1200, 120);

let t: TestApp;
let shop: MerchantCredentials;
let linkedShop: MerchantCredentials;
let unlinkedShop: MerchantCredentials;
let partner: LogisticsApp;
const heard: RecordedEvent[] = [];

beforeAll(async () => {
  t = await createTestApp({
    onEvent: async (_tx, event) => {
      heard.push(event);
    },
  });
  shop = await createMerchant(t.app, 'Açougue Assinado');
  linkedShop = await createMerchant(t.app, 'Outra Loja do Parceiro');
  unlinkedShop = await createMerchant(t.app, 'Loja Sem Parceiro');
  // One app for every run: signature checks are cheap, app registration is not.
  partner = await createLogisticsApp(t.app, [shop.merchantId, linkedShop.merchantId]);
});
afterAll(() => t.close());

type Tamper =
  | { kind: 'flipByte'; index: number; mask: number }
  | { kind: 'reformat'; indent: number; reorder: boolean }
  | { kind: 'wrongSecret'; secret: string }
  | { kind: 'otherMerchant'; which: 'linked' | 'unlinked' | 'unknown' }
  | { kind: 'truncatedSignature'; length: number }
  | { kind: 'uppercaseSignature' };

const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ kind: fc.constant('flipByte' as const), index: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('reformat' as const), indent: fc.integer({ min: 0, max: 4 }), reorder: fc.boolean() }),
  fc.record({ kind: fc.constant('wrongSecret' as const), secret: fc.string({ minLength: 1, maxLength: 64 }) }),
  fc.record({
    kind: fc.constant('otherMerchant' as const),
    which: fc.constantFrom('linked' as const, 'unlinked' as const, 'unknown' as const),
  }),
  fc.record({ kind: fc.constant('truncatedSignature' as const), length: fc.integer({ min: 0, max: 63 }) }),
  fc.constant({ kind: 'uppercaseSignature' as const }),
);

const update = fc.record({
  type: fc.constantFrom('DELIVERY_ONGOING', 'DELIVERY_FINISHED', 'PICKUP_ONGOING'),
  message: fc.string({ maxLength: 40 }),
  deliveryId: fc.uuid({ version: 4 }),
});

const reversedKeys = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([k, v]) => [k, reversedKeys(v)]),
      )
    : value;

/** The request a tamper makes of a valid one: body bytes and header overrides. */
function tampered(doc: Record<string, unknown>, how: Tamper): { body: Buffer; headers: Record<string, string> } {
  const raw = Buffer.from(JSON.stringify(doc));
  const signature = sign(partner.clientSecret, raw);
  switch (how.kind) {
    case 'flipByte': {
      const body = Buffer.from(raw);
      body[how.index % body.length] ^= how.mask;
      // Signed as the partner signed the original bytes.
      return { body, headers: { 'x-app-signature': signature } };
    }
    case 'reformat': {
      const body = Buffer.from(JSON.stringify(how.reorder ? reversedKeys(doc) : doc, null, how.indent));
      return { body, headers: { 'x-app-signature': signature } };
    }
    case 'wrongSecret':
      return { body: raw, headers: { 'x-app-signature': sign(how.secret, raw) } };
    case 'otherMerchant': {
      const merchantId = { linked: linkedShop, unlinked: unlinkedShop, unknown: undefined }[how.which]?.merchantId;
      return { body: raw, headers: { 'x-app-merchantid': merchantId ?? newId() } };
    }
    case 'truncatedSignature':
      return { body: raw, headers: { 'x-app-signature': signature.slice(0, how.length) } };
    case 'uppercaseSignature':
      return { body: raw, headers: { 'x-app-signature': signature.toUpperCase() } };
  }
}

describe('tampered logistics requests (spec 5.2)', () => {
  it(`accepts none of ${RUNS} tampered requests, and the order stays as it was`, async () => {
    const order = await createSimpleOrder(t.app, shop.merchantId);
    const before = await t.services.orders.getAnyOrder(order.id);
    const kinds = new Map<string, number>();
    let runs = 0;

    await fc.assert(
      fc.asyncProperty(update, tamper, async (u, how) => {
        const doc = deliveryUpdate(
          order,
          { id: shop.merchantId },
          { type: u.type, message: u.message },
          {
            deliveryId: u.deliveryId,
          },
        );
        const { body, headers } = tampered(doc, how);
        // A "tamper" that leaves the request as signed is not one (e.g. no a–f digit to upper-case).
        const untouched = body.equals(Buffer.from(JSON.stringify(doc)));
        fc.pre(!(untouched && headers['x-app-signature'] === sign(partner.clientSecret, body)));
        fc.pre(!(how.kind === 'wrongSecret' && how.secret === partner.clientSecret));

        const res = await signedCall(t.app, partner, shop.merchantId, 'deliveryUpdate', body, headers);
        expect([400, 401]).toContain(res.statusCode);
        expect(res.json()).toEqual({ title: expect.any(String), status: res.statusCode });
        const now = await t.services.orders.getAnyOrder(order.id);
        expect([now.status, now.version, now.last_event]).toEqual([before.status, before.version, before.last_event]);
        kinds.set(how.kind, (kinds.get(how.kind) ?? 0) + 1);
        runs++;
      }),
      { numRuns: RUNS },
    );

    expect(runs).toBeGreaterThanOrEqual(Math.floor(RUNS * 0.8));
    // Every kind of tampering was exercised, and nothing reached the order's history.
    expect([...kinds.keys()].sort()).toEqual([
      'flipByte',
      'otherMerchant',
      'reformat',
      'truncatedSignature',
      'uppercaseSignature',
      'wrongSecret',
    ]);
    const view = await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders });
    expect(view.json().logisticsUpdates).toEqual([]);
    expect(view.json().events.map((e: { eventType: string }) => e.eventType)).toEqual(['CREATED']);
    expect(heard.filter((e) => e.orderId === order.id).map((e) => e.eventType)).toEqual(['CREATED']);
  }, 120_000);

  it('100 replays of one valid update (sent at once) make exactly one state change', async () => {
    const order = await createSimpleOrder(t.app, shop.merchantId);
    const raw = JSON.stringify(deliveryUpdate(order, { id: shop.merchantId }, { type: 'DELIVERY_ONGOING' }));
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => signedCall(t.app, partner, shop.merchantId, 'deliveryUpdate', raw)),
    );
    expect(answers.map((a) => [a.statusCode, a.body])).toEqual(Array.from({ length: 100 }, () => [204, '']));

    const view = await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders });
    const detail = view.json() as { status: string; events: Array<{ eventType: string }>; logisticsUpdates: unknown[] };
    expect(detail.status).toBe('DISPATCHED');
    expect(detail.events.map((e) => e.eventType)).toEqual(['CREATED', 'DISPATCHED']);
    expect(detail.logisticsUpdates).toHaveLength(1);
    expect(heard.filter((e) => e.orderId === order.id).map((e) => e.eventType)).toEqual(['CREATED', 'DISPATCHED']);
    expect((await t.services.orders.getAnyOrder(order.id)).version).toBe(1);
  });
});
