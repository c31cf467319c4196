import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { declareRoute, PER_IP } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { OdVersionOrderingApp } from '../opendelivery/index.js';

/**
 * D29: `GET /v1/versions/orderingApp`, Open Delivery's "which versions does this ordering
 * application implement", asked before any token exists. The platform implements the order and
 * merchant routes of Open Delivery 1.7.0, whose route groups are numbered 1.6.0, and delivers
 * events both ways.
 */
export const ORDERING_APP_VERSIONS: Static<typeof OdVersionOrderingApp> = {
  merchant: { version: '1.6.0' },
  order: { version: '1.6.0', availableEventsMethods: ['POLLING', 'WEBHOOK'] },
};

export const versionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/versions/orderingApp',
      access: PER_IP,
      summary: 'The Open Delivery versions this service implements (D29); no token, both profiles',
      description:
        'The Open Delivery API versions this service implements, asked by an Open Delivery POS before it has a ' +
        'token. No authentication; rate limited per IP.',
      schema: { tags: ['orders'], response: { 200: OdVersionOrderingApp, ...errorResponses(429) } },
      handler: async () => ORDERING_APP_VERSIONS,
    }),
  );
};
