// The upload planner, table-driven (style.md#tests): one row per rule of spec 4.3 / D17–D19 and
// per discard reason. A row is a change to a valid catalog and what the plan must say about it.
import { describe, expect, it } from 'vitest';
import { type Discarded, type MerchantPlan, planUpload, type UploadEnvelope } from './catalog-upload-plan.js';
import { expectCleanReplace } from './plan-test-support.js';

type Root = {
  id?: unknown;
  categories: Array<Record<string, unknown>>;
  itemOffers: Array<Record<string, unknown>>;
  items: Array<Record<string, unknown>>;
};

/** Two categories, three offers, three items: everything reachable, nothing discarded. */
function catalog(): Root {
  return {
    id: 'LOJA-1',
    categories: [
      { id: 'BOV', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['O1', 'O2'] },
      { id: 'SUI', name: 'Suínos', index: 1, status: 'AVAILABLE', itemOfferId: ['O3'] },
    ],
    itemOffers: [
      { id: 'O1', itemId: 'P1', price: { value: 89.9 }, status: 'AVAILABLE' },
      { id: 'O2', itemId: 'P2', price: { value: 59.9 }, status: 'UNAVAILABLE' },
      { id: 'O3', itemId: 'P3', price: { value: 32.5 }, status: 'AVAILABLE' },
    ],
    items: [
      { id: 'P1', name: 'Picanha', unit: 'KG' },
      { id: 'P2', name: 'Fraldinha', unit: 'KG' },
      { id: 'P3', name: 'Linguiça', unit: 'UN' },
    ],
  };
}

function merchant(root: unknown, extra: Partial<UploadEnvelope> = {}): MerchantPlan {
  const plan = planUpload({ entityType: 'MERCHANT', merchantStatus: 'AVAILABLE', updatedObjects: [root], ...extra });
  if (plan.entityType !== 'MERCHANT') throw new Error('expected a MERCHANT plan');
  return plan;
}

const only = (d: Discarded[]) => d.map(({ kind, id, index, reason }) => ({ kind, id, index, reason }));

describe('MERCHANT: a valid catalog', () => {
  it('plans every category, product and link, with removal allowed', () => {
    const plan = merchant(catalog());
    expect(plan.merchantPdvId).toBe('LOJA-1');
    expect(plan.categories.map((c) => c.pdvId)).toEqual(['BOV', 'SUI']);
    expect(plan.products.map((p) => [p.pdvId, p.price, p.status, p.unit])).toEqual([
      ['P1', '89.9', 'AVAILABLE', 'KG'],
      ['P2', '59.9', 'UNAVAILABLE', 'KG'],
      ['P3', '32.5', 'AVAILABLE', 'UN'],
    ]);
    expectCleanReplace(plan, [
      ['BOV', 'P1', 0],
      ['BOV', 'P2', 1],
      ['SUI', 'P3', 0],
    ]);
  });

  it('onlyAddProducts true never replaces (spec 4.3)', () => {
    expect(merchant(catalog(), { onlyAddProducts: true }).replace).toBe(false);
  });

  it('a POS id given as a number is read as text', () => {
    const root = catalog();
    root.items[0].id = 101;
    root.itemOffers[0].itemId = 101;
    expect(merchant(root).products[0].pdvId).toBe('101');
  });
});

describe('MERCHANT: nothing processed (spec 3.2)', () => {
  it.each([
    ['no id', { ...catalog(), id: undefined }],
    ['a blank id', { ...catalog(), id: '   ' }],
    ['not an object', 'LOJA-1'],
  ])('updatedObjects[0] with %s is fatal', (_case, root) => {
    const plan = merchant(root);
    expect(plan.fatal).toBe('updatedObjects[0].id is missing: nothing was processed');
    expect(plan.products).toEqual([]);
  });
});

/** One row per discard reason: how to break the valid catalog, and what must be reported. */
const discards: Array<[string, (root: Root) => void, Array<Partial<Discarded>>]> = [
  [
    'an item that is not an object',
    (r) => (r.items[2] = 'x' as never),
    [{ kind: 'items', index: 2, reason: 'not an object' }],
  ],
  ['an item without id', (r) => delete r.items[2].id, [{ kind: 'items', index: 2, reason: 'id is missing' }]],
  [
    'a duplicate item id',
    (r) => r.items.push({ id: 'P1', name: 'Outra', unit: 'UN' }),
    [{ kind: 'items', id: 'P1', reason: 'duplicate id' }],
  ],
  ['an item without name', (r) => delete r.items[2].name, [{ kind: 'items', id: 'P3', reason: 'name is missing' }]],
  [
    'an item name too long',
    (r) => (r.items[2].name = 'x'.repeat(501)),
    [{ kind: 'items', id: 'P3', reason: 'name is longer than 500 characters' }],
  ],
  [
    'a unit other than KG or UN',
    (r) => (r.items[2].unit = 'LB'),
    [{ kind: 'items', id: 'P3', reason: 'unit must be KG or UN' }],
  ],
  [
    'a description that is not text',
    (r) => (r.items[2].description = 5),
    [{ kind: 'items', id: 'P3', reason: 'description must be a string' }],
  ],
  [
    'nutritionalInfo that is not an object',
    (r) => (r.items[2].nutritionalInfo = 'x'),
    [{ kind: 'items', id: 'P3', reason: 'nutritionalInfo must be an object' }],
  ],
  [
    'an image without url',
    (r) => (r.items[2].image = {}),
    [{ kind: 'items', id: 'P3', reason: 'image.url must be a non-empty string' }],
  ],
  [
    'an offer without id',
    (r) => delete r.itemOffers[2].id,
    [{ kind: 'itemOffers', index: 2, reason: 'id is missing: no category can reach it' }],
  ],
  [
    'an offer without itemId',
    (r) => delete r.itemOffers[2].itemId,
    [{ kind: 'itemOffers', id: 'O3', reason: 'itemId is missing' }],
  ],
  [
    'an offer without price',
    (r) => delete r.itemOffers[2].price,
    [{ kind: 'itemOffers', id: 'O3', reason: 'price.value is missing' }],
  ],
  [
    'a negative price',
    (r) => (r.itemOffers[2].price = { value: -1 }),
    [{ kind: 'itemOffers', id: 'O3', reason: 'price.value must not be negative' }],
  ],
  [
    'a price with 5 decimals',
    (r) => (r.itemOffers[2].price = { value: 1.23456 }),
    [{ kind: 'itemOffers', id: 'O3', reason: 'price.value has more than 4 decimal places' }],
  ],
  [
    'a price as text',
    (r) => (r.itemOffers[2].price = { value: '32.5' }),
    [{ kind: 'itemOffers', id: 'O3', reason: 'price.value must be a number' }],
  ],
  [
    'an offer status outside the enum',
    (r) => (r.itemOffers[2].status = 'OFF'),
    [{ kind: 'itemOffers', id: 'O3', reason: 'status must be AVAILABLE or UNAVAILABLE' }],
  ],
  [
    'an offer whose item does not exist',
    (r) => (r.itemOffers[2].itemId = 'P9'),
    [{ kind: 'itemOffers', id: 'O3', reason: 'itemId "P9" matches no item' }],
  ],
  [
    'a category without id',
    (r) => delete r.categories[1].id,
    [{ kind: 'categories', index: 1, reason: 'id is missing' }],
  ],
  [
    'a category without name',
    (r) => delete r.categories[1].name,
    [{ kind: 'categories', id: 'SUI', reason: 'name is missing' }],
  ],
  [
    'a category status outside the enum',
    (r) => (r.categories[1].status = 'X'),
    [{ kind: 'categories', id: 'SUI', reason: 'status must be AVAILABLE or UNAVAILABLE' }],
  ],
  [
    'a negative category index',
    (r) => (r.categories[1].index = -1),
    [{ kind: 'categories', id: 'SUI', reason: 'index must be a whole number from 0' }],
  ],
  [
    'itemOfferId that is not an array',
    (r) => (r.categories[1].itemOfferId = 'O3'),
    [{ kind: 'categories', id: 'SUI', reason: 'itemOfferId must be an array' }],
  ],
  [
    'a link to an offer that does not exist',
    (r) => (r.categories[1].itemOfferId = ['O3', 'O9']),
    [{ kind: 'links', id: 'SUI', reason: 'itemOfferId[1] "O9" matches no itemOffer' }],
  ],
  [
    'items that is not an array',
    (r) => (r.items = 'x' as never),
    [{ kind: 'updatedObjects', index: 0, reason: 'updatedObjects[0].items must be an array' }],
  ],
];

describe('MERCHANT: every discard reason is reported, the rest applied, and nothing removed', () => {
  it.each(discards)('%s', (_case, breakIt, expected) => {
    const root = catalog();
    breakIt(root);
    const plan = merchant(root);
    expect(plan.fatal).toBeNull();
    expect(only(plan.discarded)).toEqual(expect.arrayContaining(expected.map((e) => expect.objectContaining(e))));
    // D17: any discard → no removal in this sync (spec 4.3 removal rules).
    expect(plan.replace).toBe(false);
    expect(plan.removalSkipped).toBe('the upload had discarded objects');
  });

  it('an item no offer reaches, and an offer no category reaches, are reported as unreachable', () => {
    const root = catalog();
    root.items.push({ id: 'P4', name: 'Cupim', unit: 'KG' });
    root.itemOffers.push({ id: 'O4', itemId: 'P4', price: { value: 70 } });
    const plan = merchant(root);
    expect(only(plan.discarded)).toEqual([
      { kind: 'itemOffers', id: 'O4', index: 3, reason: 'no valid category reaches it' },
      { kind: 'items', id: 'P4', index: 3, reason: 'no itemOffer in a valid category reaches it' },
    ]);
  });

  it('extra updatedObjects are reported, not read', () => {
    const plan = planUpload({
      entityType: 'MERCHANT',
      merchantStatus: 'AVAILABLE',
      updatedObjects: [catalog(), { id: 'OUTRA' }],
    }) as MerchantPlan;
    expect(only(plan.discarded)).toEqual([
      {
        kind: 'updatedObjects',
        id: null,
        index: 1,
        reason: 'only updatedObjects[0] is read when entityType is MERCHANT',
      },
    ]);
  });

  it('no valid category at all: nothing removed, for that reason', () => {
    const plan = merchant({ id: 'LOJA-1', categories: [], itemOffers: [], items: [] });
    expect(plan.replace).toBe(false);
    expect(plan.removalSkipped).toBe('the upload had no valid category');
  });
});

describe('ITEM and ITEM_OFFER (D18)', () => {
  it.each([
    ['ITEM', [{ id: 'P1', ean: '789' }, { id: 'P1' }], [{ kind: 'items', id: 'P1', reason: 'duplicate id' }]],
    ['ITEM', [{ id: 'P1' }, { ean: 'x' }], [{ kind: 'items', index: 1, reason: 'id is missing' }]],
    [
      'ITEM',
      [{ id: 'P1' }, { id: 'P2', image: { url: '' } }],
      [{ kind: 'items', id: 'P2', reason: 'image.url must be a non-empty string' }],
    ],
    [
      'ITEM_OFFER',
      [{ itemId: 'P1' }],
      [{ kind: 'itemOffers', id: 'P1', reason: 'neither price.value nor status is given' }],
    ],
    ['ITEM_OFFER', [{ itemId: 'P1', price: {} }], [{ kind: 'itemOffers', id: 'P1', reason: 'price.value is missing' }]],
    [
      'ITEM_OFFER',
      [{ itemId: 'P1', status: 'SOLD_OUT' }],
      [{ kind: 'itemOffers', id: 'P1', reason: 'status must be AVAILABLE or UNAVAILABLE' }],
    ],
    ['ITEM_OFFER', [{ price: { value: 1 } }], [{ kind: 'itemOffers', index: 0, reason: 'itemId is missing' }]],
    ['ITEM_OFFER', [7], [{ kind: 'itemOffers', index: 0, reason: 'not an object' }]],
  ] as const)('%s %j is discarded', (entityType, updatedObjects, expected) => {
    const plan = planUpload({ entityType, updatedObjects: [...updatedObjects] });
    expect(only(plan.discarded)).toEqual(expected.map((e) => expect.objectContaining(e)));
  });

  it('ITEM: a first entry without id processes nothing (spec 3.2)', () => {
    expect(planUpload({ entityType: 'ITEM', updatedObjects: [{ ean: 'x' }, { id: 'P1' }] }).fatal).toBe(
      'updatedObjects[0].id is missing: nothing was processed',
    );
  });

  it('ITEM_OFFER: price and status are each optional; exact decimals', () => {
    const plan = planUpload({
      entityType: 'ITEM_OFFER',
      updatedObjects: [
        { itemId: 'P1', price: { value: 12.9 } },
        { itemId: 'P2', status: 'UNAVAILABLE' },
      ],
    });
    expect(plan.entityType === 'ITEM_OFFER' && plan.offers).toEqual([
      { pdvId: 'P1', index: 0, price: '12.9', status: null },
      { pdvId: 'P2', index: 1, price: null, status: 'UNAVAILABLE' },
    ]);
  });
});
