// D37 (operator-api.md#third-round-the-platform-feed-cuts-weighing): a product's cuts and spices, and the product with them.
// Registered by admin-catalog-routes.ts, inside the operator scope and its role rules.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import { errorResponses, NoContent, Uuid, withFieldDescriptions } from '../../lib/schemas.js';
import { type CatalogService, CutView, productView, productViewFields } from '../catalog/index.js';
import type { MerchantsService } from '../merchants/index.js';
import { readByPath } from './admin-schemas.js';

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
const Name = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

/** The spice's name; the console's form takes it as one text field. */
export const SpiceName = Name('The spice’s name (“Alho”)');

/** POST …/cuts; the console's add-a-cut form reads its fields with it too (style.md#habits). */
export const CutBody = Type.Object({
  id: Type.Optional(Id('The cut’s id, matched by POS software against order options; a uuid is made when left out')),
  name: Name('The cut’s name, as the customer chooses it (“Bife”)'),
  // null as well as absent: a cut without spice reads back with `spice: null`, and what a client
  // read must be accepted when sent back.
  spice: Type.Optional(
    Type.Union(
      [
        Type.Object({
          id: Type.Optional(Id('The spice’s id; a uuid is made when left out')),
          name: SpiceName,
        }),
        Type.Null(),
      ],
      { description: 'The seasoning of the cut, or null (or left out) for none.' },
    ),
  ),
});

const ProductId = () => Uuid({ description: 'The product: its internal id, as GET /v1/merchant lists it' });
const ProductParams = Type.Object({ merchantId: Uuid(), productId: ProductId() });

const ProductDetail = Type.Object({
  ...productViewFields,
  externalCode: Type.String({ description: 'The POS’s code (e.g. the scale code); not used to find records.' }),
  ean: Type.String({ description: 'The barcode (informational).' }),
  cuts: Type.Array(CutView, { description: 'The cuts the butcher offers for this product.' }),
});

const routes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService; catalog: CatalogService }> = async (
  app,
  { merchants, catalog },
) => {
  const tags = ['operator'];

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/products/:productId',
      access: READ_WITH_PLATFORM,
      summary: 'A product with its cuts and spices (D37)',
      description:
        'One product of the merchant with its cuts and spices, in the order they were added. Errors: 404 for ' +
        'the merchant or the product.',
      schema: readByPath(tags, ProductParams, ProductDetail),
      handler: async (request) => {
        const { merchantId, productId } = request.params;
        await merchants.requireMerchant(merchantId);
        const p = await catalog.requireProduct(merchantId, productId);
        return {
          ...productView(p),
          externalCode: p.external_code,
          ean: p.ean,
          cuts: await catalog.listCuts(merchantId, productId),
        };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/products/:productId/cuts',
      access: READ_WITH_PLATFORM,
      summary: 'The cuts of a product, in the order they were added (D37)',
      description: 'The cuts of one product (each with its spice or null), in the order they were added. Errors: 404.',
      schema: readByPath(
        tags,
        ProductParams,
        Type.Array(withFieldDescriptions(CutView, { id: 'The record’s unique id.' })),
      ),
      handler: async (request) => {
        await merchants.requireMerchant(request.params.merchantId);
        return catalog.listCuts(request.params.merchantId, request.params.productId);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/products/:productId/cuts',
      access: { role: 'admin', auditAction: 'catalog.addCut' },
      summary: 'Add a cut (with an optional spice) to a product (D37)',
      description:
        'Adds a cut the customer can choose for this product (“Bife”), with an optional spice (“Alho”). Ids ' +
        'are made when left out. GET /v1/merchant lists it on its product at once; an order item names it ' +
        'with `cutId` and shows it as its first option. A catalog upload never writes or removes cuts, except ' +
        'that a product the upload removes takes its cuts with it. Audited. Errors: 400 naming the field (an ' +
        'empty name); 404 for the merchant or the product; 409 when the product already has a cut with that ' +
        'id.',
      schema: {
        tags,
        params: ProductParams,
        body: CutBody,
        response: {
          201: withFieldDescriptions(CutView, { id: 'The record’s unique id.' }),
          ...errorResponses(400, 401, 404, 409),
        },
      },
      handler: async (request, reply) => {
        await merchants.requireMerchant(request.params.merchantId);
        const cut = await catalog.addCut(request.params.merchantId, request.params.productId, request.body);
        return reply.code(201).send(cut);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/merchants/:merchantId/products/:productId/cuts/:cutId',
      access: { role: 'admin', auditAction: 'catalog.removeCut' },
      summary: 'Remove a cut from a product (D37); orders placed with it keep showing it',
      description:
        'Removes a cut from the product; orders already placed with it keep showing it. Audited. Errors: 404 ' +
        'for the merchant, the product or the cut.',
      schema: {
        tags,
        params: Type.Object({ merchantId: Uuid(), productId: ProductId(), cutId: Id('The cut to remove') }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
      handler: async (request, reply) => {
        const { merchantId, productId, cutId } = request.params;
        await merchants.requireMerchant(merchantId);
        await catalog.removeCut(merchantId, productId, cutId);
        return reply.code(204).send(null);
      },
    }),
  );
};

/** Called by adminCatalogRoutes, so the cuts share its scope (no registration of their own in app.ts). */
export async function registerCutRoutes(
  app: FastifyInstance,
  deps: { merchants: MerchantsService; catalog: CatalogService },
): Promise<void> {
  await app.register(routes, deps);
}
