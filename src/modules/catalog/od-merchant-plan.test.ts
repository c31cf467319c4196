// Table-driven: one row per mapping rule or discard reason of od-merchant-plan.ts (D29).
import { describe, expect, it } from 'vitest';
import type { Discarded } from './catalog-upload-plan.js';
import { looksLikeOdMerchant, planOdMerchant } from './od-merchant-plan.js';
import { expectCleanReplace } from './plan-test-support.js';

type Obj = Record<string, unknown>;

/** A small valid Open Delivery Merchant: one menu, two categories, three offers of three items. */
function menu(): Obj {
  return {
    lastUpdate: '2026-03-01T12:00:00Z',
    TTL: 600,
    id: '22815773000169-aaaaaaaa-0000-4000-8000-000000000001',
    status: 'AVAILABLE',
    basicInfo: { name: 'Açougue' },
    services: [],
    menus: [{ id: 'M1', name: 'Cardápio', externalCode: 'M1', categoryId: ['C1', 'C2'] }],
    categories: [
      { id: 'C1', index: 0, name: 'Bovinos', externalCode: 'C1', status: 'AVAILABLE', itemOfferId: ['O1', 'O2'] },
      { id: 'C2', index: 1, name: 'Para o churrasco', externalCode: 'C2', status: 'AVAILABLE', itemOfferId: ['O3'] },
    ],
    itemOffers: [
      { id: 'O1', itemId: 'I1', index: 0, price: { value: 89.9, originalValue: 89.9, currency: 'BRL' } },
      { id: 'O2', itemId: 'I2', index: 1, price: { value: 54.9, originalValue: 54.9, currency: 'BRL' } },
      { id: 'O3', itemId: 'I3', index: 0, price: { value: 9.5, originalValue: 9.5, currency: 'BRL' } },
    ],
    items: [
      { id: 'I1', name: 'Picanha', description: 'Peça', externalCode: '1001', unit: 'KG' },
      { id: 'I2', name: 'Fraldinha', description: '', externalCode: '1002', unit: 'KG' },
      { id: 'I3', name: 'Hambúrguer 180 g', description: '', externalCode: '1003', unit: 'UN' },
    ],
  };
}

const list = (m: Obj, key: string) => m[key] as Obj[];
const plan = (m: Obj) => planOdMerchant(m).plan;
const only = (d: Discarded[]) =>
  d.map((x) => ({ kind: x.kind, id: x.id, index: x.index, reason: x.reason, path: x.path }));

describe('fatal: nothing is processed', () => {
  it.each<[string, (m: Obj) => unknown, string]>([
    ['not an object', () => [1, 2], 'the body must be a JSON object'],
    ['no id', (m) => ({ ...m, id: '  ' }), 'id is missing'],
    ['no status', (m) => ({ ...m, status: undefined }), 'status must be AVAILABLE or UNAVAILABLE'],
    ['a status outside the enum', (m) => ({ ...m, status: 'OPEN' }), 'status must be AVAILABLE or UNAVAILABLE'],
    ['items not an array', (m) => ({ ...m, items: {} }), 'items must be an array'],
    ['categories not an array', (m) => ({ ...m, categories: 'C1' }), 'categories must be an array'],
    ['menus not an array', (m) => ({ ...m, menus: {} }), 'menus must be an array'],
  ])('%s', (_name, change, reason) => {
    const p = planOdMerchant(change(menu())).plan;
    expect(p.fatal).toBe(`Open Delivery Merchant: ${reason}: nothing was processed`);
    expect(p.products).toEqual([]);
    expect(p.replace).toBe(false);
  });
});

describe('a clean menu', () => {
  it('maps store id, status, categories, products, links and removal', () => {
    const p = plan(menu());
    expect(p.merchantPdvId).toBe('22815773000169-aaaaaaaa-0000-4000-8000-000000000001');
    expect(p.merchantStatus).toBe('AVAILABLE');
    expect(p.categories).toEqual([
      { pdvId: 'C1', name: 'Bovinos', index: 0, status: 'AVAILABLE' },
      { pdvId: 'C2', name: 'Para o churrasco', index: 1, status: 'AVAILABLE' },
    ]);
    expect(p.products.map((x) => [x.pdvId, x.name, x.unit, x.price, x.status, x.externalCode])).toEqual([
      ['I1', 'Picanha', 'KG', '89.9', 'AVAILABLE', '1001'],
      ['I2', 'Fraldinha', 'KG', '54.9', 'AVAILABLE', '1002'],
      ['I3', 'Hambúrguer 180 g', 'UN', '9.5', 'AVAILABLE', '1003'],
    ]);
    expectCleanReplace(p, [
      ['C1', 'I1', 0],
      ['C1', 'I2', 1],
      ['C2', 'I3', 0],
    ]);
  });

  it('a notification merchantStatus wins over the object status', () => {
    expect(planOdMerchant(menu(), 'UNAVAILABLE').plan.merchantStatus).toBe('UNAVAILABLE');
    expect(planOdMerchant({ ...menu(), status: undefined }, 'AVAILABLE').plan.fatal).toBeNull();
  });
});

describe('items: one row per discard reason', () => {
  it.each<[string, (i: Obj) => unknown, string]>([
    ['not an object', () => 'I1', 'not an object'],
    ['no id', (i) => ({ ...i, id: null }), 'id is missing'],
    ['no name', (i) => ({ ...i, name: ' ' }), 'name is missing'],
    ['a name over 500 characters', (i) => ({ ...i, name: 'x'.repeat(501) }), 'name is longer than 500 characters'],
    [
      'no unit',
      (i) => ({ ...i, unit: undefined }),
      'unit is missing (KG for a price per kilogram, UN for a price per unit)',
    ],
    [
      'unit LB',
      (i) => ({ ...i, unit: 'LB' }),
      'unit LB cannot be sold here: only KG (price per kilogram) and UN (price per unit)',
    ],
    [
      'unit L',
      (i) => ({ ...i, unit: 'L' }),
      'unit L cannot be sold here: only KG (price per kilogram) and UN (price per unit)',
    ],
    ['an unknown unit', (i) => ({ ...i, unit: 'kg' }), 'unit must be KG or UN'],
    ['a status outside the enum', (i) => ({ ...i, status: 'OFF' }), 'status must be AVAILABLE or UNAVAILABLE'],
    ['description not text', (i) => ({ ...i, description: 3 }), 'description must be a string'],
    ['externalCode not text', (i) => ({ ...i, externalCode: 1001 }), 'externalCode must be a string'],
    ['nutritionalInfo not an object', (i) => ({ ...i, nutritionalInfo: 'light' }), 'nutritionalInfo must be an object'],
    ['image without URL', (i) => ({ ...i, image: {} }), 'image.URL must be a non-empty string'],
    [
      'image URL not http(s)',
      (i) => ({ ...i, image: { URL: 'ftp://x/y.jpg' } }),
      'image.URL must be an absolute http(s) URL',
    ],
    ['image URL relative', (i) => ({ ...i, image: { URL: '/p.jpg' } }), 'image.URL must be an absolute http(s) URL'],
    ['images not an array', (i) => ({ ...i, images: { URL: 'https://x/y.jpg' } }), 'images must be an array'],
    [
      'a bad MAIN image',
      (i) => ({ ...i, images: [{ type: 'MAIN', URL: 7 }] }),
      'images[0].URL must be a non-empty string',
    ],
  ])('%s', (_name, change, reason) => {
    const m = menu();
    list(m, 'items')[0] = change(list(m, 'items')[0]) as Obj;
    const p = plan(m);
    const id = typeof list(m, 'items')[0] === 'object' && reason !== 'id is missing' ? 'I1' : null;
    expect(only(p.discarded)).toEqual([
      // Its offer goes too, reported with the reason.
      {
        kind: 'itemOffers',
        id: 'O1',
        index: 0,
        reason: id ? 'item "I1" was discarded' : 'itemId "I1" matches no item',
        path: undefined,
      },
      { kind: 'items', id, index: 0, reason, path: undefined },
    ]);
    expect(p.products.map((x) => x.pdvId)).toEqual(['I2', 'I3']);
    expect(p.replace).toBe(false);
    expect(p.removalSkipped).toBe('the menu had discarded objects');
  });

  it('a duplicate id keeps the first', () => {
    const m = menu();
    list(m, 'items').push({ ...list(m, 'items')[0], name: 'Outra' });
    const p = plan(m);
    expect(only(p.discarded)).toEqual([{ kind: 'items', id: 'I1', index: 3, reason: 'duplicate id', path: undefined }]);
    expect(p.products.find((x) => x.pdvId === 'I1')?.name).toBe('Picanha');
  });

  it('an item no offer reaches is discarded; one used only as an option is not a product and not an error', () => {
    const m = menu();
    list(m, 'items').push({ id: 'I4', name: 'Sal grosso', description: '', externalCode: '9', unit: 'UN' });
    list(m, 'items').push({ id: 'I5', name: 'Chimichurri', description: '', externalCode: '8', unit: 'UN' });
    m.optionGroups = [
      {
        id: 'G1',
        index: 0,
        name: 'Tempero',
        externalCode: 'G1',
        status: 'AVAILABLE',
        minPermitted: 0,
        maxPermitted: 1,
        options: [{ id: 'P1', itemId: 'I5', index: 0, price: { value: 2, originalValue: 2, currency: 'BRL' } }],
      },
    ];
    const { plan: p, notMapped } = planOdMerchant(m);
    expect(only(p.discarded)).toEqual([
      { kind: 'items', id: 'I4', index: 3, reason: 'no itemOffer in a listed category reaches it', path: undefined },
    ]);
    expect(p.products.map((x) => x.pdvId)).not.toContain('I5');
    expect(notMapped).toContain('items used only as options (1): not products');
    expect(notMapped).toContain(
      'optionGroups (1, 1 options, used by 0 itemOffers): not held (the catalog has no options; customers cannot choose them yet)',
    );
  });
});

describe('item fields', () => {
  const first = (change: (i: Obj) => Obj) => {
    const m = menu();
    list(m, 'items')[0] = change(list(m, 'items')[0]);
    const r = planOdMerchant(m);
    return { product: r.plan.products.find((x) => x.pdvId === 'I1'), notMapped: r.notMapped, plan: r.plan };
  };

  it.each<[string, (i: Obj) => Obj, Record<string, unknown>]>([
    [
      'image.URL',
      (i) => ({ ...i, image: { URL: 'https://img.example/p.jpg' } }),
      { imageUrl: 'https://img.example/p.jpg' },
    ],
    [
      'image.url (our spelling) too',
      (i) => ({ ...i, image: { url: 'https://img.example/p.jpg' } }),
      { imageUrl: 'https://img.example/p.jpg' },
    ],
    [
      'images wins over image, MAIN first',
      (i) => ({
        ...i,
        image: { URL: 'https://img.example/old.jpg' },
        images: [
          { type: 'THUMB', URL: 'https://img.example/t.jpg' },
          { type: 'MAIN', URL: 'https://img.example/m.jpg' },
        ],
      }),
      { imageUrl: 'https://img.example/m.jpg' },
    ],
    [
      'an empty images leaves image',
      (i) => ({ ...i, images: [], image: { URL: 'https://img.example/p.jpg' } }),
      { imageUrl: 'https://img.example/p.jpg' },
    ],
    ['ean', (i) => ({ ...i, ean: '7891234567895' }), { ean: '7891234567895' }],
    ['serving as text becomes 0 (spec 4.3)', (i) => ({ ...i, serving: 'dois' }), { serving: 0 }],
    ['serving', (i) => ({ ...i, serving: 4 }), { serving: 4 }],
    [
      'nutritionalInfo as JSON',
      (i) => ({ ...i, nutritionalInfo: { description: 'x', calories: '250 kcal' } }),
      {
        nutritionalInfo: '{"description":"x","calories":"250 kcal"}',
      },
    ],
    ['no description → empty', (i) => ({ ...i, description: undefined }), { description: '' }],
    ['item UNAVAILABLE → product UNAVAILABLE', (i) => ({ ...i, status: 'UNAVAILABLE' }), { status: 'UNAVAILABLE' }],
  ])('%s', (_name, change, expected) => {
    const { product, plan: p } = first(change);
    expect(p.discarded).toEqual([]);
    expect(product).toMatchObject(expected);
  });

  it('reports the images beyond the one kept', () => {
    const { notMapped } = first((i) => ({
      ...i,
      images: [
        { type: 'MAIN', URL: 'https://img.example/m.jpg' },
        { type: 'THUMB', URL: 'https://img.example/t.jpg' },
      ],
    }));
    expect(notMapped).toContain('item images beyond the first (1): one image per product is kept (MAIN first)');
  });
});

describe('itemOffers: one row per discard reason', () => {
  it.each<[string, (o: Obj) => unknown, string | null, string]>([
    ['not an object', () => 7, null, 'not an object'],
    ['no id', (o) => ({ ...o, id: '' }), null, 'id is missing: no category can reach it'],
    ['no itemId', (o) => ({ ...o, itemId: undefined }), 'O1', 'itemId is missing'],
    ['no price', (o) => ({ ...o, price: undefined }), 'O1', 'price is missing'],
    ['price not an object', (o) => ({ ...o, price: 89.9 }), 'O1', 'price must be an object'],
    ['no price.value', (o) => ({ ...o, price: { currency: 'BRL' } }), 'O1', 'price.value is missing'],
    ['price.value as text', (o) => ({ ...o, price: { value: '89.90' } }), 'O1', 'price.value must be a number'],
    ['a negative price', (o) => ({ ...o, price: { value: -1 } }), 'O1', 'price.value must not be negative'],
    [
      'five decimal places',
      (o) => ({ ...o, price: { value: 1.23456 } }),
      'O1',
      'price.value has more than 4 decimal places',
    ],
    [
      'another currency',
      (o) => ({ ...o, price: { value: 10, currency: 'USD' } }),
      'O1',
      'price.currency must be BRL (prices are in Brazilian reais), not "USD"',
    ],
    [
      'a status outside the enum',
      (o) => ({ ...o, status: 'SOLD_OUT' }),
      'O1',
      'status must be AVAILABLE or UNAVAILABLE',
    ],
    ['a negative index', (o) => ({ ...o, index: -1 }), 'O1', 'index must be a whole number from 0'],
    ['an itemId of no item', (o) => ({ ...o, itemId: 'NOPE' }), 'O1', 'itemId "NOPE" matches no item'],
  ])('%s', (_name, change, id, reason) => {
    const m = menu();
    list(m, 'itemOffers')[0] = change(list(m, 'itemOffers')[0]) as Obj;
    const p = plan(m);
    expect(only(p.discarded)).toContainEqual({ kind: 'itemOffers', id, index: 0, reason, path: undefined });
    expect(p.products.map((x) => x.pdvId)).not.toContain('I1');
    expect(p.replace).toBe(false);
  });

  it('a duplicate id, and an offer no listed category reaches', () => {
    const m = menu();
    list(m, 'itemOffers').push({ ...list(m, 'itemOffers')[1] });
    list(m, 'itemOffers').push({
      id: 'O9',
      itemId: 'I3',
      index: 5,
      price: { value: 1, originalValue: 1, currency: 'BRL' },
    });
    expect(only(plan(m).discarded)).toEqual([
      { kind: 'itemOffers', id: 'O2', index: 3, reason: 'duplicate id', path: undefined },
      { kind: 'itemOffers', id: 'O9', index: 4, reason: 'no listed category reaches it', path: undefined },
    ]);
  });

  it('prices are exact decimals (D9); the currency may be left out', () => {
    const m = menu();
    list(m, 'itemOffers')[0].price = { value: 12.3456 };
    list(m, 'itemOffers')[1].price = { value: 1e-4, currency: 'BRL' };
    const p = plan(m);
    expect(p.products.map((x) => x.price)).toEqual(['12.3456', '0.0001', '9.5']);
  });

  it('offer UNAVAILABLE → product UNAVAILABLE', () => {
    const m = menu();
    list(m, 'itemOffers')[2].status = 'UNAVAILABLE';
    expect(plan(m).products.find((x) => x.pdvId === 'I3')?.status).toBe('UNAVAILABLE');
  });

  it('a discount (originalValue ≠ value) keeps the price charged and says so', () => {
    const m = menu();
    list(m, 'itemOffers')[0].price = { value: 79.9, originalValue: 89.9, currency: 'BRL' };
    const r = planOdMerchant(m);
    expect(r.plan.products[0].price).toBe('79.9');
    expect(r.notMapped).toContain(
      'price.originalValue (1 itemOffers with a discount): only price.value, the price charged, is kept',
    );
  });

  it('a second offer of the same item at another price: the first one is kept, said so', () => {
    const m = menu();
    list(m, 'itemOffers').push({
      id: 'O4',
      itemId: 'I1',
      index: 1,
      price: { value: 99, originalValue: 99, currency: 'BRL' },
    });
    list(m, 'categories')[1].itemOfferId = ['O3', 'O4'];
    const r = planOdMerchant(m);
    expect(r.plan.discarded).toEqual([]);
    expect(r.plan.products.find((x) => x.pdvId === 'I1')?.price).toBe('89.9');
    expect(r.plan.links).toContainEqual({ categoryPdvId: 'C2', productPdvId: 'I1', position: 1 });
    expect(r.notMapped).toContain(
      "itemOffers of an item another offer already priced (1, at another price or status): a product has one price; the first offer's is kept",
    );
  });
});

describe('categories: one row per discard reason', () => {
  it.each<[string, (c: Obj) => unknown, string | null, string]>([
    ['not an object', () => null, null, 'not an object'],
    ['no id', (c) => ({ ...c, id: undefined }), null, 'id is missing'],
    ['no name', (c) => ({ ...c, name: '' }), 'C2', 'name is missing'],
    ['a status outside the enum', (c) => ({ ...c, status: 'HIDDEN' }), 'C2', 'status must be AVAILABLE or UNAVAILABLE'],
    ['a fractional index', (c) => ({ ...c, index: 1.5 }), 'C2', 'index must be a whole number from 0'],
    ['itemOfferId not an array', (c) => ({ ...c, itemOfferId: 'O3' }), 'C2', 'itemOfferId must be an array'],
    ['listed by no menu', (c) => ({ ...c, id: 'C9' }), 'C9', 'no menu lists it (menus[].categoryId)'],
  ])('%s', (_name, change, id, reason) => {
    const m = menu();
    list(m, 'categories')[1] = change(list(m, 'categories')[1]) as Obj;
    const p = plan(m);
    // Its offer and item go with it (listed kind by kind: categories, itemOffers, items).
    expect(only(p.discarded)).toEqual([
      { kind: 'categories', id, index: 1, reason, path: undefined },
      { kind: 'itemOffers', id: 'O3', index: 2, reason: 'no listed category reaches it', path: undefined },
      { kind: 'items', id: 'I3', index: 2, reason: 'no itemOffer in a listed category reaches it', path: undefined },
    ]);
    expect(p.categories.map((c) => c.pdvId)).toEqual(['C1']);
  });

  it('a duplicate id', () => {
    const m = menu();
    list(m, 'categories').push({ ...list(m, 'categories')[0] });
    expect(only(plan(m).discarded)).toEqual([
      { kind: 'categories', id: 'C1', index: 2, reason: 'duplicate id', path: undefined },
    ]);
  });

  it('a reference to no itemOffer is reported with its path', () => {
    const m = menu();
    list(m, 'categories')[0].itemOfferId = ['O1', 'NOPE', 'O2'];
    expect(only(plan(m).discarded)).toEqual([
      {
        kind: 'links',
        id: 'C1',
        index: 0,
        reason: '"NOPE" matches no itemOffer',
        path: 'categories[0].itemOfferId[1]',
      },
    ]);
  });

  it('without itemOfferId a category holds every offer (Open Delivery default)', () => {
    const m = menu();
    m.categories = [{ id: 'C1', index: 0, name: 'Tudo', externalCode: 'C1', status: 'UNAVAILABLE' }];
    m.menus = [{ id: 'M1', name: 'Cardápio', externalCode: 'M1', categoryId: ['C1'] }];
    const p = plan(m);
    expect(p.discarded).toEqual([]);
    expect(p.categories).toEqual([{ pdvId: 'C1', name: 'Tudo', index: 0, status: 'UNAVAILABLE' }]);
    // Offers in their ItemOffer.index order, then body order: O1 (0), O3 (0), O2 (1).
    expect(p.links.map((l) => [l.productPdvId, l.position])).toEqual([
      ['I1', 0],
      ['I3', 1],
      ['I2', 2],
    ]);
  });

  it('within a category, offers are ordered by ItemOffer.index, then by their place in itemOfferId', () => {
    const m = menu();
    list(m, 'itemOffers')[0].index = 3;
    const p = plan(m);
    expect(p.links.filter((l) => l.categoryPdvId === 'C1').map((l) => [l.productPdvId, l.position])).toEqual([
      ['I2', 0],
      ['I1', 1],
    ]);
  });

  it('index is taken as given; missing, it is the place in the array', () => {
    const m = menu();
    list(m, 'categories')[0].index = 7;
    list(m, 'categories')[1].index = undefined;
    expect(plan(m).categories.map((c) => c.index)).toEqual([7, 1]);
  });
});

describe('menus', () => {
  it.each<[string, (m: Obj) => void]>([
    ['no menus: every category', (m) => delete m.menus],
    [
      'an empty menus array: every category',
      (m) => {
        m.menus = [];
      },
    ],
    [
      'a menu without categoryId: every category',
      (m) => {
        m.menus = [{ id: 'M1', name: 'Cardápio', externalCode: 'M1' }];
      },
    ],
  ])('%s', (_name, change) => {
    const m = menu();
    list(m, 'categories').push({
      id: 'C3',
      index: 2,
      name: 'Extra',
      externalCode: 'C3',
      status: 'AVAILABLE',
      itemOfferId: [],
    });
    change(m);
    const p = plan(m);
    expect(p.discarded).toEqual([]);
    expect(p.categories.map((c) => c.pdvId)).toEqual(['C1', 'C2', 'C3']);
  });

  it('two menus are merged, and the merge is reported', () => {
    const m = menu();
    m.menus = [
      { id: 'M1', name: 'Entrega', externalCode: 'M1', categoryId: ['C1'] },
      { id: 'M2', name: 'Retirada', externalCode: 'M2', categoryId: ['C2'] },
    ];
    const r = planOdMerchant(m);
    expect(r.plan.discarded).toEqual([]);
    expect(r.plan.categories.map((c) => c.pdvId)).toEqual(['C1', 'C2']);
    expect(r.notMapped).toContain('menus (2): merged into the one catalog of the merchant');
  });

  it('a menu whose categoryId is not an array', () => {
    const m = menu();
    m.menus = [{ id: 'M1', name: 'x', externalCode: 'M1', categoryId: 'C1' }, ...(m.menus as Obj[])];
    expect(only(plan(m).discarded)).toEqual([
      { kind: 'links', id: 'M1', index: 0, reason: 'categoryId must be an array', path: 'menus[0].categoryId' },
    ]);
  });
});

describe('what has no place in the catalog is reported, not failed', () => {
  it('basicInfo, services, availabilities, option groups used by offers, category decorations', () => {
    const m = menu();
    m.services = [{ id: 'S1' }, { id: 'S2' }];
    m.availabilities = [{ id: 'A1', hours: [] }];
    list(m, 'categories')[0].availabilityId = ['A1'];
    list(m, 'categories')[0].image = { URL: 'https://img.example/c.jpg' };
    list(m, 'itemOffers')[0].optionGroupsId = ['G1'];
    m.optionGroups = [
      {
        id: 'G1',
        index: 0,
        name: 'Ponto',
        externalCode: 'G1',
        status: 'AVAILABLE',
        minPermitted: 1,
        maxPermitted: 1,
        options: [{ id: 'P1' }, { id: 'P2' }],
      },
    ];
    const r = planOdMerchant(m);
    expect(r.plan.discarded).toEqual([]);
    expect(r.plan.replace).toBe(true);
    expect(r.notMapped).toEqual([
      "basicInfo: not taken (the merchant's name, document, address and contacts are kept by the platform)",
      'services (2): not taken (service types, hours and delivery areas are kept by the platform)',
      'optionGroups (1, 2 options, used by 1 itemOffers): not held (the catalog has no options; customers cannot choose them yet)',
      'availabilities (1, used by 1 categories and itemOffers): time windows are not held; status AVAILABLE/UNAVAILABLE is',
      'category images and descriptions (1 categories): not held',
    ]);
  });
});

describe('removal rules (spec 4.3) for a whole menu', () => {
  it('no valid category: nothing is removed', () => {
    const m = menu();
    m.categories = [];
    m.menus = [];
    const p = plan(m);
    expect(p.replace).toBe(false);
    expect(p.removalSkipped).toBe('the menu had discarded objects');
    const empty = plan({ ...menu(), categories: [], itemOffers: [], items: [], menus: [] });
    expect(empty.replace).toBe(false);
    expect(empty.removalSkipped).toBe('the menu had no valid category');
  });
});

describe('looksLikeOdMerchant (which body a pull brought)', () => {
  it.each<[unknown, boolean]>([
    [menu(), true],
    [{ id: 'x', items: [] }, true],
    [{ entityType: 'MERCHANT', updatedObjects: [] }, false],
    [{ entityType: 'MERCHANT', items: [] }, false],
    [{ id: 'x' }, false],
    [[], false],
    ['text', false],
  ])('%j → %s', (body, expected) => {
    expect(looksLikeOdMerchant(body)).toBe(expected);
  });
});
