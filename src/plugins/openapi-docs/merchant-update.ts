// The catalog upload body (spec 4.3) as documentation, one variant per entityType, generated from
// the shapes the route and processing use (modules/catalog/catalog-upload-schema.ts). Validation
// checks only the envelope: processing reads the inner objects and drops and reports malformed
// ones rather than refusing the whole upload, so the inner typing tells readers and client
// generators what is kept, not what is refused with a 400.
import { UPLOAD_BODY_VARIANTS } from '../../modules/catalog/index.js';

type Json = Record<string, unknown>;

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
  // A copy: the document is completed in place, the route's schemas must stay as they are.
  schema: { oneOf: UPLOAD_BODY_VARIANTS.map((variant) => JSON.parse(JSON.stringify(variant)) as Json) },
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
