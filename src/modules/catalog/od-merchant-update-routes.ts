// POST /v1/merchantUpdate: Open Delivery's change notification (OD `menuUpdated`, D29), beside
// the spec's PUT /v1/merchantUpdate upload, which stays as it is. Registered by catalogRoutes in
// its own encapsulated scope, because the empty body OD allows must pass JSON parsing here only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../lib/errors.js';
import { declareRoute, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses, NoContent } from '../../lib/schemas.js';
import { OdMerchantUpdate } from '../opendelivery/index.js';
import { unknownEnvelopeKey } from './catalog-envelope.js';
import type { CatalogService } from './catalog-service.js';
import { checkOdNotification } from './od-notification-plan.js';

export interface OdMerchantUpdateRoutesOptions {
  catalog: CatalogService;
  uploadBodyLimit: number;
}

/**
 * Open Delivery's menuUpdated body, plus the spec's onlyAddProducts: D34 gives both verbs the same
 * four top-level keys, and refuses any other (so the schema says additionalProperties false).
 */
const NotificationBody = Type.Object(
  {
    ...OdMerchantUpdate.properties,
    onlyAddProducts: Type.Optional(
      Type.Boolean({ description: 'Accepted, for the same four keys as the PUT upload; a notification ignores it' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * What both verbs of /v1/merchantUpdate share: the path, the write budget, a body limit larger
 * than other bodies, and 204 once stored and queued (spec 4.3, D16).
 */
export const merchantUpdateRoute = (uploadBodyLimit: number) =>
  ({ url: '/v1/merchantUpdate', access: MERCHANT_WRITE, bodyLimit: uploadBodyLimit }) as const;
export const UPLOAD_ANSWERS = { 204: NoContent, ...errorResponses(400, 401, 413, 415, 429) };
const tags = ['catalog'];

export const odMerchantUpdateRoutes: FastifyPluginAsyncTypebox<OdMerchantUpdateRoutesOptions> = async (
  app,
  { catalog, uploadBodyLimit },
) => {
  // OD use 1 is "sent with an empty body", and a POS may still label it application/json:
  // an empty (or blank) JSON body is an empty object on this route, not a 400.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: uploadBodyLimit },
    (request, body, done) => {
      const text = body as string;
      if (text.trim() === '') {
        done(null, {});
        return;
      }
      parseJson(request, text, done);
    },
  );

  app.route(
    declareRoute({
      method: 'POST',
      ...merchantUpdateRoute(uploadBodyLimit),
      summary: 'Open Delivery change notification (D29); 204 = queued, outcome in GET /v1/merchantStatus',
      description:
        'Open Delivery `menuUpdated`. An empty body: the platform pulls `GET {getMerchantURL.baseURL}/v1/merchant` ' +
        '(X-API-KEY) and applies it, whether it is an Open Delivery Merchant or a MERCHANT upload body. ' +
        '`merchantStatus` alone: the order-receiving switch. `entityType` with a non-empty `updatedObjects`: those ' +
        "objects in Open Delivery's shapes (MERCHANT, ITEM, ITEM_OFFER and CATEGORY are applied; BASIC_INFO, " +
        'SERVICE, MENU, OPTION_GROUP, OPTION and AVAILABILITY are accepted and reported as not applied). ' +
        'All three: both. Processed in arrival order with the uploads; PROCESSING until done.',
      schema: { tags, body: NotificationBody, response: UPLOAD_ANSWERS },
      preValidation: async (request) => {
        const body = request.body;
        if (body === undefined || body === null) {
          request.body = {};
          return;
        }
        // D34: every top-level key is one of the four. Validation would drop an unknown one, and a
        // body made only of unknown keys would then ask for a pull nobody asked for.
        const problem = unknownEnvelopeKey(
          body,
          'send merchantStatus, entityType and updatedObjects (onlyAddProducts is accepted), or an empty body to ask for a pull',
        );
        if (problem) throw badRequest(problem);
      },
      handler: async (request, reply) => {
        const use = checkOdNotification(request.body);
        if ('reason' in use) throw badRequest(use.reason);
        await catalog.acceptNotification(request.principal.merchantId, use);
        return reply.code(204).send(null);
      },
    }),
  );
};
