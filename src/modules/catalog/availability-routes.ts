// D43: POST /v1/merchant/availability: the POS pauses, resumes and counts its products without
// a catalog upload.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { declareRoute, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { AvailabilityAnswer, AvailabilityBody } from './catalog-schemas.js';
import type { CatalogService } from './catalog-service.js';

/** What both availability routes say of themselves (the operator's twin reuses it). */
export const AVAILABILITY_DESCRIPTION =
  'Pauses (available: false, with a reason OUT_OF_STOCK, QUALITY, NOT_TODAY or OTHER and an optional `until` at ' +
  'which the product comes back by itself), resumes (available: true) and counts (`stock.quantity`: kg with up ' +
  'to 3 decimals for KG, whole units for UN) up to 100 products at once, all or none (D43). A counted product is ' +
  'unavailable (OUT_OF_STOCK) at or below its minimum (weight.min for KG, 0 for UN); confirmed orders take their ' +
  'ordered quantity, weighings replace it with the weighed one, cancellations give it back. Every change is a ' +
  '`catalog AVAILABILITY_CHANGED` feed item and shows in GET /v1/merchant at once. Errors: 400 naming the field ' +
  '(items[i].productId, items[i].until, items[i].stock.quantity…).';

export const availabilityRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogService }> = async (app, { catalog }) => {
  app.route(
    declareRoute({
      method: 'POST',
      url: '/v1/merchant/availability',
      access: MERCHANT_WRITE,
      summary: 'Pause, resume and count products without a catalog upload (D43)',
      description: AVAILABILITY_DESCRIPTION,
      schema: {
        tags: ['catalog'],
        body: AvailabilityBody,
        response: { 200: AvailabilityAnswer, ...errorResponses(400, 401, 413, 415, 429) },
      },
      handler: async (request) => ({
        items: await catalog.availability.setAvailability(request.principal.merchantId, request.body.items),
      }),
    }),
  );
};
