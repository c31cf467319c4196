// D29: POST /v1/merchantUpdate, Open Delivery's notification, with OD's four uses, beside the
// spec's PUT. Every use answers 204 and reports in GET /v1/merchantStatus like an upload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { odButcherMenu, odId } from '../../src/cli/od-pos-menu.js';
import { manualClock } from '../../src/lib/clock.js';
import {
  categoryByPdv,
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  sync,
  syncStatus,
  upload,
} from '../support/catalog.js';
import {
  adminHeaders,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import { notify, notifyAndSettle, registerPos, startTestPos, type TestPos } from './od-support.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;
let pos: TestPos;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_BODY_LIMIT: '8192' } });
  pos = await startTestPos();
});
afterAll(async () => {
  await pos.close();
  await t.close();
});

/** A merchant whose catalog came from our sample upload (products P1, P2, P3; categories C1, C2). */
async function withCatalog(): Promise<MerchantCredentials> {
  const me = await createMerchant(t.app);
  expect((await sync(t, me, merchantBody(sampleCatalog()))).status).toBe('SUCCESS');
  return me;
}

async function operatorStatus(merchantId: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/admin/v1/merchants/${merchantId}`, headers: adminHeaders });
  expect(res.statusCode).toBe(200);
  return res.json().status as string;
}

describe('use 1: an empty body asks for a pull', () => {
  it('pulls the POS menu (no body, a blank JSON body, or {})', async () => {
    const me = await createMerchant(t.app);
    await registerPos(t, me, pos.baseURL);
    pos.serve(odButcherMenu());
    pos.seen.length = 0;
    const res = await notify(t, me);
    expect(res.statusCode).toBe(204);
    expect((await syncStatus(t, me)).status).toBe('PROCESSING');
    await t.services.catalog.worker.drain();
    expect((await syncStatus(t, me)).status).toBe('SUCCESS');
    expect(await notifyAndSettle(t, me, '  ')).toMatchObject({ status: 'SUCCESS' });
    expect(await notifyAndSettle(t, me, {})).toMatchObject({ status: 'SUCCESS' });
    expect(pos.seen).toHaveLength(3);
    expect((await merchantRecord(t, me)).products).toHaveLength(8);
  });

  it('400 naming getMerchantURL when none is registered; nothing is queued', async () => {
    const me = await createMerchant(t.app);
    const res = await notify(t, me);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      title:
        'getMerchantURL is not registered: register it with PUT /v1/merchantOnboarding before asking for a pull (empty body)',
      status: 400,
    });
    expect(await operatorSyncs(t, me.merchantId)).toEqual([]);
  });
});

describe('use 2: merchantStatus alone is the order-receiving switch', () => {
  it('switches the merchant off and on, without a pull', async () => {
    const me = await withCatalog();
    await registerPos(t, me, pos.baseURL);
    pos.seen.length = 0;
    const off = await notifyAndSettle(t, me, { merchantStatus: 'UNAVAILABLE' });
    expect(off).toMatchObject({ status: 'SUCCESS', moreInfo: 'Merchant status: UNAVAILABLE (order receiving off).' });
    expect(await operatorStatus(me.merchantId)).toBe('UNAVAILABLE');
    expect((await merchantRecord(t, me)).status).toBe('UNAVAILABLE');
    const on = await notifyAndSettle(t, me, { merchantStatus: 'AVAILABLE' });
    expect(on).toMatchObject({ status: 'SUCCESS', moreInfo: 'Merchant status: AVAILABLE (order receiving on).' });
    expect(await operatorStatus(me.merchantId)).toBe('AVAILABLE');
    expect(pos.seen).toEqual([]);
    const [last] = await operatorSyncs(t, me.merchantId);
    expect(last).toMatchObject({
      source: 'NOTIFY',
      format: 'opendelivery',
      entityType: null,
      details: { merchantStatus: 'AVAILABLE' },
    });
  });

  it('applies in arrival order with the uploads: a switch sent after an upload wins', async () => {
    const me = await createMerchant(t.app);
    await upload(t, me, merchantBody(sampleCatalog(), { merchantStatus: 'AVAILABLE' }));
    const res = await notify(t, me, { merchantStatus: 'UNAVAILABLE' });
    expect(res.statusCode).toBe(204);
    await t.services.catalog.worker.drain();
    expect(await operatorStatus(me.merchantId)).toBe('UNAVAILABLE');
    expect((await operatorSyncs(t, me.merchantId)).map((s) => s.source)).toEqual(['NOTIFY', 'UPLOAD']);
  });
});

describe('use 3: entityType and updatedObjects, in Open Delivery shapes', () => {
  it('ITEM_OFFER: price and status of existing products, by itemId; an unknown one is reported', async () => {
    const me = await withCatalog();
    const status = await notifyAndSettle(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [
        {
          id: 'O1',
          itemId: 'P1',
          index: 0,
          status: 'UNAVAILABLE',
          price: { value: 79.9, originalValue: 89.9, currency: 'BRL' },
        },
        { id: 'O9', itemId: 'NOPE', index: 1, price: { value: 1, originalValue: 1, currency: 'BRL' } },
      ],
    });
    expect(status).toEqual({
      status: 'FAIL',
      lastRead: clock.now().toISOString(),
      moreInfo:
        'Products: 0 created, 1 updated, 0 unchanged, 0 removed. Discarded: 1 (itemOffers 1). ' +
        'itemOffer "NOPE" (itemOffers[1]): no product has this pdv_external_id (create it with a MERCHANT upload).',
    });
    expect(productByPdv(await merchantRecord(t, me), 'P1')).toMatchObject({ price: 79.9, status: 'UNAVAILABLE' });
  });

  it('ITEM: the fields that are not creation-only, and the item status; the name stays', async () => {
    const me = await withCatalog();
    const status = await notifyAndSettle(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        {
          id: 'P2',
          name: 'Alcatra renomeada',
          description: 'x',
          externalCode: '2002',
          unit: 'KG',
          status: 'UNAVAILABLE',
          ean: '7890000000028',
          images: [
            { type: 'THUMB', URL: 'https://img.example/alcatra-t.jpg' },
            { type: 'MAIN', URL: 'https://img.example/alcatra.jpg' },
          ],
        },
      ],
    });
    expect(status).toMatchObject({
      status: 'SUCCESS',
      moreInfo:
        'Products: 0 created, 1 updated, 0 unchanged, 0 removed. Discarded: none. Not mapped: name, description and unit: kept as registered ' +
        '(spec 4.3 sets them only when a product is created); item images beyond the first (1): one image per product is kept (MAIN first).',
    });
    expect(productByPdv(await merchantRecord(t, me), 'P2')).toMatchObject({
      name: 'Alcatra',
      externalCode: '2002',
      ean: '7890000000028',
      status: 'UNAVAILABLE',
      media: ['https://img.example/alcatra.jpg'],
    });
  });

  it('CATEGORY: name and status of an existing category; an unknown one is reported', async () => {
    const me = await withCatalog();
    const status = await notifyAndSettle(t, me, {
      entityType: 'CATEGORY',
      updatedObjects: [
        { id: 'C2', index: 5, name: 'Suínos', externalCode: 'C2', status: 'UNAVAILABLE', itemOfferId: [] },
        { id: 'C7', index: 0, name: 'Nova', externalCode: 'C7', status: 'AVAILABLE' },
      ],
    });
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toBe(
      'Categories: 0 created, 1 updated, 0 unchanged, 0 removed. Discarded: 1 (categories 1). category "C7" (categories[1]): ' +
        'no category has this id (a new category comes with the whole menu: POST an empty body). Not mapped: itemOfferId, index, ' +
        'image and description of a CATEGORY update: not applied (which products a category holds, and in what order, change ' +
        'with the whole menu: POST /v1/merchantUpdate with an empty body).',
    );
    const r = await merchantRecord(t, me);
    expect(categoryByPdv(r, 'C2')).toMatchObject({ name: 'Suínos', status: 'UNAVAILABLE', index: 1 });
    expect(categoryByPdv(r, 'C2')?.productsId).toHaveLength(1);
    // The same update again matches C2 and changes nothing.
    const again = await notifyAndSettle(t, me, {
      entityType: 'CATEGORY',
      updatedObjects: [{ id: 'C2', index: 5, name: 'Suínos', externalCode: 'C2', status: 'UNAVAILABLE' }],
    });
    expect(again.moreInfo).toMatch(/^Categories: 0 created, 0 updated, 1 unchanged, 0 removed\. Discarded: none\./);
  });

  it('MERCHANT: a whole menu in updatedObjects[0] replaces the POS catalog (spec 4.3 removal rules)', async () => {
    const me = await withCatalog();
    const { lastUpdate: _l, TTL: _t, ...whole } = odButcherMenu();
    const status = await notifyAndSettle(t, me, { entityType: 'MERCHANT', updatedObjects: [whole] });
    expect(status.status).toBe('SUCCESS');
    expect(status.moreInfo).toMatch(
      /^Categories: 3 created, 0 updated, 0 unchanged, 2 removed\. Products: 8 created, 0 updated, 0 unchanged, 3 removed\./,
    );
    const r = await merchantRecord(t, me);
    expect(productByPdv(r, 'P1')).toBeUndefined();
    expect(productByPdv(r, odId('item', 'picanha'))?.price).toBe(89.9);
  });

  it.each(['BASIC_INFO', 'SERVICE', 'MENU', 'OPTION_GROUP', 'OPTION', 'AVAILABILITY'])(
    '%s: accepted and reported as not applied; the catalog is untouched',
    async (entityType) => {
      const me = await withCatalog();
      const before = await merchantRecord(t, me);
      const status = await notifyAndSettle(t, me, { entityType, updatedObjects: [{ id: odId('x', entityType) }] });
      expect(status.status).toBe('SUCCESS');
      expect(status.moreInfo).toMatch(
        new RegExp(`^Not mapped: ${entityType} \\(1 object\\): accepted, not applied \\(.+\\)\\.$`),
      );
      const after = await merchantRecord(t, me);
      expect(after.products).toEqual(before.products);
      expect(after.categories).toEqual(before.categories);
    },
  );
});

describe('use 4: merchantStatus with entityType and updatedObjects does both', () => {
  it('switches and applies', async () => {
    const me = await withCatalog();
    const status = await notifyAndSettle(t, me, {
      merchantStatus: 'UNAVAILABLE',
      entityType: 'ITEM_OFFER',
      updatedObjects: [
        {
          id: 'O3',
          itemId: 'P3',
          index: 0,
          status: 'AVAILABLE',
          price: { value: 33, originalValue: 33, currency: 'BRL' },
        },
      ],
    });
    expect(status).toMatchObject({
      status: 'SUCCESS',
      moreInfo:
        'Merchant status: UNAVAILABLE (order receiving off). Products: 0 created, 1 updated, 0 unchanged, 0 removed. Discarded: none.',
    });
    expect(await operatorStatus(me.merchantId)).toBe('UNAVAILABLE');
    expect(productByPdv(await merchantRecord(t, me), 'P3')).toMatchObject({ price: 33, status: 'AVAILABLE' });
  });
});

describe('bad envelopes: 400 naming the field, nothing queued', () => {
  it.each<[string, string | undefined, string]>([
    [
      'an entityType outside the list',
      '{"entityType":"PRODUCT","updatedObjects":[{}]}',
      'entityType must be one of MERCHANT, BASIC_INFO, SERVICE, MENU, CATEGORY, ITEM, ITEM_OFFER, OPTION_GROUP, OPTION, AVAILABILITY',
    ],
    [
      'a merchantStatus outside the enum',
      '{"merchantStatus":"OPEN"}',
      'merchantStatus must be one of AVAILABLE, UNAVAILABLE',
    ],
    [
      'entityType without updatedObjects',
      '{"entityType":"ITEM"}',
      'updatedObjects is required when entityType is given',
    ],
    [
      'an empty updatedObjects',
      '{"entityType":"ITEM","updatedObjects":[]}',
      'updatedObjects must not be empty when entityType is given',
    ],
    [
      'updatedObjects without entityType',
      '{"updatedObjects":[{"id":"P1"}]}',
      'entityType is required when updatedObjects is given',
    ],
    [
      'updatedObjects not an array',
      '{"entityType":"ITEM","updatedObjects":{"id":"P1"}}',
      'updatedObjects must be array',
    ],
    ['a JSON array', '[]', 'body must be object'],
    [
      'only unknown fields',
      '{"status":"UNAVAILABLE"}',
      'status is not a field of merchantUpdate: send merchantStatus, entityType and updatedObjects (onlyAddProducts is accepted), or an empty body to ask for a pull',
    ],
    // D34: one unknown key beside known ones is refused too, with the near key suggested.
    [
      'a misspelt updatedObjects',
      '{"merchantStatus":"AVAILABLE","entityType":"ITEM","updateObjects":[{"id":"P1"}]}',
      'updateObjects is not a field of merchantUpdate: did you mean updatedObjects?',
    ],
    ['invalid JSON', '{"merchantStatus":', 'Body is not valid JSON'],
  ])('%s', async (_name, body, title) => {
    const me = await withCatalog();
    const before = await operatorSyncs(t, me.merchantId);
    const res = await notify(t, me, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title, status: 400 });
    expect(await operatorSyncs(t, me.merchantId)).toEqual(before);
  });

  it('a body over the limit is 413; another content type is 415', async () => {
    const me = await withCatalog();
    const huge = await notify(t, me, {
      entityType: 'ITEM',
      updatedObjects: [{ id: 'P1', description: 'x'.repeat(40_000) }],
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ title: 'Request body is too large', status: 413 });
    const text = await notify(t, me, 'merchantStatus=UNAVAILABLE', 'text/plain');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ title: 'Unsupported content type: send application/json', status: 415 });
  });

  it('401 without a token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchantUpdate',
      payload: { merchantStatus: 'AVAILABLE' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ title: expect.any(String), status: 401 });
  });
});
