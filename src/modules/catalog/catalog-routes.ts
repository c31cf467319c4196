import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../lib/errors.js';
import { declareRoute, MERCHANT_READ } from '../../lib/route-declaration.js';
import { errorResponses, sendInDialect } from '../../lib/schemas.js';
import { isOpenDelivery } from '../auth/index.js';
import { OdMerchantStatus } from '../opendelivery/index.js';
import { availabilityRoutes } from './availability-routes.js';
import { checkMerchantStatus, unknownEnvelopeKey } from './catalog-envelope.js';
import { MerchantRecordSchema, MerchantStatusQuery, MerchantUpdateBody, SyncStatus } from './catalog-schemas.js';
import type { CatalogService } from './catalog-service.js';
import { merchantUpdateRoute, odMerchantUpdateRoutes, UPLOAD_ANSWERS } from './od-merchant-update-routes.js';

const tags = ['catalog'];

export interface CatalogRoutesOptions {
  catalog: CatalogService;
  /** Largest upload accepted (413 beyond): a whole catalog is larger than other bodies. */
  uploadBodyLimit: number;
}

export const catalogRoutes: FastifyPluginAsyncTypebox<CatalogRoutesOptions> = async (
  app,
  { catalog, uploadBodyLimit },
) => {
  app.route(
    declareRoute({
      method: 'PUT',
      ...merchantUpdateRoute(uploadBodyLimit),
      summary: 'Upload the catalog; 204 = stored and queued (spec 4.3, D16)',
      description:
        'Replaces or updates the merchant’s catalog from the POS. The body depends on entityType: MERCHANT (the whole ' +
        'store: categories, offers, items), ITEM (existing products, flat) or ITEM_OFFER (prices and availability of ' +
        'existing products, flat). 204 only means stored and queued: processing is asynchronous; follow GET ' +
        '/v1/merchantStatus until SUCCESS or FAIL and do not upload again meanwhile. A FAIL can be a partial success; ' +
        'moreInfo gives per kind how many objects were created, updated (a value really changed), unchanged and ' +
        'removed, and lists what was dropped. Errors: 400 for a bad envelope (missing entityType or updatedObjects, ' +
        'merchantStatus missing for MERCHANT, or a top-level key other than entityType, merchantStatus, ' +
        'onlyAddProducts and updatedObjects, D34); 413 when the body is too large.',
      schema: { tags, body: MerchantUpdateBody, response: UPLOAD_ANSWERS },
      // D34: before validation, which would drop an unknown key and let the upload through.
      preValidation: async (request) => {
        const problem = unknownEnvelopeKey(
          request.body,
          'send entityType, merchantStatus, onlyAddProducts and updatedObjects',
        );
        if (problem) throw badRequest(problem);
      },
      handler: async (request, reply) => {
        const body = request.body;
        const problem = checkMerchantStatus(body.entityType, body.merchantStatus);
        if (problem) throw badRequest(problem);
        await catalog.acceptUpload(request.principal.merchantId, body);
        return reply.code(204).send(null);
      },
    }),
  );

  // Open Delivery's POST beside the spec's PUT (D29), in its own scope (empty-body parsing).
  await app.register(odMerchantUpdateRoutes, { catalog, uploadBodyLimit });
  // D43: pauses and stock without an upload.
  await app.register(availabilityRoutes, { catalog });

  app.route(
    declareRoute({
      method: 'GET',
      url: '/v1/merchantStatus',
      access: MERCHANT_READ,
      summary: 'Status of the latest catalog upload (spec 2.7, 4.4)',
      description:
        'moreInfo is null when there is nothing to add for a `cleaver` key (spec 2.7) and left out for an ' +
        '`opendelivery` key, whose schema has no null (D28).',
      schema: {
        tags,
        querystring: MerchantStatusQuery,
        response: { 200: SyncStatus, ...errorResponses(400, 401, 404, 429, 503) },
      },
      opendelivery: { answers: { 200: OdMerchantStatus } },
      handler: async (request, reply) => {
        const status = await catalog.getSyncStatus(request.principal.merchantId, request.query.merchantId);
        if (!isOpenDelivery(request.principal)) return status;
        return sendInDialect(reply, {
          status: status.status,
          lastRead: status.lastRead,
          ...(status.moreInfo === null ? {} : { moreInfo: status.moreInfo }),
        });
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/v1/merchant',
      access: MERCHANT_READ,
      summary: 'The merchant record with its categories and products (spec 2.3–2.5)',
      description:
        'The merchant as the marketplace shows it: status, categories and products with prices, stock, units and ' +
        'links to the POS (pdv_external_id) (spec 2.3–2.5). Use it to check what an upload produced. Errors: 404 when ' +
        'the merchant no longer exists.',
      schema: { tags, response: { 200: MerchantRecordSchema, ...errorResponses(401, 404, 429, 503) } },
      handler: async (request) => catalog.getMerchantRecord(request.principal.merchantId),
    }),
  );
};
