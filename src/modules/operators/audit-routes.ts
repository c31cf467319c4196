// The audit log through the operator API: a filtered, paged list and a JSON-lines export.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendPage } from '../../lib/pagination.js';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import type { AuditService } from './audit-service.js';
import { AuditEntry, AuditQuery } from './operators-schemas.js';

const tags = ['audit'];
const { limit: _limit, cursor: _cursor, ...exportFilters } = AuditQuery.properties;

/** JSON lines of every entry the generator yields: one object per line, streamed. */
export function ndjson(entries: AsyncIterable<unknown>): Readable {
  return Readable.from(
    (async function* () {
      for await (const entry of entries) yield `${JSON.stringify(entry)}\n`;
    })(),
  );
}

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/audit',
      access: { role: 'viewer' },
      summary: 'Audit entries, newest first: filter by actor (email, operator or token id), action, time',
      description:
        'Audit entries, newest first, a page at a time: who did what to what, from where, with what result. ' +
        'Filters by actor, action and time.',
      schema: {
        tags,
        querystring: AuditQuery,
        response: { 200: Type.Array(AuditEntry), ...errorResponses(400, 401, 403) },
      },
      handler: async (request, reply) => {
        const { entries: items, next } = await audit.list(request.query);
        return sendPage(request, reply, { items, next });
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/audit/export',
      access: { role: 'viewer' },
      summary: 'Every matching audit entry as JSON lines (application/x-ndjson), oldest first, streamed',
      description:
        'Every matching audit entry as JSON lines (application/x-ndjson), oldest first, streamed; the same ' +
        'filters as GET /admin/v1/audit.',
      schema: {
        tags,
        querystring: Type.Object(exportFilters),
        response: {
          200: {
            description: 'One audit entry (as in GET /admin/v1/audit) per line',
            content: { 'application/x-ndjson': { schema: AuditEntry } },
          },
          ...errorResponses(400, 401, 403),
        },
      },
      handler: async (request, reply) => {
        audit.checkQuery(request.query);
        return reply
          .type('application/x-ndjson; charset=utf-8')
          .header('content-disposition', 'attachment; filename="cleaver-audit.ndjson"')
          .send(ndjson(audit.export(request.query)) as never);
      },
    }),
  );
};
