// The butcher's catalog fields (D41 scaleCode, D42 weight, D44 leadTimeHours) in both dialects'
// uploads: kept exactly, shown by GET /v1/merchant to both profiles' keys, updated when given and
// kept when absent, and an item that breaks one is discarded with a reason naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { odButcherMenu, odId } from '../../src/cli/od-pos-menu.js';
import { manualClock } from '../../src/lib/clock.js';
import { notifyAndSettle, registerPos, startTestPos, type TestPos } from '../catalog-od/od-support.js';
import { createKey } from '../opendelivery/od-support.js';
import { merchantBody, merchantRecord, productByPdv, sampleCatalog, sync } from '../support/catalog.js';
import { bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

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

const PICANHA_TRADE = { scaleCode: '010085', weight: { min: 0.5, max: 3, step: 0.25 }, leadTimeHours: 24 };

/** The sample catalog with trade fields on P1 and `extra` merged into P2. */
function catalogWith(p2: Record<string, unknown> = {}) {
  const spec = sampleCatalog();
  spec.items = spec.items.map((i) =>
    i.id === 'P1' ? { ...i, ...PICANHA_TRADE } : i.id === 'P2' ? { ...i, ...p2 } : i,
  );
  return spec;
}

describe('trade fields in our upload (D41, D42, D44)', () => {
  it('a MERCHANT upload keeps them exactly; GET /v1/merchant shows them to both profiles; absent fields are left out', async () => {
    const me = await createMerchant(t.app);
    const status = await sync(t, me, merchantBody(catalogWith({ weight: { min: 0.3, max: 1.7, step: 0.1 } })));
    expect(status).toMatchObject({ status: 'SUCCESS' });
    const record = await merchantRecord(t, me);
    expect(productByPdv(record, 'P1')).toMatchObject(PICANHA_TRADE);
    // 0.3 and 0.1 are exact decimals, not their binary neighbours.
    expect(productByPdv(record, 'P2')?.weight).toEqual({ min: 0.3, max: 1.7, step: 0.1 });
    const p3 = productByPdv(record, 'P3');
    expect(p3).not.toHaveProperty('scaleCode');
    expect(p3).not.toHaveProperty('weight');
    expect(p3).not.toHaveProperty('leadTimeHours');
    const stored = await t.database.db.query<{ weight_min: string; weight_step: string }>(
      `SELECT weight_min::text AS weight_min, weight_step::text AS weight_step FROM products
        WHERE merchant_id = $1 AND pdv_external_id = 'P2'`,
      [me.merchantId],
    );
    expect(stored.rows).toEqual([{ weight_min: '0.300', weight_step: '0.100' }]);

    // The Open Delivery profile's key reads the same record.
    const od = await createKey(t.app, me.merchantId, 'opendelivery');
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { client_id: me.merchantId, client_secret: od.clientSecret, grant_type: 'client_credentials' },
    });
    expect(token.statusCode, token.body).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/merchant',
      headers: bearer(token.json().access_token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(productByPdv(res.json(), 'P1')).toMatchObject(PICANHA_TRADE);
  });

  it('an ITEM upload changes what it gives and keeps what it leaves out; an identical one changes nothing', async () => {
    const me = await createMerchant(t.app);
    await sync(t, me, merchantBody(catalogWith()));
    const status = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        { id: 'P1', scaleCode: '85' },
        { id: 'P2', leadTimeHours: 1.5 },
      ],
    });
    expect(status).toMatchObject({
      status: 'SUCCESS',
      moreInfo: 'Products: 0 created, 2 updated, 0 unchanged, 0 removed. Discarded: none.',
    });
    const record = await merchantRecord(t, me);
    expect(productByPdv(record, 'P1')).toMatchObject({ ...PICANHA_TRADE, scaleCode: '85' });
    expect(productByPdv(record, 'P2')).toMatchObject({ leadTimeHours: 1.5 });
    const again = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [{ id: 'P1', scaleCode: '85', weight: PICANHA_TRADE.weight }],
    });
    expect(again.moreInfo).toBe('Products: 0 created, 0 updated, 1 unchanged, 0 removed. Discarded: none.');
    // The weight is replaced whole.
    const same = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [{ id: 'P1', weight: { min: 1, max: 3, step: 0.5 } }],
    });
    expect(same.moreInfo).toBe('Products: 0 created, 1 updated, 0 unchanged, 0 removed. Discarded: none.');
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.weight).toEqual({ min: 1, max: 3, step: 0.5 });
  });

  it.each([
    ['scaleCode as a number', { scaleCode: 10085 }, 'scaleCode must be a string of 1 to 6 digits'],
    ['scaleCode with letters', { scaleCode: 'A1' }, 'scaleCode must be a string of 1 to 6 digits'],
    ['scaleCode of 7 digits', { scaleCode: '1234567' }, 'scaleCode must be a string of 1 to 6 digits'],
    ['weight not an object', { weight: 2 }, 'weight must be an object {min, max, step}'],
    ['weight without step', { weight: { min: 1, max: 2 } }, 'weight.step is missing'],
    ['weight.min of 0', { weight: { min: 0, max: 2, step: 1 } }, 'weight.min must be more than 0'],
    ['weight.max as text', { weight: { min: 1, max: '2', step: 1 } }, 'weight.max must be a number of kilograms'],
    [
      'weight.step of 4 decimals',
      { weight: { min: 1, max: 2, step: 0.0005 } },
      'weight.step has more than 3 decimal places',
    ],
    ['weight.max below min', { weight: { min: 2, max: 1, step: 0.5 } }, 'weight.max must be at least weight.min'],
    ['weight.max too large', { weight: { min: 1, max: 10_000, step: 1 } }, 'weight.max must be at most 9999.999'],
    ['leadTimeHours negative', { leadTimeHours: -1 }, 'leadTimeHours must be 0 or more'],
    ['leadTimeHours of 3 decimals', { leadTimeHours: 1.125 }, 'leadTimeHours has more than 2 decimal places'],
    ['leadTimeHours as text', { leadTimeHours: '24' }, 'leadTimeHours must be a number of hours'],
  ])('%s: the item is discarded with a reason naming the field, in both uploads', async (_name, fields, reason) => {
    const me = await createMerchant(t.app);
    const whole = await sync(t, me, merchantBody(catalogWith(fields)));
    expect(whole.status).toBe('FAIL');
    expect(whole.moreInfo).toContain(`item "P2" (items[1]): ${reason}`);
    expect(productByPdv(await merchantRecord(t, me), 'P2')).toBeUndefined();
    // P1 made it: the flat upload finds it, and discards P2, which the upload above never created.
    const flat = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        { id: 'P1', ean: '1' },
        { id: 'P2', ...fields },
      ],
    });
    expect(flat.status).toBe('FAIL');
    expect(flat.moreInfo).toContain(`item "P2" (items[1]): ${reason}`);
  });
});

describe('trade fields in Open Delivery uploads: extra fields of the Item (D29, D41, D42, D44)', () => {
  it('a pulled Merchant carries them on its items and stays an Open Delivery Merchant', async () => {
    const me = await createMerchant(t.app);
    await registerPos(t, me, pos.baseURL);
    const menu = odButcherMenu();
    const picanha = odId('item', 'picanha');
    const items = menu.items.map((i) => (i.id === picanha ? { ...i, ...PICANHA_TRADE } : i));
    // serve() checks the body against our Open Delivery schema: the extra fields keep it valid.
    pos.serve({ ...menu, items });
    expect(await notifyAndSettle(t, me)).toMatchObject({ status: 'SUCCESS' });
    expect(productByPdv(await merchantRecord(t, me), picanha)).toMatchObject(PICANHA_TRADE);
  });

  it('an ITEM notification updates them, and one that breaks a field is discarded naming it', async () => {
    const me = await createMerchant(t.app);
    await sync(t, me, merchantBody(catalogWith()));
    const status = await notifyAndSettle(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        { id: 'P1', name: 'Picanha', description: '', externalCode: '1001', unit: 'KG', scaleCode: '2' },
        { id: 'P2', name: 'Alcatra', description: '', externalCode: '1002', unit: 'KG', weight: { min: 1 } },
      ],
    });
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toContain('item "P2" (items[1]): weight.max is missing');
    expect(productByPdv(await merchantRecord(t, me), 'P1')).toMatchObject({ ...PICANHA_TRADE, scaleCode: '2' });
  });
});
