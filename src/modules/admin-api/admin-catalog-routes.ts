import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TSchema, Type } from 'typebox';
import { sendPage } from '../../lib/pagination.js';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import { described, errorResponses, Status, Uuid } from '../../lib/schemas.js';
import {
  type CatalogService,
  categoryView,
  PDV_EXTERNAL_ID,
  productView,
  productViewFields,
  SyncView,
} from '../catalog/index.js';
import type { MerchantsService } from '../merchants/index.js';
import { registerCutRoutes } from './admin-cuts-routes.js';
import { registerProductListRoutes } from './admin-products-routes.js';
import {
  createByPath,
  HandMadeCategoryBody,
  HandMadeProductBody,
  ListQuery,
  MerchantIdParams,
} from './admin-schemas.js';

const HandMadeCategory = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  pdv_external_id: Type.Null({ description: PDV_EXTERNAL_ID }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  index: Type.Integer({ description: 'Display position (set at creation only).' }),
  status: described(Status, 'Its current status.'),
  externalCode: Type.String({ description: 'The POS’s code (e.g. the scale code); not used to find records.' }),
});

const HandMadeProduct = Type.Object({
  ...productViewFields,
  pdv_external_id: Type.Null({ description: PDV_EXTERNAL_ID }),
  externalCode: Type.String({ description: 'The POS’s code (e.g. the scale code); not used to find records.' }),
});

export const adminCatalogRoutes: FastifyPluginAsyncTypebox<{
  merchants: MerchantsService;
  catalog: CatalogService;
}> = async (app, { merchants, catalog }) => {
  /**
   * A category or product made in the panel, not linked to the POS (so a catalog upload never
   * removes it): POST /merchants/{merchantId}/{collection}, audited as catalog.create{Kind}, 201
   * with what `create` made. `errors` says what its 400 and 404 are about.
   */
  function handMadeRoute<B extends TSchema, A extends TSchema>(route: {
    kind: 'category' | 'product';
    errors: string;
    body: B;
    answer: A;
    create: (merchantId: string, body: Static<B>) => Promise<Static<A>>;
  }) {
    const Kind = route.kind === 'category' ? 'Category' : 'Product';
    return declareRoute({
      method: 'POST',
      url: `/merchants/:merchantId/${route.kind === 'category' ? 'categories' : 'products'}`,
      access: { role: 'admin', auditAction: `catalog.create${Kind}` },
      summary: `Create a ${route.kind} by hand (not linked to the POS)`,
      description: `A ${route.kind} made in the panel, not linked to the POS: a catalog upload never removes it. Errors: ${route.errors}.`,
      // Widened: `create` is checked against the answer's schema above, and a generic one cannot be
      // followed into the reply's type.
      schema: createByPath(['operator'], MerchantIdParams, route.body, route.answer as TSchema),
      handler: async (request, reply) => {
        await merchants.requireMerchant(request.params.merchantId);
        return reply.code(201).send(await route.create(request.params.merchantId, request.body as Static<B>));
      },
    });
  }

  app.route(
    handMadeRoute({
      kind: 'category',
      errors: '400; 404',
      body: HandMadeCategoryBody,
      answer: HandMadeCategory,
      create: async (merchantId, body) => ({
        ...categoryView(await catalog.createHandMadeCategory(merchantId, body)),
        pdv_external_id: null,
      }),
    }),
  );

  app.route(
    handMadeRoute({
      kind: 'product',
      errors: '400 (price, unit KG or UN); 404 for the merchant or the category',
      body: HandMadeProductBody,
      answer: HandMadeProduct,
      create: async (merchantId, body) => {
        const p = await catalog.createHandMadeProduct(merchantId, body);
        return { ...productView(p), pdv_external_id: null, externalCode: p.external_code };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/catalogSyncs',
      access: READ_WITH_PLATFORM,
      summary: 'Catalog sync history, newest first, a page at a time: status, moreInfo, structured details, times',
      description:
        'Every catalog sync of the merchant (uploads, pulls, Open Delivery notifications), newest first, with ' +
        'status, moreInfo, structured details of what was dropped and why, and times. Errors: 404.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        querystring: Type.Object({
          limit: ListQuery.properties.limit,
          cursor: ListQuery.properties.cursor,
          status: Type.Optional(Type.Enum(['PROCESSING', 'SUCCESS', 'FAIL'])),
        }),
        response: { 200: Type.Array(SyncView), ...errorResponses(400, 401, 404) },
      },
      handler: async (request, reply) => {
        await merchants.requireMerchant(request.params.merchantId);
        const syncs = await catalog.listSyncs(request.params.merchantId, {
          ...request.query,
          limit: request.query.limit ?? 100,
        });
        return sendPage(request, reply, syncs);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/catalogPull',
      access: { role: 'support', auditAction: 'catalog.pull' },
      summary: "Fetch the catalog from the merchant's POS (D20); processed like an upload",
      description:
        'Fetches the catalog from the POS endpoint the merchant registered (getMerchantURL, with its apiKey) ' +
        'and processes it like an upload; 202 with the sync id to follow. Errors: 404; 409 when no catalog ' +
        'endpoint is registered or a sync is already running.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        response: {
          202: Type.Object({
            syncId: Uuid({ description: 'The catalog sync started; follow it in catalogSyncs.' }),
            status: Type.Literal('PROCESSING', { description: 'Its current status.' }),
          }),
          ...errorResponses(400, 401, 404),
        },
      },
      handler: async (request, reply) => {
        const m = await merchants.requireMerchant(request.params.merchantId);
        const registered = m.get_merchant_base_url !== null && m.get_merchant_api_key_enc !== null;
        const syncId = await catalog.requestPull(m.id, registered);
        return reply.code(202).send({ syncId, status: 'PROCESSING' as const });
      },
    }),
  );

  // D37: a product's cuts and spices.
  await registerCutRoutes(app, { merchants, catalog });
  await registerProductListRoutes(app, { merchants, catalog });
};
