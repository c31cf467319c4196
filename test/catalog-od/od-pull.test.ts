// D29: a POS that speaks Open Delivery hosts GET /v1/merchant (an OD `Merchant`) and asks for a
// pull with an empty POST /v1/merchantUpdate. A real HTTP POS on 127.0.0.1 serves the menus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OD_SANDBOX_MERCHANT_ID, odButcherMenu, odId } from '../../src/cli/od-pos-menu.js';
import { manualClock } from '../../src/lib/clock.js';
import { createCatalogService } from '../../src/modules/catalog/index.js';
import type { OdMerchant } from '../../src/modules/opendelivery/index.js';
import {
  categoryProductPdvs,
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  sync,
} from '../support/catalog.js';
import {
  adminHeaders,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import {
  API_KEY,
  notify,
  notifyAndSettle,
  registerPos,
  rowVersions,
  startTestPos,
  type TestPos,
} from './od-support.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;
let pos: TestPos;

beforeAll(async () => {
  t = await createTestApp({ clock });
  pos = await startTestPos();
});
afterAll(async () => {
  await pos.close();
  await t.close();
});

async function onboarded(): Promise<MerchantCredentials> {
  const me = await createMerchant(t.app);
  await registerPos(t, me, pos.baseURL);
  return me;
}

const item = (key: string) => odId('item', key);
const NOT_MAPPED_BUTCHER =
  "Not mapped: basicInfo: not taken (the merchant's name, document, address and contacts are kept by the platform); " +
  'services (1): not taken (service types, hours and delivery areas are kept by the platform); ' +
  'optionGroups (3, 9 options, used by 5 itemOffers): not held (the catalog has no options; customers cannot choose them yet); ' +
  'items used only as options (3): not products.';

describe('a full Open Delivery menu', () => {
  it('is pulled with X-API-KEY and lands in the catalog: categories in order, POS codes, exact prices, units, images', async () => {
    const me = await onboarded();
    pos.serve(odButcherMenu());
    pos.seen.length = 0;
    const res = await notify(t, me);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const status = await notifyAndSettle(t, me, ''); // a second empty notification, labelled JSON
    expect(pos.seen).toEqual([
      { url: '/v1/merchant', apiKey: API_KEY, ifNoneMatch: undefined },
      { url: '/v1/merchant', apiKey: API_KEY, ifNoneMatch: undefined },
    ]);
    expect(status.status).toBe('SUCCESS');
    // The second pull found the same body (no ETag served): nothing re-processed.
    expect(status.moreInfo).toMatch(/^Unchanged: the menu is identical to the one applied at /);
    const [second, first] = await operatorSyncs(t, me.merchantId);
    expect(first).toMatchObject({ source: 'PULL', format: 'opendelivery', entityType: 'MERCHANT', status: 'SUCCESS' });
    expect(first.moreInfo).toBe(
      `Categories: 3 created, 0 updated, 0 unchanged, 0 removed. Products: 8 created, 0 updated, 0 unchanged, 0 removed. Discarded: none. ${NOT_MAPPED_BUTCHER}`,
    );
    expect(second).toMatchObject({ source: 'PULL', status: 'SUCCESS', details: { unchanged: 'same-body' } });

    const r = await merchantRecord(t, me);
    expect(r.status).toBe('AVAILABLE');
    expect(r.categories.map((c) => [c.pdv_external_id, c.name, c.index, c.status])).toEqual([
      [odId('category', 'bovinos'), 'Bovinos', 0, 'AVAILABLE'],
      [odId('category', 'suinos-aves'), 'Suínos e aves', 1, 'AVAILABLE'],
      [odId('category', 'churrasco'), 'Para o churrasco', 2, 'AVAILABLE'],
    ]);
    expect(categoryProductPdvs(r, odId('category', 'bovinos'))).toEqual(
      ['picanha', 'fraldinha', 'alcatra', 'costela-janela'].map(item),
    );
    expect(productByPdv(r, item('picanha'))).toMatchObject({
      name: 'Picanha',
      description: 'Picanha bovina maturada, peça com capa de gordura',
      price: 89.9,
      unit: 'KG',
      status: 'AVAILABLE',
      externalCode: 'BAL-PICANH',
      media: ['https://img.boinabrasa.example/picanha.jpg'],
    });
    expect(productByPdv(r, item('hamburguer-180'))).toMatchObject({ price: 9.5, unit: 'UN', ean: '7891234567895' });
    expect(r.products).toHaveLength(8);
    // The store id is the OD Merchant id.
    const { rows } = await t.database.db.query<{ pdv_external_id: string }>(
      'SELECT pdv_external_id FROM merchants WHERE id = $1',
      [me.merchantId],
    );
    expect(rows[0].pdv_external_id).toBe(OD_SANDBOX_MERCHANT_ID);
  });

  it('prices stay exact decimals (D9) and the OD merchant status is the switch', async () => {
    const me = await onboarded();
    pos.serve(odButcherMenu({ prices: { picanha: 0.3, fraldinha: 1234567.8912 }, status: 'UNAVAILABLE' }));
    expect((await notifyAndSettle(t, me)).status).toBe('SUCCESS');
    const { rows } = await t.database.db.query<{ pdv: string; price: string }>(
      'SELECT pdv_external_id AS pdv, price::text AS price FROM products WHERE merchant_id = $1 AND pdv_external_id = ANY($2)',
      [me.merchantId, [item('picanha'), item('fraldinha')]],
    );
    expect(new Map(rows.map((x) => [x.pdv, x.price]))).toEqual(
      new Map([
        [item('picanha'), '0.3000'],
        [item('fraldinha'), '1234567.8912'],
      ]),
    );
    expect((await merchantRecord(t, me)).status).toBe('UNAVAILABLE');
  });
});

describe('a changed menu', () => {
  it('applies only the changes: unchanged rows are not rewritten (xmin, updated_at); POS-linked absentees go, hand-made content stays', async () => {
    const me = await onboarded();
    pos.serve(odButcherMenu());
    expect((await notifyAndSettle(t, me)).status).toBe('SUCCESS');
    const handMade = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/products`,
      headers: adminHeaders,
      payload: { name: 'Kit churrasco da casa', price: 120, unit: 'UN' },
    });
    expect(handMade.statusCode, handMade.body).toBe(201);
    const before = await rowVersions(t, me.merchantId);
    clock.advance(60_000);

    const changed = odButcherMenu({ prices: { picanha: 94.9 } });
    changed.items = changed.items.filter((i) => i.id !== item('carvao-5kg'));
    changed.itemOffers = changed.itemOffers.filter((o) => o.itemId !== item('carvao-5kg'));
    for (const c of changed.categories) c.itemOfferId = c.itemOfferId?.filter((o) => o !== odId('offer', 'carvao-5kg'));
    changed.items.push({
      id: item('maminha'),
      name: 'Maminha',
      description: '',
      externalCode: 'BAL-MAMINH',
      unit: 'KG',
    });
    changed.itemOffers.push({
      id: odId('offer', 'maminha'),
      itemId: item('maminha'),
      index: 9,
      price: { value: 59.9, originalValue: 59.9, currency: 'BRL' },
    });
    changed.categories[0].itemOfferId?.push(odId('offer', 'maminha'));
    pos.serve(changed);
    const status = await notifyAndSettle(t, me);
    expect(status.status).toBe('SUCCESS');
    expect(status.moreInfo).toMatch(
      // bovinos gained maminha and churrasco lost carvão; picanha's price is the one product change.
      /^Categories: 0 created, 2 updated, 1 unchanged, 0 removed\. Products: 1 created, 1 updated, 6 unchanged, 1 removed\. Discarded: none\./,
    );

    const after = await rowVersions(t, me.merchantId);
    const moved = [...before].filter(([key, v]) => after.get(key)?.xmin !== v.xmin).map(([key]) => key);
    // picanha's price changed; carvão was removed; nothing else was written.
    expect(moved.sort()).toEqual([`product:${item('carvao-5kg')}`, `product:${item('picanha')}`].sort());
    expect(after.has(`product:${item('carvao-5kg')}`)).toBe(false);
    expect(after.get(`product:${item('fraldinha')}`)?.updatedAt).toBe(
      before.get(`product:${item('fraldinha')}`)?.updatedAt,
    );
    expect(after.get(`product:${item('picanha')}`)?.updatedAt).toBe(clock.now().toISOString());
    const r = await merchantRecord(t, me);
    expect(productByPdv(r, item('picanha'))?.price).toBe(94.9);
    expect(productByPdv(r, item('maminha'))).toMatchObject({ price: 59.9, unit: 'KG' });
    expect(r.products.find((p) => p.name === 'Kit churrasco da casa')?.pdv_external_id).toBeNull();
  });
});

describe('an unchanged menu is not processed again', () => {
  it('ETag: the next pull sends If-None-Match; a 304 is SUCCESS "unchanged"; after a change elsewhere the ETag is not sent', async () => {
    const me = await onboarded();
    pos.serve(odButcherMenu(), { etag: '"menu-v1"' });
    expect((await notifyAndSettle(t, me)).status).toBe('SUCCESS');
    const before = await rowVersions(t, me.merchantId);
    pos.seen.length = 0;
    const status = await notifyAndSettle(t, me);
    expect(pos.seen).toEqual([{ url: '/v1/merchant', apiKey: API_KEY, ifNoneMatch: '"menu-v1"' }]);
    expect(status).toMatchObject({
      status: 'SUCCESS',
      moreInfo: `Unchanged: GET ${pos.baseURL}/v1/merchant answered 304 Not Modified to If-None-Match "menu-v1"; nothing was re-processed.`,
    });
    expect(await rowVersions(t, me.merchantId)).toEqual(before);

    // Another route changed the catalog (an Open Delivery ITEM_OFFER notification): the menu
    // must be applied again, so no If-None-Match goes out and the price comes back.
    const offer = await notifyAndSettle(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [
        {
          id: odId('offer', 'picanha'),
          itemId: item('picanha'),
          index: 0,
          price: { value: 1, originalValue: 1, currency: 'BRL' },
        },
      ],
    });
    expect(offer.status).toBe('SUCCESS');
    pos.seen.length = 0;
    const again = await notifyAndSettle(t, me);
    expect(pos.seen).toEqual([{ url: '/v1/merchant', apiKey: API_KEY, ifNoneMatch: undefined }]);
    expect(again.moreInfo).toMatch(
      /^Categories: 0 created, 0 updated, 3 unchanged, 0 removed\. Products: 0 created, 1 updated, 7 unchanged, 0 removed\./,
    );
    expect(productByPdv(await merchantRecord(t, me), item('picanha'))?.price).toBe(89.9);
  });

  it('the same body (no ETag) is SUCCESS "unchanged"; a hand-made change in between means it is applied again', async () => {
    const me = await onboarded();
    pos.serve(odButcherMenu());
    expect((await notifyAndSettle(t, me)).status).toBe('SUCCESS');
    const applied = (await operatorSyncs(t, me.merchantId))[0].finishedAt as string;
    const before = await rowVersions(t, me.merchantId);
    clock.advance(1000);
    const same = await notifyAndSettle(t, me);
    expect(same).toMatchObject({
      status: 'SUCCESS',
      moreInfo: `Unchanged: the menu is identical to the one applied at ${applied}; nothing was re-processed.`,
    });
    expect(await rowVersions(t, me.merchantId)).toEqual(before);

    const cat = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/categories`,
      headers: adminHeaders,
      payload: { name: 'Ofertas da semana' },
    });
    expect(cat.statusCode, cat.body).toBe(201);
    const reapplied = await notifyAndSettle(t, me);
    // Applied again, it finds every POS record as it left it.
    expect(reapplied.moreInfo).toMatch(
      /^Categories: 0 created, 0 updated, 3 unchanged, 0 removed\. Products: 0 created, 0 updated, 8 unchanged, 0 removed\./,
    );
  });
});

describe('a malformed menu', () => {
  it('applies what is valid and names each discarded object, its field and why; nothing is removed', async () => {
    const me = await onboarded();
    pos.serve(odButcherMenu());
    expect((await notifyAndSettle(t, me)).status).toBe('SUCCESS');
    const broken = odButcherMenu({ prices: { fraldinha: 58.9 } }) as unknown as {
      items: Array<Record<string, unknown>>;
      itemOffers: Array<Record<string, unknown>>;
      categories: Array<Record<string, unknown>>;
    };
    broken.items[0] = { ...broken.items[0], unit: 'LB' }; // picanha
    broken.itemOffers[5] = { ...broken.itemOffers[5], price: { value: 32.5, originalValue: 32.5, currency: 'USD' } }; // coração
    broken.categories[2] = {
      ...broken.categories[2],
      itemOfferId: [odId('offer', 'hamburguer-180'), odId('offer', 'carvao-5kg'), 'NO-SUCH-OFFER'],
    };
    pos.answerWith((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(broken)),
    );
    const status = await notifyAndSettle(t, me);
    expect(status.status).toBe('FAIL');
    // Picanha's offer goes with its item, coração's item with its offer: each said once.
    expect(status.moreInfo).toContain('Discarded: 5 (itemOffers 2, items 2, links 1).');
    expect(status.moreInfo).toContain(
      `category link "${odId('category', 'churrasco')}" (categories[2].itemOfferId[2]): "NO-SUCH-OFFER" matches no itemOffer`,
    );
    expect(status.moreInfo).toContain(
      `itemOffer "${odId('offer', 'picanha')}" (itemOffers[0]): item "${item('picanha')}" was discarded`,
    );
    expect(status.moreInfo).toContain(
      `item "${item('coracao-frango')}" (items[5]): no itemOffer in a listed category reaches it`,
    );
    expect(status.moreInfo).toContain(
      `item "${item('picanha')}" (items[0]): unit LB cannot be sold here: only KG (price per kilogram) and UN (price per unit)`,
    );
    expect(status.moreInfo).toContain(
      `itemOffer "${odId('offer', 'coracao-frango')}" (itemOffers[5]): price.currency must be BRL (prices are in Brazilian reais), not "USD"`,
    );
    expect(status.moreInfo).toContain('Nothing was removed: the menu had discarded objects.');
    const r = await merchantRecord(t, me);
    expect(productByPdv(r, item('fraldinha'))?.price).toBe(58.9); // the valid rest is applied
    expect(productByPdv(r, item('picanha'))?.price).toBe(89.9); // kept, not removed
    expect(productByPdv(r, item('coracao-frango'))).toBeDefined();
  });

  it.each<[string, string, string]>([
    ['not JSON', '{"id": "x", "items": [', 'is not valid JSON'],
    ['neither format', '{"hello": "world"}', 'Pull failed: the POS answer is neither our MERCHANT upload body'],
    [
      'an OD Merchant without id',
      '{"status": "AVAILABLE", "items": []}',
      'Open Delivery Merchant: id is missing: nothing was processed',
    ],
    [
      'items that are not an array',
      `{"id": "${OD_SANDBOX_MERCHANT_ID}", "status": "AVAILABLE", "items": {}}`,
      'Open Delivery Merchant: items must be an array: nothing was processed',
    ],
  ])('%s → FAIL saying why', async (_name, body, reason) => {
    const me = await onboarded();
    pos.answerWith((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const status = await notifyAndSettle(t, me);
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toContain(reason);
    expect((await merchantRecord(t, me)).products).toEqual([]);
  });

  it('our own MERCHANT upload body is still accepted from the same endpoint (detected, not configured)', async () => {
    const me = await onboarded();
    pos.answerWith((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(merchantBody(sampleCatalog()))),
    );
    const status = await notifyAndSettle(t, me);
    expect(status).toMatchObject({ status: 'SUCCESS' });
    expect((await operatorSyncs(t, me.merchantId))[0]).toMatchObject({ format: 'cleaver', entityType: 'MERCHANT' });
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.price).toBe(89.9);
  });
});

describe('pull limits', () => {
  let limited: ReturnType<typeof createCatalogService>;
  beforeAll(() => {
    limited = createCatalogService({
      db: t.database.db,
      merchants: t.services.merchants,
      clock,
      getMerchantUrl: async () => ({ baseURL: pos.baseURL, apiKey: API_KEY }),
      pullLimits: { timeoutMs: 300, maxBytes: 4000 },
    });
  });

  async function pullWithLimits(me: MerchantCredentials) {
    const res = await notify(t, me);
    expect(res.statusCode).toBe(204);
    await limited.worker.drain();
    return (await operatorSyncs(t, me.merchantId))[0];
  }

  it('an oversized menu (declared, or streamed without a length) is refused at the limit', async () => {
    const me = await onboarded();
    const big: OdMerchant = odButcherMenu();
    pos.serve(big); // valid Open Delivery, just larger than 4000 bytes
    expect(JSON.stringify(big).length).toBeGreaterThan(4000);
    expect(await pullWithLimits(me)).toMatchObject({
      status: 'FAIL',
      moreInfo: 'Pull failed: the POS answer is larger than 4000 bytes',
    });
    pos.answerWith((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = JSON.stringify(big);
      res.write(chunk.slice(0, 3000));
      setTimeout(() => res.end(chunk.slice(3000)), 20);
    });
    expect(await pullWithLimits(me)).toMatchObject({
      status: 'FAIL',
      moreInfo: 'Pull failed: the POS answer is larger than 4000 bytes',
    });
    expect((await merchantRecord(t, me)).products).toEqual([]);
  });

  it('a slow POS times out', async () => {
    const me = await onboarded();
    pos.answerWith(() => {}); // never answers
    expect(await pullWithLimits(me)).toMatchObject({
      status: 'FAIL',
      moreInfo: `Pull failed: GET ${pos.baseURL}/v1/merchant took longer than 300 ms`,
    });
    // Headers at once, then the body stalls.
    pos.answerWith((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    expect(await pullWithLimits(me)).toMatchObject({
      status: 'FAIL',
      moreInfo: `Pull failed: GET ${pos.baseURL}/v1/merchant took longer than 300 ms`,
    });
  });
});

describe('the upload route is untouched', () => {
  it('PUT /v1/merchantUpdate still takes our MERCHANT body', async () => {
    const me = await createMerchant(t.app);
    expect((await sync(t, me, merchantBody(sampleCatalog()))).status).toBe('SUCCESS');
    expect((await operatorSyncs(t, me.merchantId))[0]).toMatchObject({ source: 'UPLOAD', format: 'cleaver' });
  });
});
