// /v1/developer: the POS developer's own view of its integration, with its own token,
// as Stripe's dashboard gives it: the key's request log (GET /v1/developer/requests) and the
// merchant's webhook endpoint with its latest attempts (GET /v1/developer/webhooks). A key reads
// only its own requests; the endpoint is its merchant's. Reads of these routes are not logged.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { firstRow } from '../../lib/first-row.js';
import { declareRoute, MERCHANT_READ } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import type { RequestLog } from '../usage/index.js';
import type { WebhooksService } from '../webhooks/index.js';
import { DeveloperWebhooks, DeveloperWebhooksQuery, RequestLogPage, RequestLogQuery } from './developer-schemas.js';

const tags = ['developer'];
const errors = errorResponses(400, 401, 429);

export const developerRoutes: FastifyPluginAsyncTypebox<{
  requestLog: RequestLog;
  webhooks: Pick<WebhooksService, 'endpointHealth' | 'recentAttempts'>;
}> = async (app, { requestLog, webhooks }) => {
  // Reads of the key's own data, on the read budget (D23).
  const ownRead = { method: 'GET', access: MERCHANT_READ } as const;
  app.route(
    declareRoute({
      ...ownRead,
      url: '/developer/requests',
      summary: 'The request log of the calling integration key, newest first',
      description:
        'What this key asked and what it was answered: method, path, status, the error title, the time taken ' +
        'and the X-Request-Id, for the key’s last 1,000 requests of the last 24 hours (requests refused before ' +
        'the token was read, and reads of /v1/developer itself, are not in it). A failed request (status 400 or ' +
        'above) also shows its body, at most 2 KB, with secrets redacted. `failed=true` keeps the failed ' +
        'requests only; `next` is the `before` of the next page. A request appears within about a second.',
      schema: { tags, querystring: RequestLogQuery, response: { 200: RequestLogPage, ...errors } },
      handler: async (request) => {
        const q = request.query;
        return requestLog.list(request.principal.keyId, {
          limit: q.limit ?? 50,
          before: q.before,
          failed: q.failed,
          status: q.status,
        });
      },
    }),
  );

  app.route(
    declareRoute({
      ...ownRead,
      url: '/developer/webhooks',
      summary: 'The merchant’s webhook endpoint: its health and latest attempts',
      description:
        'The state the platform gives the endpoint registered with PUT /v1/merchantOnboarding (healthy, failing ' +
        'since when and why, disabled and why, or unknown before the first attempt) and the latest attempts to ' +
        'it, newest first, with what the endpoint answered. A disabled endpoint receives nothing until the ' +
        'merchant registers its URL again.',
      schema: { tags, querystring: DeveloperWebhooksQuery, response: { 200: DeveloperWebhooks, ...errors } },
      handler: async (request) => {
        const merchantId = request.principal.merchantId;
        const [endpoints, attempts] = await Promise.all([
          webhooks.endpointHealth([merchantId]),
          webhooks.recentAttempts(merchantId, request.query.limit ?? 20),
        ]);
        // The bearer token was just checked against this merchant's row, so its health is there.
        return { endpoint: firstRow(endpoints, 'endpoint health of the authenticated merchant'), attempts };
      },
    }),
  );
};
