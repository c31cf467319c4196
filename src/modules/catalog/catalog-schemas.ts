import { Type } from 'typebox';
import { toNumber } from '../../lib/money.js';
import { DateTime, described, Status, Uuid } from '../../lib/schemas.js';
import { OD_ENTITY_TYPES } from '../opendelivery/index.js';
import type { CategoryRow, ProductRow } from './catalog-repository.js';
import { UploadEnvelope } from './catalog-upload-schema.js';

/** PUT /v1/merchantUpdate envelope (spec 4.3, D34): the four keys, written in catalog-upload-schema.ts. */
/** The pdv_external_id of a category or a product, in every view of it. */
export const PDV_EXTERNAL_ID =
  'The POS’s id of the record, or null for a record made by hand in the panel (never removed by uploads).';

export const MerchantUpdateBody = UploadEnvelope;

export const MerchantStatusQuery = Type.Object({ merchantId: Uuid() });

/** Spec 2.7. */
export const SyncStatus = Type.Object({
  status: Type.Enum(['PROCESSING', 'SUCCESS', 'FAIL'], {
    description: 'PROCESSING until the sync ends, then SUCCESS or FAIL (FAIL can be a partial success).',
  }),
  lastRead: DateTime({ description: 'When the platform last read this status.' }),
  moreInfo: Type.Union([Type.String(), Type.Null()], {
    description:
      'In words: per kind, how many objects were created, updated (a value really changed), unchanged and removed; what was dropped and why (null when there is nothing to add).',
  }),
});

/** Spec 2.4. */
export const RecordCategory = Type.Object({
  id: Uuid({ description: 'The category’s id in the marketplace.' }),
  pdv_external_id: Type.Union([Type.String(), Type.Null()], { description: PDV_EXTERNAL_ID }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  index: Type.Integer({ description: 'Display position (set at creation only).' }),
  status: described(Status, 'AVAILABLE (shown to customers) or UNAVAILABLE (hidden).'),
  externalCode: Type.String({ description: 'The POS’s code (e.g. the scale code); not used to find records.' }),
  productsId: Type.Array(Uuid(), { description: 'The products in this category.' }),
});

/** A cut and its spice (D37), in the merchant record and the operator's product views. */
export const CutView = Type.Object({
  id: Type.String({ description: 'The cut’s id.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  spice: Type.Union(
    [
      Type.Object({
        id: Type.String({ description: 'The record’s unique id.' }),
        name: Type.String({ description: 'Its name as shown to people.' }),
      }),
      Type.Null(),
    ],
    { description: 'The seasoning of the cut, or null.' },
  ),
});

/** The fields every view of a product begins with (spec 2.5); `productView` fills them from a row. */
export const productViewFields = {
  id: Uuid({ description: 'The record’s unique id.' }),
  pdv_external_id: Type.Union([Type.String(), Type.Null()], { description: PDV_EXTERNAL_ID }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  description: Type.String({ description: 'What it is, in a sentence.' }),
  price: Type.Number({ description: 'The price in BRL.' }),
  unit: Type.Enum(['KG', 'UN'], {
    description: 'KG (sold by weight; quantities may be fractional) or UN (by the unit).',
  }),
  status: described(Status, 'Its current status.'),
};

/** A category as the catalog record (spec 2.5) and the operator API show it. */
export function categoryView(c: CategoryRow) {
  return {
    id: c.id,
    pdv_external_id: c.pdv_external_id,
    name: c.name,
    index: c.index,
    status: c.status,
    externalCode: c.external_code,
  };
}

export function productView(p: ProductRow) {
  return {
    id: p.id,
    pdv_external_id: p.pdv_external_id,
    name: p.name,
    description: p.description,
    price: toNumber(p.price),
    unit: p.unit,
    status: p.status,
  };
}

/** D43: one product's availability, as the availability routes, GET /v1/merchant and the feed show it. */
export const ItemAvailabilityView = Type.Object({
  productId: Uuid({ description: 'The product.' }),
  pdvId: Type.Union([Type.String(), Type.Null()], { description: PDV_EXTERNAL_ID }),
  available: Type.Boolean({
    description:
      'Whether it can be ordered now: the catalog says AVAILABLE, no pause holds it, stock above its minimum.',
  }),
  reason: Type.Union([Type.Enum(['OUT_OF_STOCK', 'QUALITY', 'NOT_TODAY', 'OTHER']), Type.Null()], {
    description:
      'Why it is unavailable: the pause’s reason, or OUT_OF_STOCK when counted stock is at or below its minimum ' +
      '(weight.min for KG, 0 for UN); null when available or when the catalog itself says UNAVAILABLE.',
  }),
  until: Type.Union([DateTime(), Type.Null()], { description: 'When the pause ends by itself; null otherwise.' }),
  stock: Type.Union(
    [Type.Object({ quantity: Type.Number({ description: 'Kilograms for KG, units for UN.' }) }), Type.Null()],
    {
      description: 'Counted stock; null when not counted.',
    },
  ),
});
/** The butcher's fields of a product (D41, D42, D44), each left out when the POS never gave it. */
export const tradeViewFields = {
  scaleCode: Type.Optional(Type.String({ description: 'The product’s code on the scale’s labels (D41).' })),
  weight: Type.Optional(
    Type.Object(
      {
        min: Type.Number({ description: 'The least quantity a customer may order (kg).' }),
        max: Type.Number({ description: 'The most a customer may order (kg).' }),
        step: Type.Number({ description: 'Ordered quantities are min + a whole number of steps (kg).' }),
      },
      { description: 'Limits of the ordered quantity of a product sold by KG (D42).' },
    ),
  ),
  leadTimeHours: Type.Optional(
    Type.Number({ description: 'The least hours between intake and a scheduled order’s slot (D44).' }),
  ),
};

/** The trade fields of a stored product, each only when set. */
export function tradeView(p: ProductRow) {
  return {
    ...(p.scale_code !== null ? { scaleCode: p.scale_code } : {}),
    ...(p.weight_min !== null && p.weight_max !== null && p.weight_step !== null
      ? { weight: { min: toNumber(p.weight_min), max: toNumber(p.weight_max), step: toNumber(p.weight_step) } }
      : {}),
    ...(p.lead_time_hours !== null ? { leadTimeHours: toNumber(p.lead_time_hours) } : {}),
  };
}

/** Spec 2.5. */
export const RecordProduct = Type.Object({
  ...productViewFields,
  id: described(productViewFields.id, 'The product’s id in the marketplace.'),
  description: described(productViewFields.description, 'The product’s description as shown to customers.'),
  status: described(productViewFields.status, 'AVAILABLE (can be ordered) or UNAVAILABLE (hidden for now).'),
  stock: Type.Number({ description: 'Units or kilograms in stock.' }),
  externalCode: Type.String({ description: 'The POS’s code (e.g. the scale code); not used to find records.' }),
  ean: Type.String({ description: 'The barcode (informational).' }),
  sku: Type.String({ description: 'The stock keeping unit.' }),
  media: Type.Array(Type.String(), { description: 'Image URLs.' }),
  cuts: Type.Optional(Type.Array(CutView, { description: 'The cuts the butcher offers for this product.' })),
  availability: Type.Optional(
    described(ItemAvailabilityView, 'D43: present when the product is paused or its stock is counted.'),
  ),
  ...tradeViewFields,
});

/** Spec 2.3. */
export const MerchantRecordSchema = Type.Object({
  lastUpdate: DateTime({ description: 'When the catalog last changed.' }),
  TTL: Type.Integer({ description: 'Seconds the record may be cached.' }),
  id: Uuid({ description: 'The record’s unique id.' }),
  status: described(Status, 'Whether the merchant receives orders: AVAILABLE or UNAVAILABLE.'),
  categories: Type.Array(RecordCategory, { description: 'The merchant’s categories, in display order.' }),
  products: Type.Array(RecordProduct, { description: 'The merchant’s products.' }),
  pause: Type.Optional(
    Type.Union(
      [
        Type.Object({
          reason: Type.String({ description: 'Why the store is paused.' }),
          until: DateTime({ description: 'When it opens again by itself.' }),
        }),
        Type.Null(),
      ],
      { description: 'D43: the store’s timed pause while it holds (status is then UNAVAILABLE); null otherwise.' },
    ),
  ),
});

/** What a finished sync did to one kind of object (D17): matched objects are updated or unchanged. */
const KindCountsView = Type.Object({
  created: Type.Integer({ description: 'Objects the sync created.' }),
  updated: Type.Integer({ description: 'Objects it matched whose stored values really changed.' }),
  unchanged: Type.Optional(
    Type.Integer({
      description:
        'Objects it matched and left as they were (an identical re-push is all unchanged). Absent from syncs ' +
        'recorded before it was counted, whose `updated` counts every matched object.',
    }),
  ),
  removed: Type.Integer({ description: 'POS-linked objects it removed (spec 4.3 removal rules).' }),
});

/** The structured counterpart of moreInfo (D17); null while PROCESSING. */
const SyncDetails = Type.Object(
  {
    counts: Type.Optional(
      Type.Object(
        {
          categories: described(KindCountsView, 'The merchant’s categories, in display order.'),
          products: described(KindCountsView, 'The merchant’s products.'),
          discarded: Type.Record(Type.String(), Type.Integer(), {
            description: 'Discarded objects per kind (updatedObjects, categories, itemOffers, items, links).',
          }),
        },
        { description: 'Per kind: created, updated, unchanged and removed; discarded objects per kind.' },
      ),
    ),
  },
  { additionalProperties: true },
);

/**
 * operator-api.md#catalog catalogSyncs: status, moreInfo, structured details, times. `source` NOTIFY and
 * `format` opendelivery are Open Delivery's notification and bodies (D29); so are the entityTypes
 * beyond MERCHANT, ITEM and ITEM_OFFER.
 */
export const SyncView = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  source: Type.Enum(['UPLOAD', 'PULL', 'NOTIFY'], {
    description:
      'UPLOAD (PUT /v1/merchantUpdate), PULL (the platform fetched it) or NOTIFY (an Open Delivery notification).',
  }),
  format: Type.Enum(['cleaver', 'opendelivery'], { description: 'The dialect of the body: cleaver or opendelivery.' }),
  entityType: Type.Union([Type.Enum([...OD_ENTITY_TYPES]), Type.Null()], {
    description: 'The entityType of the body, or null for a pull.',
  }),
  status: Type.Enum(['PROCESSING', 'SUCCESS', 'FAIL'], { description: 'PROCESSING, SUCCESS or FAIL.' }),
  moreInfo: Type.Union([Type.String(), Type.Null()], {
    description:
      'In words: per kind, how many objects were created, updated (a value really changed), unchanged and removed; what was dropped and why (null when there is nothing to add).',
  }),
  details: Type.Union([SyncDetails, Type.Null()], {
    description: 'Structured details: what was dropped and why, counts.',
  }),
  attempts: Type.Integer({ description: 'How many times processing was started.' }),
  receivedAt: DateTime({ description: 'When it was received.' }),
  startedAt: Type.Union([DateTime(), Type.Null()], { description: 'When processing started, or null.' }),
  finishedAt: Type.Union([DateTime(), Type.Null()], { description: 'When processing ended, or null.' }),
});

/** D43: POST /v1/merchant/availability and the operator's twin. */
export const AvailabilityBody = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        productId: Type.Optional(Uuid({ description: 'The product’s id in the marketplace.' })),
        pdvId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: PDV_EXTERNAL_ID })),
        available: Type.Boolean({ description: 'false pauses the product; true resumes it (and ends any pause).' }),
        reason: Type.Optional(
          Type.Enum(['OUT_OF_STOCK', 'QUALITY', 'NOT_TODAY', 'OTHER'], {
            description: 'Why it is paused (available: false only; default OTHER).',
          }),
        ),
        until: Type.Optional(
          DateTime({ description: 'When the pause ends by itself (available: false only); absent: until resumed.' }),
        ),
        stock: Type.Optional(
          Type.Object(
            {
              quantity: Type.Number({
                minimum: 0,
                description: 'Kilograms (up to 3 decimals) for a KG product, whole units for a UN product.',
              }),
            },
            { description: 'The counted stock from now on; confirmed orders take from it.' },
          ),
        ),
      }),
      { minItems: 1, maxItems: 100, description: 'At most 100 products, each named by productId or pdvId.' },
    ),
  },
  {
    examples: [
      {
        items: [
          {
            productId: '5b7e2f1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
            available: false,
            reason: 'NOT_TODAY',
            until: '2031-12-24T06:00:00.000Z',
            stock: { quantity: 12.5 },
          },
        ],
      },
    ],
  },
);

export const AvailabilityAnswer = Type.Object({
  items: Type.Array(ItemAvailabilityView, { description: 'Each product as it is now, in the order asked.' }),
});
