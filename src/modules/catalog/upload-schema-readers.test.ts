// The planners read every field the upload schema declares, and no field is refused for the whole
// upload (spec 4.3, D17): rows generated from catalog-upload-schema.ts, one per property of each
// inner object. A property given a value of the wrong type drops that object alone, with a reason
// that names the property; a property added to the schema without a reader fails its row.
import type { TObject } from 'typebox';
import { describe, expect, it } from 'vitest';
import { type Discarded, type DiscardKind, planUpload, type UploadEnvelope } from './catalog-upload-plan.js';
import {
  FlatItem,
  FlatItemOffer,
  UploadCategory,
  UploadItem,
  UploadItemOffer,
  UploadStore,
} from './catalog-upload-schema.js';

/** A value no property of its schema's type takes (an object for text, text for the rest). */
function wrongFor(schema: { type?: string; enum?: unknown[] }): unknown {
  if (schema.enum) return 'NOT-AN-ENUM-VALUE';
  return schema.type === 'string' ? { not: 'text' } : 'not-the-type';
}

const store = () => ({
  id: 'LOJA-1',
  categories: [{ id: 'C1', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['O1'] }],
  itemOffers: [{ id: 'O1', itemId: 'P1', price: { value: 10 }, status: 'AVAILABLE' }],
  items: [
    {
      id: 'P1',
      name: 'Picanha',
      description: 'Peça',
      unit: 'KG',
      externalCode: '1',
      ean: '2',
      serving: 2,
      nutritionalInfo: { kcal: 1 },
      image: { url: 'https://i/p1.png' },
    },
  ],
});

const merchant = (root: unknown) =>
  planUpload({ entityType: 'MERCHANT', merchantStatus: 'AVAILABLE', updatedObjects: [root] });

/** The discards of a plan (every plan kind has them). */
const discardsOf = (envelope: UploadEnvelope): Discarded[] => planUpload(envelope).discarded;

/** Rows: each property of `shape`, broken in an otherwise valid object. */
const rows = (shape: TObject) =>
  Object.entries(shape.properties).map(([key, schema]) => [key, wrongFor(schema as never)] as const);

/** The discard that names `key`, of the object's kind. */
const naming = (discarded: Discarded[], kind: DiscardKind, key: string) =>
  discarded.find((d) => d.kind === kind && (d.reason.startsWith(`${key} `) || d.reason.startsWith(`${key}.`)));

describe('MERCHANT: every field of a category, an offer and an item is read', () => {
  const lists = [
    ['categories', UploadCategory],
    ['itemOffers', UploadItemOffer],
    ['items', UploadItem],
  ] as const;
  for (const [kind, shape] of lists) {
    it.each(rows(shape))(`${kind}[0].%s of the wrong type drops the object, naming the field`, (key, wrong) => {
      const root = store();
      const entry = root[kind][0] as Record<string, unknown>;
      entry[key] = wrong;
      const plan = merchant(root);
      expect(plan.fatal).toBeNull();
      if (key === 'serving') {
        // Spec 4.3: a serving that is no whole number is taken as 0, never a reason to drop.
        expect(plan.discarded).toEqual([]);
        return;
      }
      expect(naming(plan.discarded, kind, key), JSON.stringify(plan.discarded)).toBeDefined();
    });
  }

  it.each(rows(UploadStore))('updatedObjects[0].%s of the wrong type is said, never a refusal', (key, wrong) => {
    const plan = merchant({ ...store(), [key]: wrong });
    if (key === 'id') expect(plan.fatal).toBe('updatedObjects[0].id is missing: nothing was processed');
    else expect(plan.discarded.map((d) => d.reason)).toContain(`updatedObjects[0].${key} must be an array`);
  });
});

describe('ITEM and ITEM_OFFER: every field of an entry is read', () => {
  const item = () => ({ id: 'P2', ean: '1', externalCode: '2', serving: 1, nutritionalInfo: {}, image: { url: 'u' } });
  it.each(rows(FlatItem))('ITEM entry .%s of the wrong type drops that entry, naming the field', (key, wrong) => {
    const discarded = discardsOf({
      entityType: 'ITEM',
      updatedObjects: [item(), { ...item(), id: 'P3', [key]: wrong }],
    });
    if (key === 'serving') expect(discarded).toEqual([]);
    else expect(naming(discarded, 'items', key), JSON.stringify(discarded)).toMatchObject({ index: 1 });
  });

  const offer = () => ({ itemId: 'P2', status: 'AVAILABLE', price: { value: 3 } });
  it.each(rows(FlatItemOffer))('ITEM_OFFER entry .%s of the wrong type drops that entry, naming it', (key, wrong) => {
    const discarded = discardsOf({
      entityType: 'ITEM_OFFER',
      updatedObjects: [offer(), { ...offer(), itemId: 'P3', [key]: wrong }],
    });
    expect(naming(discarded, 'itemOffers', key), JSON.stringify(discarded)).toMatchObject({ index: 1 });
  });
});
