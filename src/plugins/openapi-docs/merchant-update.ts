// The catalog upload body (spec 4.3) as documentation, one variant per entityType, generated from
// the shapes the route and processing use (modules/catalog/catalog-upload-schema.ts). Validation
// checks only the envelope: processing reads the inner objects and drops and reports malformed
// ones rather than refusing the whole upload, so the inner typing tells readers and client
// generators what is kept, not what is refused with a 400.
import { UPLOAD_BODY_VARIANTS } from '../../modules/catalog/index.js';

type Json = Record<string, unknown>;

// The ids are the sample catalog's (cli/sample-catalog.ts, `cleaver sandbox sample-catalog`), so
// each example applies to a newcomer's sandbox as it is, and the order intake example finds its
// product there.
const merchantExample = {
  entityType: 'MERCHANT',
  merchantStatus: 'AVAILABLE',
  onlyAddProducts: false,
  updatedObjects: [
    {
      id: 'loja-centro',
      categories: [
        {
          id: 'bovinos',
          name: 'Bovinos',
          index: 0,
          status: 'AVAILABLE',
          itemOfferId: ['oferta-picanha', 'oferta-fraldinha'],
        },
      ],
      itemOffers: [
        { id: 'oferta-picanha', itemId: 'picanha', price: { value: 89.9 }, status: 'AVAILABLE' },
        { id: 'oferta-fraldinha', itemId: 'fraldinha', price: { value: 54.9 }, status: 'AVAILABLE' },
      ],
      items: [
        { id: 'picanha', name: 'Picanha', description: 'Peça inteira', externalCode: '2001', unit: 'KG' },
        { id: 'fraldinha', name: 'Fraldinha', description: 'Fraldinha bovina para churrasco', unit: 'KG' },
      ],
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
      value: { entityType: 'ITEM', updatedObjects: [{ id: 'picanha', ean: '7891234567895', serving: 4 }] },
    },
    ITEM_OFFER: {
      summary: 'A price change and a product hidden',
      value: {
        entityType: 'ITEM_OFFER',
        updatedObjects: [
          { itemId: 'picanha', status: 'AVAILABLE', price: { value: 94.9 } },
          { itemId: 'fraldinha', status: 'UNAVAILABLE' },
        ],
      },
    },
  },
};
