// Property: for random catalogs and random second uploads, the merchant record read through
// GET /v1/merchant (and the status of GET /v1/merchantStatus) equals what a small reference model
// of spec 4.3 predicts. The model is written independently of the processing code.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { merchantRecord, sync } from '../support/catalog.js';
import { generatedRuns } from '../support/generated-inputs.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

/** Pairs of uploads compared with the model: 40 at full depth; enough in CI for both outcomes. */
const RUNS = generatedRuns(40, 24);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      CLEAVER_RATE_LIMIT_AUTH: '1000000',
      CLEAVER_RATE_LIMIT_READ: '1000000',
      CLEAVER_RATE_LIMIT_WRITE: '1000000',
    },
  });
});
afterAll(() => t.close());

type Status = 'AVAILABLE' | 'UNAVAILABLE';
interface UpCategory {
  id: string;
  name?: string;
  index?: number;
  status: Status;
  itemOfferId: string[];
}
interface UpOffer {
  id: string;
  itemId: string;
  price?: { value: number };
  status: Status;
}
interface UpItem {
  id: string;
  name?: string;
  description: string;
  unit: 'KG' | 'UN';
  ean?: string;
}
interface Upload {
  merchantStatus: Status;
  onlyAddProducts: boolean;
  categories: UpCategory[];
  itemOffers: UpOffer[];
  items: UpItem[];
}

const CAT_IDS = ['C0', 'C1', 'C2', 'C3'];
const OFFER_IDS = ['O0', 'O1', 'O2', 'O3', 'O4', 'O5', 'O6'];
const ITEM_IDS = ['P0', 'P1', 'P2', 'P3', 'P4', 'P5'];
const status = fc.constantFrom<Status>('AVAILABLE', 'UNAVAILABLE');

const arbUpload: fc.Arbitrary<Upload> = fc.record({
  merchantStatus: status,
  onlyAddProducts: fc.boolean(),
  categories: fc.uniqueArray(
    fc.record(
      {
        id: fc.constantFrom(...CAT_IDS),
        // mostly named; sometimes missing (malformed)
        name: fc.option(fc.constantFrom('Bovinos', 'Suínos', 'Aves'), { freq: 6, nil: undefined }),
        index: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
        status,
        itemOfferId: fc.uniqueArray(fc.constantFrom(...OFFER_IDS, 'GHOST'), { maxLength: 4 }),
      },
      { requiredKeys: ['id', 'status', 'itemOfferId'] },
    ),
    { selector: (c) => c.id, maxLength: 4 },
  ),
  itemOffers: fc.uniqueArray(
    fc.record(
      {
        id: fc.constantFrom(...OFFER_IDS),
        itemId: fc.constantFrom(...ITEM_IDS),
        price: fc.option(fc.record({ value: fc.constantFrom(1, 2.5, 10.25, 89.9) }), { freq: 6, nil: undefined }),
        status,
      },
      { requiredKeys: ['id', 'itemId', 'status'] },
    ),
    { selector: (o) => o.id, maxLength: 7 },
  ),
  items: fc.uniqueArray(
    fc.record(
      {
        id: fc.constantFrom(...ITEM_IDS),
        name: fc.option(fc.constantFrom('Picanha', 'Alcatra', 'Fraldinha'), { freq: 6, nil: undefined }),
        description: fc.constantFrom('', 'Peça', 'Bandeja'),
        unit: fc.constantFrom<'KG' | 'UN'>('KG', 'UN'),
        ean: fc.option(fc.constantFrom('789', '790'), { nil: undefined }),
      },
      { requiredKeys: ['id', 'description', 'unit'] },
    ),
    { selector: (i) => i.id, maxLength: 6 },
  ),
});

/** A consistent catalog (every chain complete), so clean syncs with removal are common too. */
const arbCleanUpload: fc.Arbitrary<Upload> = fc
  .record({
    merchantStatus: status,
    onlyAddProducts: fc.boolean(),
    picks: fc.uniqueArray(
      fc.record({
        item: fc.constantFrom(...ITEM_IDS),
        category: fc.constantFrom(...CAT_IDS),
        price: fc.constantFrom(3, 4.75, 12),
        status,
        name: fc.constantFrom('Cupim', 'Maminha'),
      }),
      { selector: (p) => p.item, minLength: 1, maxLength: 5 },
    ),
  })
  .map(({ merchantStatus, onlyAddProducts, picks }) => {
    const categoryIds = [...new Set(picks.map((p) => p.category))];
    return {
      merchantStatus,
      onlyAddProducts,
      categories: categoryIds.map((id) => ({
        id,
        name: `Categoria ${id}`,
        status: 'AVAILABLE' as Status,
        itemOfferId: picks.filter((p) => p.category === id).map((p) => `O-${p.item}`),
      })),
      itemOffers: picks.map((p) => ({
        id: `O-${p.item}`,
        itemId: p.item,
        price: { value: p.price },
        status: p.status,
      })),
      items: picks.map((p) => ({ id: p.item, name: p.name, description: '', unit: 'KG' as const })),
    };
  });

const arbAnyUpload = fc.oneof(arbUpload, arbCleanUpload);

interface ModelCategory {
  name: string;
  index: number;
  status: Status;
  products: Set<string>;
}
interface ModelProduct {
  name: string;
  description: string;
  unit: string;
  price: number;
  status: Status;
  ean: string;
}
interface Model {
  status: Status;
  categories: Map<string, ModelCategory>;
  products: Map<string, ModelProduct>;
}

/** Spec 4.3 as a reference model; returns the expected sync status. */
function applyModel(m: Model, u: Upload): 'SUCCESS' | 'FAIL' {
  const items = new Map(u.items.filter((i) => i.name).map((i) => [i.id, i]));
  const offerIds = new Set(u.itemOffers.map((o) => o.id));
  const offers = new Map(u.itemOffers.filter((o) => o.price && items.has(o.itemId)).map((o) => [o.id, o]));
  const cats = u.categories.filter((c) => c.name);
  let discarded =
    u.items.length - items.size + (u.itemOffers.length - offers.size) + (u.categories.length - cats.length);

  const reached = new Set<string>();
  const links = new Map<string, Set<string>>();
  for (const c of cats) {
    const set = new Set<string>();
    for (const ref of c.itemOfferId) {
      const offer = offers.get(ref);
      if (offer) {
        reached.add(ref);
        set.add(offer.itemId);
      } else if (!offerIds.has(ref)) discarded += 1; // a reference to nothing
    }
    links.set(c.id, set);
  }
  const priced = new Map<string, UpOffer>();
  for (const o of u.itemOffers) {
    if (!offers.has(o.id)) continue;
    if (!reached.has(o.id)) {
      discarded += 1;
      continue;
    }
    if (!priced.has(o.itemId)) priced.set(o.itemId, o);
  }
  for (const id of items.keys()) if (!priced.has(id)) discarded += 1;

  m.status = u.merchantStatus;
  // Without index, a new category takes its position in the upload's categories array.
  u.categories.forEach((c, position) => {
    if (!c.name) return;
    const existing = m.categories.get(c.id);
    if (existing) {
      existing.name = c.name as string;
      existing.status = c.status;
    } else {
      m.categories.set(c.id, {
        name: c.name as string,
        index: c.index ?? position,
        status: c.status,
        products: new Set(),
      });
    }
  });
  for (const [itemId, offer] of priced) {
    const item = items.get(itemId) as UpItem;
    const existing = m.products.get(itemId);
    if (existing) {
      existing.price = offer.price?.value as number;
      existing.status = offer.status;
      if (item.ean !== undefined) existing.ean = item.ean;
    } else {
      m.products.set(itemId, {
        name: item.name as string,
        description: item.description,
        unit: item.unit,
        price: offer.price?.value as number,
        status: offer.status,
        ean: item.ean ?? '',
      });
    }
  }
  const replace = !u.onlyAddProducts && discarded === 0 && cats.length > 0;
  for (const [catId, set] of links) {
    const c = m.categories.get(catId) as ModelCategory;
    if (replace) c.products = new Set(set);
    else for (const p of set) c.products.add(p);
  }
  if (replace) {
    for (const id of [...m.categories.keys()]) if (!links.has(id)) m.categories.delete(id);
    for (const id of [...m.products.keys()]) if (!priced.has(id)) m.products.delete(id);
    for (const c of m.categories.values()) for (const p of c.products) if (!m.products.has(p)) c.products.delete(p);
  }
  return discarded === 0 ? 'SUCCESS' : 'FAIL';
}

function body(u: Upload) {
  return {
    entityType: 'MERCHANT',
    merchantStatus: u.merchantStatus,
    onlyAddProducts: u.onlyAddProducts,
    updatedObjects: [{ id: 'STORE', categories: u.categories, itemOffers: u.itemOffers, items: u.items }],
  };
}

function observed(r: Awaited<ReturnType<typeof merchantRecord>>) {
  const pdvOf = new Map(r.products.map((p) => [p.id, p.pdv_external_id]));
  return {
    status: r.status,
    categories: Object.fromEntries(
      r.categories.map((c) => [
        c.pdv_external_id,
        { name: c.name, index: c.index, status: c.status, products: c.productsId.map((id) => pdvOf.get(id)).sort() },
      ]),
    ),
    products: Object.fromEntries(
      r.products.map((p) => [
        p.pdv_external_id,
        { name: p.name, description: p.description, unit: p.unit, price: p.price, status: p.status, ean: p.ean },
      ]),
    ),
  };
}

function expected(m: Model) {
  return {
    status: m.status,
    categories: Object.fromEntries(
      [...m.categories].map(([id, c]) => [
        id,
        { name: c.name, index: c.index, status: c.status, products: [...c.products].sort() },
      ]),
    ),
    products: Object.fromEntries([...m.products]),
  };
}

it('the merchant record after two uploads matches the reference model of spec 4.3', async () => {
  const outcomes = { SUCCESS: 0, FAIL: 0 };
  await fc.assert(
    fc.asyncProperty(arbAnyUpload, arbAnyUpload, async (first, second) => {
      const me = await createMerchant(t.app);
      const model: Model = { status: 'AVAILABLE', categories: new Map(), products: new Map() };
      for (const u of [first, second]) {
        const want = applyModel(model, u);
        outcomes[want] += 1;
        const got = await sync(t, me, body(u));
        expect(got.status, got.moreInfo ?? '').toBe(want);
        expect(observed(await merchantRecord(t, me))).toEqual(expected(model));
      }
    }),
    { numRuns: RUNS },
  );
  // The generators must exercise both outcomes (and so both the add-only and the replace paths).
  expect(outcomes.SUCCESS).toBeGreaterThan(5);
  expect(outcomes.FAIL).toBeGreaterThan(5);
});
