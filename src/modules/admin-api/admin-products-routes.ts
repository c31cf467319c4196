// The merchant's product list (operator-api.md#lists): what a storefront reads once to follow a
// catalog, then keeps in step with the feed's `catalog` items (docs/platform-feed.md, "Following
// a merchant's catalog"). Registered by admin-catalog-routes.ts, inside the operator scope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PAGED_LIST, sendPage } from '../../lib/pagination.js';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { type CatalogService, CutView, ItemAvailabilityView, productViewFields } from '../catalog/index.js';
import type { MerchantsService } from '../merchants/index.js';
import { ListQuery, MerchantIdParams } from './admin-schemas.js';

/** A product of the list: its fields, its cuts and its availability (more fields join it as the catalog grows). */
export const ListedProduct = Type.Object({
  ...productViewFields,
  externalCode: Type.String({ description: 'The POS’s code (e.g. the scale code); not used to find records.' }),
  cuts: Type.Array(CutView, { description: 'The cuts the butcher offers for this product, in the order added.' }),
  availability: Type.Object(ItemAvailabilityView.properties, {
    description:
      'D43: whether it can be ordered now, the pause that holds it and its counted stock (null when not counted).',
  }),
});

const routes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService; catalog: CatalogService }> = async (
  app,
  { merchants, catalog },
) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/products',
      access: READ_WITH_PLATFORM,
      summary: "The merchant's products with their cuts, availability and stock, by name, a page at a time",
      description:
        'Every product of the merchant, POS-linked or made by hand, ordered by name, each with its cuts and ' +
        'its availability (D43: pause, reason, until, counted stock). ' +
        `${PAGED_LIST} \`q\` matches part of the name (any case), or exactly the POS id or the external code. ` +
        'To follow the catalog, read it once and then the feed’s `catalog` items from that moment ' +
        '(docs/platform-feed.md). Errors: 400 naming the parameter; 404 for the merchant.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(ListedProduct), ...errorResponses(400, 401, 404) },
      },
      handler: async (request, reply) => {
        const { merchantId } = request.params;
        await merchants.requireMerchant(merchantId);
        const products = await catalog.listProducts(merchantId, {
          q: request.query.q,
          cursor: request.query.cursor,
          limit: request.query.limit ?? 100,
        });
        // D43: only paused or counted products have a row; the rest are as their catalog status says.
        const availability = await catalog.availability.listForMerchant(merchantId);
        const items = products.items.map((p) => ({
          ...p,
          availability: availability.get(p.id) ?? {
            productId: p.id,
            pdvId: p.pdv_external_id,
            available: p.status === 'AVAILABLE',
            reason: null,
            until: null,
            stock: null,
          },
        }));
        return sendPage(request, reply, { items, next: products.next });
      },
    }),
  );
};

export async function registerProductListRoutes(
  app: FastifyInstance,
  deps: { merchants: MerchantsService; catalog: CatalogService },
): Promise<void> {
  await app.register(routes, deps);
}
