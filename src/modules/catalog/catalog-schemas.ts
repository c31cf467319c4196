import { Type } from 'typebox';
import { toNumber } from '../../lib/money.js';
import { DateTime, Status, Uuid } from '../../lib/schemas.js';
import { OD_ENTITY_TYPES } from '../opendelivery/index.js';
import type { CategoryRow, ProductRow } from './catalog-repository.js';
import { UploadEnvelope } from './catalog-upload-schema.js';

/** PUT /v1/merchantUpdate envelope (spec 4.3, D34): the four keys, written in catalog-upload-schema.ts. */
export const MerchantUpdateBody = UploadEnvelope;

export const MerchantStatusQuery = Type.Object({ merchantId: Uuid() });

/** Spec 2.7. */
export const SyncStatus = Type.Object({
  status: Type.Enum(['PROCESSING', 'SUCCESS', 'FAIL']),
  lastRead: DateTime(),
  moreInfo: Type.Union([Type.String(), Type.Null()]),
});

/** Spec 2.4. */
export const RecordCategory = Type.Object({
  id: Uuid(),
  pdv_external_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  index: Type.Integer(),
  status: Status,
  externalCode: Type.String(),
  productsId: Type.Array(Uuid()),
});

/** A cut and its spice (D37), in the merchant record and the operator's product views. */
export const CutView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  spice: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
});

/** The fields every view of a product begins with (spec 2.5); `productView` fills them from a row. */
export const productViewFields = {
  id: Uuid(),
  pdv_external_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  price: Type.Number(),
  unit: Type.Enum(['KG', 'UN']),
  status: Status,
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

/** Spec 2.5. */
export const RecordProduct = Type.Object({
  ...productViewFields,
  stock: Type.Number(),
  externalCode: Type.String(),
  ean: Type.String(),
  sku: Type.String(),
  media: Type.Array(Type.String()),
  cuts: Type.Optional(Type.Array(CutView)),
});

/** Spec 2.3. */
export const MerchantRecordSchema = Type.Object({
  lastUpdate: DateTime(),
  TTL: Type.Integer(),
  id: Uuid(),
  status: Status,
  categories: Type.Array(RecordCategory),
  products: Type.Array(RecordProduct),
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
          categories: KindCountsView,
          products: KindCountsView,
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
  id: Uuid(),
  source: Type.Enum(['UPLOAD', 'PULL', 'NOTIFY']),
  format: Type.Enum(['cleaver', 'opendelivery']),
  entityType: Type.Union([Type.Enum([...OD_ENTITY_TYPES]), Type.Null()], {
    description: 'The entityType of the body, or null for a pull.',
  }),
  status: Type.Enum(['PROCESSING', 'SUCCESS', 'FAIL'], { description: 'PROCESSING, SUCCESS or FAIL.' }),
  moreInfo: Type.Union([Type.String(), Type.Null()]),
  details: Type.Union([SyncDetails, Type.Null()]),
  attempts: Type.Integer({ description: 'How many times processing was started.' }),
  receivedAt: DateTime(),
  startedAt: Type.Union([DateTime(), Type.Null()]),
  finishedAt: Type.Union([DateTime(), Type.Null()]),
});
