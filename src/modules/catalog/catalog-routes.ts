import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../lib/errors.js';
import { errorResponses, NoContent, sendInDialect } from '../../lib/schemas.js';
import { isOpenDelivery } from '../auth/index.js';
import { OdMerchantStatus } from '../opendelivery/index.js';
import { checkMerchantStatus, unknownEnvelopeKey } from './catalog-envelope.js';
import { MerchantRecordSchema, MerchantStatusQuery, MerchantUpdateBody, SyncStatus } from './catalog-schemas.js';
import type { CatalogService } from './catalog-service.js';
import { odMerchantUpdateRoutes } from './od-merchant-update-routes.js';

export interface CatalogRoutesOptions {
  catalog: CatalogService;
  /** Largest upload accepted (413 beyond): a whole catalog is larger than other bodies. */
  uploadBodyLimit: number;
}

export const catalogRoutes: FastifyPluginAsyncTypebox<CatalogRoutesOptions> = async (
  app,
  { catalog, uploadBodyLimit },
) => {
  app.put(
    '/v1/merchantUpdate',
    {
      bodyLimit: uploadBodyLimit,
      schema: {
        tags: ['catalog'],
        summary: 'Upload the catalog; 204 = stored and queued (spec 4.3, D16)',
        body: MerchantUpdateBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 413, 415, 429) },
      },
      // D34: before validation, which would drop an unknown key and let the upload through.
      preValidation: async (request) => {
        const problem = unknownEnvelopeKey(
          request.body,
          'send entityType, merchantStatus, onlyAddProducts and updatedObjects',
        );
        if (problem) throw badRequest(problem);
      },
    },
    async (request, reply) => {
      const body = request.body;
      const problem = checkMerchantStatus(body.entityType, body.merchantStatus);
      if (problem) throw badRequest(problem);
      await catalog.acceptUpload(request.principal.merchantId, body);
      return reply.code(204).send(null);
    },
  );

  // Open Delivery's POST beside the spec's PUT (D29), in its own scope (empty-body parsing).
  await app.register(odMerchantUpdateRoutes, { catalog, uploadBodyLimit });

  app.get(
    '/v1/merchantStatus',
    {
      config: { rateLimit: 'read' },
      schema: {
        tags: ['catalog'],
        summary: 'Status of the latest catalog upload (spec 2.7, 4.4)',
        description:
          'moreInfo is null when there is nothing to add for a `cleaver` key (spec 2.7) and left out for an ' +
          '`opendelivery` key, whose schema has no null (D28).',
        querystring: MerchantStatusQuery,
        response: { 200: SyncStatus, ...errorResponses(400, 401, 404, 429, 503) },
        dialectResponses: { 200: OdMerchantStatus },
      },
    },
    async (request, reply) => {
      const status = await catalog.getSyncStatus(request.principal.merchantId, request.query.merchantId);
      if (!isOpenDelivery(request.principal)) return status;
      return sendInDialect(reply, {
        status: status.status,
        lastRead: status.lastRead,
        ...(status.moreInfo === null ? {} : { moreInfo: status.moreInfo }),
      });
    },
  );

  app.get(
    '/v1/merchant',
    {
      config: { rateLimit: 'read' },
      schema: {
        tags: ['catalog'],
        summary: 'The merchant record with its categories and products (spec 2.3–2.5)',
        response: { 200: MerchantRecordSchema, ...errorResponses(401, 404, 429, 503) },
      },
    },
    async (request) => catalog.getMerchantRecord(request.principal.merchantId),
  );
};
