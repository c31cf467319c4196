import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answerNoContent, sendCreatedSecret } from '../../lib/answers.js';
import { sendTimePage } from '../../lib/pagination.js';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import type { LogisticsAppsService } from '../logistics/index.js';
import { CreateLogisticsAppBody, ListQuery, LogisticsAppCreated, LogisticsAppSummary } from './admin-schemas.js';

export const adminLogisticsRoutes: FastifyPluginAsyncTypebox<{ logisticsApps: LogisticsAppsService }> = async (
  app,
  { logisticsApps },
) => {
  app.route(
    declareRoute({
      method: 'POST',
      url: '/logisticsApps',
      access: { role: 'admin', auditAction: 'logisticsApp.create' },
      summary: 'Register a logistics partner app; its client secret is shown only in this answer',
      description:
        'Registers a logistics partner app and the merchants it serves; its client secret (which signs its ' +
        'requests) is shown only in this answer. Audited. Errors: 400.',
      schema: {
        tags: ['operator'],
        body: CreateLogisticsAppBody,
        response: { 201: LogisticsAppCreated, ...errorResponses(400, 401) },
      },
      handler: async (request, reply) => {
        const created = await logisticsApps.createApp(request.body);
        return sendCreatedSecret(reply, created);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/logisticsApps',
      access: { role: 'viewer' },
      summary: 'List logistics partner apps, oldest first, a page at a time; search by name or id',
      description: 'Every logistics partner app, with the merchants it serves; never secrets.',
      schema: {
        tags: ['operator'],
        querystring: Type.Object({
          ...ListQuery.properties,
          active: Type.Optional(Type.Boolean({ description: 'Only active (true) or deactivated (false) apps' })),
        }),
        response: { 200: Type.Array(LogisticsAppSummary), ...errorResponses(400, 401) },
      },
      handler: async (request, reply) => {
        const items = await sendTimePage(request, reply, request.query.limit, (limit) =>
          logisticsApps.listApps({ ...request.query, limit }),
        );
        return items.map((a) => ({
          appId: a.id,
          name: a.name,
          active: a.active,
          merchantIds: a.merchant_ids,
          createdAt: a.created_at.toISOString(),
        }));
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/logisticsApps/:appId',
      access: { role: 'admin', auditAction: 'logisticsApp.deactivate' },
      summary: 'Deactivate a logistics partner app (its requests get 401)',
      description: 'Deactivates an app: its signed requests get 401 from then on. Audited. Errors: 404.',
      schema: {
        tags: ['operator'],
        params: Type.Object({ appId: Uuid() }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
      handler: answerNoContent((request) => logisticsApps.deactivateApp(request.params.appId)),
    }),
  );
};
