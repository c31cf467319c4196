// operator-api.md#webhook-deliveries: what was sent where, every attempt, and a replay.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { setNextLink } from '../../lib/pagination.js';
import { errorResponses } from '../../lib/schemas.js';
import type { MerchantsService } from '../merchants/index.js';
import type { WebhooksService } from '../webhooks/index.js';
import {
  DeliveryIdParams,
  DeliveryListQuery,
  EndpointHealth,
  RecoverBody,
  RequeueAnswer,
  WebhookDelivery,
} from '../webhooks/index.js';
import { MerchantIdParams } from './operator-schemas.js';

export interface OperatorWebhooksDeps {
  merchants: MerchantsService;
  webhooks: WebhooksService;
}

export const operatorWebhooksRoutes: FastifyPluginAsyncTypebox<OperatorWebhooksDeps> = async (app, deps) => {
  const { merchants, webhooks } = deps;

  app.get(
    '/merchants/:merchantId/webhookDeliveries',
    {
      schema: {
        tags: ['operator'],
        summary: "A merchant's webhook deliveries, newest first, with every attempt, a page at a time",
        description:
          'Paged as operator-api.md says: `limit` (default 100, at most 1000) and `cursor`; the next page is in the ' +
          '`Link: <…>; rel="next"` header. Filters: `status`, `orderId`.',
        params: MerchantIdParams,
        querystring: DeliveryListQuery,
        response: { 200: Type.Array(WebhookDelivery), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const m = await merchants.requireMerchant(request.params.merchantId);
      const { items, next } = await webhooks.listMerchantDeliveries(m.id, request.query);
      setNextLink(request, reply, next);
      return items;
    },
  );

  app.post(
    '/webhookDeliveries/:deliveryId/retry',
    {
      schema: {
        tags: ['operator'],
        summary: 'Send a delivery again now, as a new attempt with the same webhook-id',
        params: DeliveryIdParams,
        response: { 202: WebhookDelivery, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.retryDelivery(request.params.deliveryId)),
  );

  app.get(
    '/merchants/:merchantId/webhookHealth',
    {
      schema: {
        tags: ['operator'],
        summary: "The merchant's webhook endpoint: healthy, failing (since, last error) or disabled (why)",
        params: MerchantIdParams,
        response: { 200: EndpointHealth, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const m = await merchants.requireMerchant(request.params.merchantId);
      const [health] = await webhooks.endpointHealth([m.id]);
      return health;
    },
  );

  app.post(
    '/merchants/:merchantId/webhookDeliveries/retryFailed',
    {
      schema: {
        tags: ['operator'],
        summary: 'Send every FAILED delivery of the merchant again now, in order, same webhook-ids',
        description:
          'For an endpoint that was fixed: each order keeps its order (D11). 409 while the webhook is disabled ' +
          '(the merchant must register its URL again first) or when no URL is registered.',
        params: MerchantIdParams,
        response: { 202: RequeueAnswer, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.retryFailed(request.params.merchantId)),
  );

  app.post(
    '/merchants/:merchantId/webhookDeliveries/recover',
    {
      schema: {
        tags: ['operator'],
        summary: 'Send everything since a time again, delivered or not, in order (after the POS lost data)',
        description:
          'Every delivery created at or after `since` is due again now with its own webhook-id, so a receiver that ' +
          'dedupes on it (D10) sees each event once more at most. 409 as for retryFailed.',
        params: MerchantIdParams,
        body: RecoverBody,
        response: { 202: RequeueAnswer, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.recoverSince(request.params.merchantId, new Date(request.body.since))),
  );
};
