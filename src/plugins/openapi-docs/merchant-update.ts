// The catalog upload body (spec 4.3) as documentation, one variant per entityType. Validation
// checks only the envelope (catalog-schemas.ts): processing reads the inner objects and drops
// and reports malformed ones rather than refusing the whole upload, so this typing is for
// readers and client generators, not enforced beyond what the spec requires.

type Json = Record<string, unknown>;

const str = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
const status = (description: string): Json => ({ type: 'string', enum: ['AVAILABLE', 'UNAVAILABLE'], description });

const envelope = (entityType: string, objects: Json, description: string, extra: Json = {}): Json => ({
  type: 'object',
  description,
  // D34: the four keys and no other; an unknown one is a 400 naming it.
  additionalProperties: false,
  required: ['entityType', 'updatedObjects', ...(entityType === 'MERCHANT' ? ['merchantStatus'] : [])],
  properties: {
    entityType: { type: 'string', const: entityType, description: `${entityType}: ${description}` },
    merchantStatus: status(
      entityType === 'MERCHANT'
        ? 'Whether the merchant receives orders; required for MERCHANT.'
        : 'Accepted and ignored for this entityType.',
    ),
    ...extra,
    updatedObjects: objects,
  },
});

/** A product's details, in a MERCHANT upload's items and an ITEM upload alike. */
const PRODUCT_DETAILS: Json = {
  serving: { type: 'integer', description: 'How many people it serves.' },
  nutritionalInfo: { type: 'object', description: 'Nutritional information, kept as given.' },
  image: {
    type: 'object',
    description: 'The product’s picture.',
    properties: { url: str('Where the picture is.', { format: 'uri' }) },
  },
};

const MERCHANT_STORE: Json = {
  type: 'object',
  description: 'The whole store. The chain is category itemOfferId → offer id, offer itemId → item id.',
  required: ['id'],
  properties: {
    id: str('The store’s id in the POS, kept as the merchant’s pdv_external_id.'),
    categories: {
      type: 'array',
      description: 'The categories; one without id or name is dropped and reported.',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: str('Stable POS id of the category.'),
          name: str('The category’s name.'),
          index: { type: 'integer', description: 'Display position, used only when the category is created.' },
          status: status('Whether the category is shown.'),
          itemOfferId: { type: 'array', items: { type: 'string' }, description: 'The offers in this category.' },
        },
      },
    },
    itemOffers: {
      type: 'array',
      description: 'Price and availability of each item as offered.',
      items: {
        type: 'object',
        required: ['id', 'itemId', 'price'],
        properties: {
          id: str('The offer’s id; must appear in some category’s itemOfferId.'),
          itemId: str('The item offered; must equal an item id.'),
          price: {
            type: 'object',
            description: 'The price.',
            required: ['value'],
            properties: { value: { type: 'number', description: 'Price in BRL (per kilogram for a KG item).' } },
          },
          status: status('UNAVAILABLE hides the product for a while (better than leaving it out).'),
        },
      },
    },
    items: {
      type: 'array',
      description: 'The products. They carry no price or availability here (see itemOffers).',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: str('The product’s POS id, kept as its pdv_external_id.'),
          name: str('The name; used only at creation (an existing product keeps its name).'),
          description: str('The description; used only at creation.'),
          externalCode: str('The scale code; not used to find products.'),
          ean: str('The barcode (informational).'),
          unit: {
            type: 'string',
            enum: ['KG', 'UN'],
            description: 'Sold by weight or by unit; sets the product type at creation.',
          },
          ...PRODUCT_DETAILS,
        },
      },
    },
  },
};

const ITEM: Json = {
  type: 'object',
  description: 'An existing product, matched by its POS id; name and description are not changed here.',
  required: ['id'],
  properties: {
    id: str('The product’s pdv_external_id.'),
    externalCode: str('The scale code.'),
    ean: str('The barcode.'),
    ...PRODUCT_DETAILS,
  },
};

const ITEM_OFFER: Json = {
  type: 'object',
  description: 'Price and availability of an existing product, matched by itemId.',
  required: ['itemId', 'status'],
  properties: {
    itemId: str('The product’s pdv_external_id.'),
    status: status('Whether it can be ordered.'),
    price: {
      type: 'object',
      description: 'The new price.',
      properties: { value: { type: 'number', description: 'Price in BRL.' } },
    },
  },
};

const onlyAddProducts: Json = {
  onlyAddProducts: {
    type: 'boolean',
    default: false,
    description:
      'true: add and update only. false: category links are replaced by the payload’s and POS-linked records missing ' +
      'from it are removed (never records made by hand; nothing is removed when any object is malformed).',
  },
};

const ignoredOnlyAddProducts: Json = {
  onlyAddProducts: { type: 'boolean', description: 'Accepted and ignored for this entityType (nothing is removed).' },
};

const merchantExample = {
  entityType: 'MERCHANT',
  merchantStatus: 'AVAILABLE',
  onlyAddProducts: false,
  updatedObjects: [
    {
      id: 'LOJA-1',
      categories: [{ id: 'CAT-BOV', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['OF-PICANHA'] }],
      itemOffers: [{ id: 'OF-PICANHA', itemId: 'PICANHA', price: { value: 89.9 }, status: 'AVAILABLE' }],
      items: [{ id: 'PICANHA', name: 'Picanha', description: 'Peça inteira', externalCode: '2001', unit: 'KG' }],
    },
  ],
};

export const MERCHANT_UPDATE_BODY: Json = {
  schema: {
    oneOf: [
      envelope(
        'MERCHANT',
        { type: 'array', minItems: 1, maxItems: 1, items: MERCHANT_STORE, description: 'One store object.' },
        'the whole store, nested',
        onlyAddProducts,
      ),
      envelope(
        'ITEM',
        { type: 'array', items: ITEM, description: 'Existing products, flat.' },
        'existing products as a flat list',
        ignoredOnlyAddProducts,
      ),
      envelope(
        'ITEM_OFFER',
        { type: 'array', items: ITEM_OFFER, description: 'Prices and availability, flat.' },
        'price and availability of existing products',
        ignoredOnlyAddProducts,
      ),
    ],
  },
  examples: {
    MERCHANT: { summary: 'The whole store', value: merchantExample },
    ITEM: {
      summary: 'Existing products',
      value: { entityType: 'ITEM', updatedObjects: [{ id: 'PICANHA', ean: '7891234567895', serving: 4 }] },
    },
    ITEM_OFFER: {
      summary: 'A price change and a product hidden',
      value: {
        entityType: 'ITEM_OFFER',
        updatedObjects: [
          { itemId: 'PICANHA', status: 'AVAILABLE', price: { value: 94.9 } },
          { itemId: 'FRALDINHA', status: 'UNAVAILABLE' },
        ],
      },
    },
  },
};
