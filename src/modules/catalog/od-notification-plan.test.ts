// Table-driven: OD's four uses of POST /v1/merchantUpdate and one row per rule or discard reason
// of each entityType (od-notification-plan.ts), plus the outcome's words (od-outcome.ts).
import { describe, expect, it } from 'vitest';
import { checkOdNotification, type OdNotificationBody, planOdNotification } from './od-notification-plan.js';
import { describeOdOutcome, describeUnchanged } from './od-outcome.js';

describe('checkOdNotification: the four uses, and what is refused', () => {
  it.each<[string, OdNotificationBody, unknown]>([
    ['1. empty body → pull', {}, { use: 'pull' }],
    [
      '2. merchantStatus only → the switch',
      { merchantStatus: 'UNAVAILABLE' },
      { use: 'notify', merchantStatus: 'UNAVAILABLE', entityType: null, updatedObjects: [] },
    ],
    [
      '3. entityType + updatedObjects → those objects',
      { entityType: 'ITEM', updatedObjects: [{ id: 'I1' }] },
      { use: 'notify', merchantStatus: null, entityType: 'ITEM', updatedObjects: [{ id: 'I1' }] },
    ],
    [
      '4. all three → both',
      { merchantStatus: 'AVAILABLE', entityType: 'ITEM_OFFER', updatedObjects: [{ itemId: 'I1' }] },
      { use: 'notify', merchantStatus: 'AVAILABLE', entityType: 'ITEM_OFFER', updatedObjects: [{ itemId: 'I1' }] },
    ],
    [
      'entityType without updatedObjects',
      { entityType: 'ITEM' },
      { reason: 'updatedObjects is required when entityType is given' },
    ],
    [
      'entityType with an empty updatedObjects',
      { entityType: 'ITEM', updatedObjects: [] },
      { reason: 'updatedObjects must not be empty when entityType is given' },
    ],
    [
      'updatedObjects without entityType',
      { merchantStatus: 'AVAILABLE', updatedObjects: [{}] },
      { reason: 'entityType is required when updatedObjects is given' },
    ],
  ])('%s', (_name, body, expected) => {
    expect(checkOdNotification(body)).toEqual(expected);
  });
});

describe('ITEM: existing products, fields that are not creation-only', () => {
  it('reads the fields and the status; name, description and unit stay as registered', () => {
    const p = planOdNotification(
      'ITEM',
      [
        {
          id: 'I1',
          name: 'Picanha nova',
          unit: 'LB',
          externalCode: '2001',
          ean: '789',
          serving: 3,
          status: 'UNAVAILABLE',
          images: [{ type: 'MAIN', URL: 'https://img.example/m.jpg' }],
        },
        { id: 'I2', name: 'Fraldinha', nutritionalInfo: { description: 'x', calories: '1 kcal' } },
      ],
      null,
    );
    if (p.kind !== 'items') throw new Error(p.kind);
    expect(p.items.items).toEqual([
      expect.objectContaining({
        pdvId: 'I1',
        index: 0,
        externalCode: '2001',
        ean: '789',
        serving: 3,
        imageUrl: 'https://img.example/m.jpg',
      }),
      expect.objectContaining({
        pdvId: 'I2',
        index: 1,
        externalCode: null,
        nutritionalInfo: '{"description":"x","calories":"1 kcal"}',
      }),
    ]);
    expect(p.statuses.offers).toEqual([{ pdvId: 'I1', index: 0, price: null, status: 'UNAVAILABLE' }]);
    expect(p.items.discarded).toEqual([]);
    expect(p.notMapped).toEqual([
      'name, description and unit: kept as registered (spec 4.3 sets them only when a product is created)',
    ]);
  });

  it.each<[string, unknown, string]>([
    ['not an object', 'I1', 'not an object'],
    ['no id', { name: 'x' }, 'id is missing'],
    ['a status outside the enum', { id: 'I1', status: 'NO' }, 'status must be AVAILABLE or UNAVAILABLE'],
    ['a bad image', { id: 'I1', image: { URL: 'nope' } }, 'image.URL must be an absolute http(s) URL'],
    ['ean not text', { id: 'I1', ean: 789 }, 'ean must be a string'],
  ])('%s', (_name, object, reason) => {
    const p = planOdNotification('ITEM', [object], null);
    if (p.kind !== 'items') throw new Error(p.kind);
    expect(p.items.discarded.map((d) => [d.kind, d.index, d.reason])).toEqual([['items', 0, reason]]);
    expect(p.items.items).toEqual([]);
  });

  it('a repeated id', () => {
    const p = planOdNotification('ITEM', [{ id: 'I1' }, { id: 'I1' }], null);
    if (p.kind !== 'items') throw new Error(p.kind);
    expect(p.items.discarded).toEqual([{ kind: 'items', id: 'I1', index: 1, reason: 'duplicate id' }]);
  });
});

describe('ITEM_OFFER: price and/or status of existing products, by itemId', () => {
  it.each<[string, unknown, unknown]>([
    [
      'price',
      { id: 'O1', itemId: 'I1', price: { value: 79.9, currency: 'BRL' } },
      { pdvId: 'I1', index: 0, price: '79.9', status: null },
    ],
    [
      'status',
      { id: 'O1', itemId: 'I1', status: 'UNAVAILABLE' },
      { pdvId: 'I1', index: 0, price: null, status: 'UNAVAILABLE' },
    ],
    [
      'both',
      {
        id: 'O1',
        itemId: 'I1',
        index: 0,
        status: 'AVAILABLE',
        price: { value: 10, originalValue: 12, currency: 'BRL' },
      },
      { pdvId: 'I1', index: 0, price: '10', status: 'AVAILABLE' },
    ],
  ])('%s', (_name, object, expected) => {
    const p = planOdNotification('ITEM_OFFER', [object], null);
    if (p.kind !== 'offers') throw new Error(p.kind);
    expect(p.offers.offers).toEqual([expected]);
    expect(p.offers.discarded).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['no itemId', { id: 'O1', price: { value: 1 } }, 'itemId is missing'],
    ['neither price nor status', { itemId: 'I1' }, 'neither price.value nor status is given'],
    [
      'another currency',
      { itemId: 'I1', price: { value: 1, currency: 'EUR' } },
      'price.currency must be BRL (prices are in Brazilian reais), not "EUR"',
    ],
    ['price.value missing', { itemId: 'I1', price: { currency: 'BRL' } }, 'price.value is missing'],
    ['a status outside the enum', { itemId: 'I1', status: 'OFF' }, 'status must be AVAILABLE or UNAVAILABLE'],
  ])('%s', (_name, object, reason) => {
    const p = planOdNotification('ITEM_OFFER', [object], null);
    if (p.kind !== 'offers') throw new Error(p.kind);
    expect(p.offers.discarded.map((d) => [d.kind, d.index, d.reason])).toEqual([['itemOffers', 0, reason]]);
  });

  it('option groups named by an offer are reported', () => {
    const p = planOdNotification('ITEM_OFFER', [{ itemId: 'I1', status: 'AVAILABLE', optionGroupsId: ['G1'] }], null);
    if (p.kind !== 'offers') throw new Error(p.kind);
    expect(p.notMapped).toEqual(['optionGroupsId (1 itemOffers): not held (the catalog has no options)']);
  });
});

describe('CATEGORY: name and status of existing categories', () => {
  it('reads name and status; membership and order are not applied, and it says so', () => {
    const p = planOdNotification(
      'CATEGORY',
      [
        { id: 'C1', name: ' Bovinos ', status: 'UNAVAILABLE', itemOfferId: ['O1'], index: 4 },
        { id: 'C2', name: 'Aves' },
      ],
      null,
    );
    if (p.kind !== 'categories') throw new Error(p.kind);
    expect(p.categories).toEqual([
      { pdvId: 'C1', index: 0, name: 'Bovinos', status: 'UNAVAILABLE' },
      { pdvId: 'C2', index: 1, name: 'Aves', status: null },
    ]);
    expect(p.notMapped[0]).toMatch(/^itemOfferId, index, image and description of a CATEGORY update: not applied/);
  });

  it.each<[string, unknown, string]>([
    ['no id', { name: 'x' }, 'id is missing'],
    ['no name', { id: 'C1' }, 'name is missing'],
    ['a status outside the enum', { id: 'C1', name: 'x', status: 'OFF' }, 'status must be AVAILABLE or UNAVAILABLE'],
  ])('%s', (_name, object, reason) => {
    const p = planOdNotification('CATEGORY', [object], null);
    if (p.kind !== 'categories') throw new Error(p.kind);
    expect(p.discarded.map((d) => [d.kind, d.index, d.reason])).toEqual([['categories', 0, reason]]);
  });
});

describe('MERCHANT: a whole menu in updatedObjects[0]', () => {
  it('maps it like a pulled Merchant, the notification status winning; further objects are discarded', () => {
    const object = {
      id: '22815773000169-aaaaaaaa-0000-4000-8000-000000000001',
      status: 'AVAILABLE',
      categories: [{ id: 'C1', name: 'Bovinos', itemOfferId: ['O1'] }],
      itemOffers: [{ id: 'O1', itemId: 'I1', price: { value: 10 } }],
      items: [{ id: 'I1', name: 'Picanha', unit: 'KG' }],
    };
    const single = planOdNotification('MERCHANT', [object], 'UNAVAILABLE');
    if (single.kind !== 'merchant') throw new Error(single.kind);
    expect(single.merchant.plan.merchantStatus).toBe('UNAVAILABLE');
    expect(single.merchant.plan.replace).toBe(true);
    const two = planOdNotification('MERCHANT', [object, object], null);
    if (two.kind !== 'merchant') throw new Error(two.kind);
    expect(two.merchant.plan.discarded).toEqual([
      {
        kind: 'updatedObjects',
        id: null,
        index: 1,
        reason: 'only updatedObjects[0] is read when entityType is MERCHANT',
      },
    ]);
    expect(two.merchant.plan.replace).toBe(false);
    expect(two.merchant.plan.removalSkipped).toBe('the notification had discarded objects');
  });
});

describe('entity types the catalog has no place for: accepted, not applied, said so', () => {
  it.each<[Parameters<typeof planOdNotification>[0], string]>([
    ['BASIC_INFO', "the merchant's name, document, address and contacts are kept by the platform"],
    ['SERVICE', 'service types, hours and delivery areas are kept by the platform'],
    ['MENU', 'the catalog is one menu per merchant; categories change with CATEGORY or with the whole menu'],
    ['OPTION_GROUP', 'the catalog holds no options'],
    ['OPTION', 'the catalog holds no options'],
    ['AVAILABILITY', 'time windows are not held; use the status of the item offer, item or category'],
  ])('%s', (entityType, why) => {
    expect(planOdNotification(entityType, [{}, {}], null)).toEqual({
      kind: 'not-applied',
      notMapped: [`${entityType} (2 objects): accepted, not applied (${why})`],
    });
  });
});

describe('the outcome (D17 plus the switch and what is not mapped)', () => {
  it('the switch alone', () => {
    expect(describeOdOutcome({ entityType: null, merchantStatus: 'UNAVAILABLE' })).toMatchObject({
      status: 'SUCCESS',
      moreInfo: 'Merchant status: UNAVAILABLE (order receiving off).',
      details: { merchantStatus: 'UNAVAILABLE', format: 'opendelivery' },
    });
  });

  it('counts, discards and notes; a discard makes it FAIL, a note does not', () => {
    const counts = {
      categories: { created: 0, updated: 1, unchanged: 2, removed: 0 },
      products: { created: 0, updated: 0, unchanged: 0, removed: 0 },
    };
    const ok = describeOdOutcome({ entityType: 'CATEGORY', counts, lines: ['categories'], notMapped: ['a', 'b'] });
    expect(ok).toMatchObject({
      status: 'SUCCESS',
      moreInfo: 'Categories: 0 created, 1 updated, 2 unchanged, 0 removed. Discarded: none. Not mapped: a; b.',
    });
    const failed = describeOdOutcome({
      entityType: 'MERCHANT',
      counts,
      lines: ['categories', 'products'],
      discarded: [
        { kind: 'links', id: 'C1', index: 0, reason: '"X" matches no itemOffer', path: 'categories[0].itemOfferId[3]' },
      ],
      removalSkipped: 'the menu had discarded objects',
    });
    expect(failed.status).toBe('FAIL');
    expect(failed.moreInfo).toBe(
      'Categories: 0 created, 1 updated, 2 unchanged, 0 removed. Products: 0 created, 0 updated, 0 unchanged, 0 removed. ' +
        'Discarded: 1 (links 1). category link "C1" (categories[0].itemOfferId[3]): "X" matches no itemOffer. ' +
        'Nothing was removed: the menu had discarded objects.',
    );
  });

  it('an unchanged pull', () => {
    expect(describeUnchanged({ notModified: true, url: 'https://pos/v1/merchant', etag: '"v1"' })).toMatchObject({
      status: 'SUCCESS',
      moreInfo:
        'Unchanged: GET https://pos/v1/merchant answered 304 Not Modified to If-None-Match "v1"; nothing was re-processed.',
      details: { unchanged: '304' },
    });
    expect(describeUnchanged({ sameBody: true, appliedAt: new Date('2026-03-01T12:00:00Z') }).moreInfo).toBe(
      'Unchanged: the menu is identical to the one applied at 2026-03-01T12:00:00.000Z; nothing was re-processed.',
    );
  });
});
