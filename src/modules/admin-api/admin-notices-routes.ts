// What operators should look at (modules/notices): newest first, paged as operator-api.md#lists says.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendPage } from '../../lib/pagination.js';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { Notice, NoticeListQuery, type NoticesService } from '../notices/index.js';

export const adminNoticesRoutes: FastifyPluginAsyncTypebox<{ notices: NoticesService }> = async (app, { notices }) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/notices',
      access: { role: 'viewer' },
      summary:
        'Notices for operators, newest first: failing webhook endpoints, POS software that maps event types wrongly',
      description:
        'What operators should look at, newest first: webhook endpoints that start or stop failing or get ' +
        'disabled, and integration keys whose acknowledgments name another event type than the one polled ' +
        '(`acknowledgment.type-mismatch`, once a day per key: D39), filtered by merchant or kind.',
      schema: {
        tags: ['operator'],
        querystring: NoticeListQuery,
        response: { 200: Type.Array(Notice), ...errorResponses(400, 401) },
      },
      handler: async (request, reply) => sendPage(request, reply, await notices.list(request.query)),
    }),
  );
};
