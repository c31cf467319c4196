// OPERATOR-API.md "Webhook deliveries": what was sent where, every attempt, and a replay.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../lib/schemas.js';
import type { MerchantsService } from '../merchants/merchants-service.js';
import type { WebhooksService } from '../webhooks/index.js';
import { DeliveryIdParams, DeliveryListQuery, WebhookDelivery } from '../webhooks/webhooks-schemas.js';
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
        summary: "A merchant's webhook deliveries, newest first, with every attempt",
        params: MerchantIdParams,
        querystring: DeliveryListQuery,
        response: { 200: Type.Array(WebhookDelivery), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const m = await merchants.requireMerchant(request.params.merchantId);
      return webhooks.listMerchantDeliveries(m.id, request.query);
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
};
