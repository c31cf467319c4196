import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { encodeTimeCursor, page } from '../../lib/cursor.js';
import { setNextLink } from '../../lib/pagination.js';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import type { LogisticsAppsService } from '../logistics/index.js';
import { CreateLogisticsAppBody, ListQuery, LogisticsAppCreated, LogisticsAppSummary } from './operator-schemas.js';

export const operatorLogisticsRoutes: FastifyPluginAsyncTypebox<{ logisticsApps: LogisticsAppsService }> = async (
  app,
  { logisticsApps },
) => {
  app.post(
    '/logisticsApps',
    {
      schema: {
        tags: ['operator'],
        summary: 'Register a logistics partner app; its client secret is shown only in this answer',
        body: CreateLogisticsAppBody,
        response: { 201: LogisticsAppCreated, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const created = await logisticsApps.createApp(request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.get(
    '/logisticsApps',
    {
      schema: {
        tags: ['operator'],
        summary: 'List logistics partner apps, oldest first, a page at a time; search by name or id',
        description:
          'Paged as operator-api.md says: `limit` (default 100, at most 1000) and `cursor`; the next page is in the ' +
          '`Link: <…>; rel="next"` header. `q` matches part of the name (any case) or exactly the app id.',
        querystring: Type.Object({
          ...ListQuery.properties,
          active: Type.Optional(Type.Boolean({ description: 'Only active (true) or deactivated (false) apps' })),
        }),
        response: { 200: Type.Array(LogisticsAppSummary), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const limit = request.query.limit ?? 100;
      const rows = await logisticsApps.listApps({ ...request.query, limit: limit + 1 });
      const { items, next } = page(rows, limit, (a) => encodeTimeCursor(a.created_at, a.id));
      setNextLink(request, reply, next);
      return items.map((a) => ({
        appId: a.id,
        name: a.name,
        active: a.active,
        merchantIds: a.merchant_ids,
        createdAt: a.created_at.toISOString(),
      }));
    },
  );

  app.delete(
    '/logisticsApps/:appId',
    {
      schema: {
        tags: ['operator'],
        summary: 'Deactivate a logistics partner app (its requests get 401)',
        params: Type.Object({ appId: Uuid() }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await logisticsApps.deactivateApp(request.params.appId);
      return reply.code(204).send(null);
    },
  );
};
