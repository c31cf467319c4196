// The catalog upload body (spec 4.3, D17, D18, D34), written once: the route validates its
// envelope (UploadEnvelope), the planners read each inner object against the same shapes
// (upload-field-check.ts: a malformed object is dropped and reported, never the whole upload),
// the OpenAPI document publishes UploadBody, and a type test holds @cleaver/pos-client's upload
// types to it (test/catalog/upload-client-types.test.ts). Open Delivery's twins (D29) pick the
// fields they share from here.
import { type Static, type TSchema, Type } from 'typebox';

export const MAX_ID = 255;
export const MAX_NAME = 500;
export const MAX_TEXT = 10_000;
export const MAX_URL = 2048;
/** The largest weight limit (kg) a product may declare: what numeric(7, 3) holds. */
export const MAX_KG = 9999.999;
/** A year: a longer lead time is a typo. */
export const MAX_LEAD_TIME_HOURS = 8760;
/** The largest updatedObjects the route accepts (a 400 beyond). */
export const MAX_UPDATED_OBJECTS = 200_000;

export const ENTITY_TYPES = ['MERCHANT', 'ITEM', 'ITEM_OFFER'] as const;

const Availability = (description: string) => Type.Enum(['AVAILABLE', 'UNAVAILABLE'], { type: 'string', description });
/** A POS id; a finite number is taken too (POS systems send them) and kept as its text. */
const PosId = (description: string) => Type.String({ minLength: 1, maxLength: MAX_ID, description });
const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

/** D9: exact to 4 decimal places, never negative. */
export const UploadPrice = Type.Object(
  { value: Type.Number({ description: 'Price in BRL (per kilogram for a KG item).' }) },
  { description: 'The price.' },
);

export const UploadImage = Type.Object(
  { url: Type.String({ format: 'uri', minLength: 1, maxLength: MAX_URL, description: 'Where the picture is.' }) },
  { description: 'The product’s picture.' },
);

/** Kilograms with at most 3 decimals (D42): the limits of an ordered quantity. */
const Kilograms = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: MAX_KG, description: `${description} At most 3 decimals.` });

/**
 * The butcher's fields of a product (D41, D42, D44), read by product-trade-fields.ts. Open
 * Delivery uploads carry them as extra fields of the Item, which other Open Delivery software
 * ignores. Each is updated when given and kept when absent.
 */
export const tradeDetails = {
  scaleCode: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,6}$',
      description:
        'The product’s code on the scale’s labels (1 to 6 digits; leading zeros do not count), for weighing by ' +
        'label (D41). Used for products sold by KG.',
    }),
  ),
  weight: Type.Optional(
    Type.Object(
      {
        min: Kilograms('The least quantity a customer may order (kg).'),
        max: Kilograms('The most a customer may order (kg); at least min.'),
        step: Kilograms('Ordered quantities are min, min + step, min + 2 × step, … (kg).'),
      },
      {
        description:
          'Limits of the ordered quantity of a product sold by KG, in kg with at most 3 decimals (D42); order ' +
          'intake refuses a quantity outside them. A weighed quantity is never held to them.',
      },
    ),
  ),
  leadTimeHours: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: MAX_LEAD_TIME_HOURS,
      description:
        'The least time, in hours (at most 2 decimals), between an order’s intake and the start of its slot ' +
        'when the order is scheduled (D44).',
    }),
  ),
};

/** A product's codes and details, in a MERCHANT upload's items and an ITEM upload alike (D18). */
const itemDetails = {
  externalCode: Type.Optional(Text(MAX_ID, 'The scale code; not used to find products.')),
  ean: Type.Optional(Text(MAX_ID, 'The barcode (informational).')),
  serving: Type.Optional(
    Type.Integer({ description: 'How many people it serves (anything but a whole number is taken as 0).' }),
  ),
  nutritionalInfo: Type.Optional(
    Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'Nutritional information, kept as given.' }),
  ),
  image: Type.Optional(UploadImage),
  ...tradeDetails,
};

export const UploadCategory = Type.Object({
  id: PosId('Stable POS id of the category.'),
  name: Type.String({ minLength: 1, maxLength: MAX_NAME, description: 'The category’s name.' }),
  status: Type.Optional(Availability('Whether the category is shown.')),
  index: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Display position, used only when the category is created.' }),
  ),
  itemOfferId: Type.Optional(Type.Array(Type.String(), { description: 'The offers in this category.' })),
});

export const UploadItemOffer = Type.Object({
  id: PosId('The offer’s id; must appear in some category’s itemOfferId.'),
  itemId: PosId('The item offered; must equal an item id.'),
  price: UploadPrice,
  status: Type.Optional(Availability('UNAVAILABLE hides the product for a while (better than leaving it out).')),
});

export const UploadItem = Type.Object({
  id: PosId('The product’s POS id, kept as its pdv_external_id.'),
  name: Type.String({
    minLength: 1,
    maxLength: MAX_NAME,
    description: 'The name; used only at creation (an existing product keeps its name).',
  }),
  description: Type.Optional(Text(MAX_TEXT, 'The description; used only at creation.')),
  unit: Type.Optional(
    Type.Enum(['KG', 'UN'], {
      type: 'string',
      description: 'Sold by weight or by unit; sets the product type at creation.',
    }),
  ),
  ...itemDetails,
});

export const UploadStore = Type.Object(
  {
    id: PosId('The store’s id in the POS, kept as the merchant’s pdv_external_id.'),
    categories: Type.Optional(
      Type.Array(UploadCategory, { description: 'The categories; one without id or name is dropped and reported.' }),
    ),
    itemOffers: Type.Optional(
      Type.Array(UploadItemOffer, { description: 'Price and availability of each item as offered.' }),
    ),
    items: Type.Optional(
      Type.Array(UploadItem, {
        description: 'The products. They carry no price or availability here (see itemOffers).',
      }),
    ),
  },
  { description: 'The whole store. The chain is category itemOfferId → offer id, offer itemId → item id.' },
);

/** D18: an ITEM entry updates an existing product; name, description and unit are not changed here. */
export const FlatItem = Type.Object(
  { id: PosId('The product’s pdv_external_id.'), ...itemDetails },
  { description: 'An existing product, matched by its POS id; name and description are not changed here.' },
);

/** D18: an ITEM_OFFER entry sets price and/or availability (at least one of them). */
export const FlatItemOffer = Type.Object(
  {
    itemId: PosId('The product’s pdv_external_id.'),
    status: Type.Optional(Availability('Whether it can be ordered.')),
    price: Type.Optional(Type.Object(UploadPrice.properties, { description: 'The new price.' })),
  },
  { description: 'Price and availability of an existing product, matched by itemId.' },
);

/**
 * The envelope the route validates (D34: these four keys and no other). merchantStatus is checked
 * by the handler (required for MERCHANT, accepted and ignored whatever it holds for the others);
 * updatedObjects' entries are read by processing, leniently.
 */
export const UploadEnvelope = Type.Object(
  {
    entityType: Type.Enum([...ENTITY_TYPES]),
    merchantStatus: Type.Optional(Type.Unknown()),
    onlyAddProducts: Type.Optional(Type.Boolean()),
    updatedObjects: Type.Array(Type.Unknown(), { maxItems: MAX_UPDATED_OBJECTS }),
  },
  { additionalProperties: false },
);

type EnvelopeKey = keyof typeof UploadEnvelope.properties;

/** D34: the only top-level keys of PUT and POST /v1/merchantUpdate. */
export const ENVELOPE_KEYS = Object.keys(UploadEnvelope.properties) as EnvelopeKey[];

/** The envelope of one entityType, as published: the route's four keys (and no other), typed. */
function envelopeOf<
  K extends (typeof ENTITY_TYPES)[number],
  P extends Record<Exclude<EnvelopeKey, 'entityType'>, TSchema>,
>(entityType: K, description: string, properties: P) {
  const tag = Type.Literal(entityType, { description: `${entityType}: ${description}` });
  // updatedObjects second: the published `required` lists entityType, updatedObjects, merchantStatus.
  const { updatedObjects, ...rest } = properties;
  return Type.Object({ entityType: tag, updatedObjects, ...rest } as { entityType: typeof tag } & P, {
    description,
    additionalProperties: false,
  });
}

const ignoredStatus = Type.Optional(Availability('Accepted and ignored for this entityType.'));
const ignoredOnlyAddProducts = Type.Optional(
  Type.Boolean({ description: 'Accepted and ignored for this entityType (nothing is removed).' }),
);

export const MerchantUpload = envelopeOf('MERCHANT', 'the whole store, nested', {
  merchantStatus: Availability('Whether the merchant receives orders; required for MERCHANT.'),
  onlyAddProducts: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'true: add and update only. false: category links are replaced by the payload’s and POS-linked records ' +
        'missing from it are removed (never records made by hand; nothing is removed when any object is malformed).',
    }),
  ),
  updatedObjects: Type.Array(UploadStore, { minItems: 1, maxItems: 1, description: 'One store object.' }),
});

export const ItemUpload = envelopeOf('ITEM', 'existing products as a flat list', {
  merchantStatus: ignoredStatus,
  onlyAddProducts: ignoredOnlyAddProducts,
  updatedObjects: Type.Array(FlatItem, { maxItems: MAX_UPDATED_OBJECTS, description: 'Existing products, flat.' }),
});

export const ItemOfferUpload = envelopeOf('ITEM_OFFER', 'price and availability of existing products', {
  merchantStatus: ignoredStatus,
  onlyAddProducts: ignoredOnlyAddProducts,
  updatedObjects: Type.Array(FlatItemOffer, {
    maxItems: MAX_UPDATED_OBJECTS,
    description: 'Prices and availability, flat.',
  }),
});

/** The whole body, one variant per entityType (what the OpenAPI document publishes). */
export const UPLOAD_BODY_VARIANTS = [MerchantUpload, ItemUpload, ItemOfferUpload] as const;

export type MerchantUploadBody = Static<typeof MerchantUpload>;
export type ItemUploadBody = Static<typeof ItemUpload>;
export type ItemOfferUploadBody = Static<typeof ItemOfferUpload>;
export type UploadBody = MerchantUploadBody | ItemUploadBody | ItemOfferUploadBody;
