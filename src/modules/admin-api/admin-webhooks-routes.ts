// operator-api.md#webhook-deliveries: what was sent where, every attempt, and a replay.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TSchema, Type } from 'typebox';
import { sendPage } from '../../lib/pagination.js';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses, withFieldDescriptions } from '../../lib/schemas.js';
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
import { acceptByPath, MerchantIdParams, readByPath } from './admin-schemas.js';

export interface OperatorWebhooksDeps {
  merchants: MerchantsService;
  webhooks: WebhooksService;
}

export const adminWebhooksRoutes: FastifyPluginAsyncTypebox<OperatorWebhooksDeps> = async (app, deps) => {
  const { merchants, webhooks } = deps;

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/webhookDeliveries',
      access: { role: 'viewer' },
      summary: "A merchant's webhook deliveries, newest first, with every attempt, a page at a time",
      description:
        'Each webhook delivery: the event, the target URL, status (PENDING, DELIVERED, FAILED), every attempt ' +
        'with its HTTP status, error, duration and the start of the answer, and the next attempt. Errors: ' +
        '404.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        querystring: DeliveryListQuery,
        response: { 200: Type.Array(WebhookDelivery), ...errorResponses(400, 401, 404) },
      },
      handler: async (request, reply) => {
        const m = await merchants.requireMerchant(request.params.merchantId);
        return sendPage(request, reply, await webhooks.listMerchantDeliveries(m.id, request.query));
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/webhookDeliveries/:deliveryId/retry',
      access: { role: 'support', auditAction: 'webhookDelivery.retry' },
      summary: 'Send a delivery again now, as a new attempt with the same webhook-id',
      description:
        'One new attempt now with the same webhook-id and body, whatever the delivery’s status. Audited. ' +
        'Errors: 404; 409 when an attempt is in progress, no URL is registered, or the webhook is disabled.',
      schema: acceptByPath(
        ['operator'],
        DeliveryIdParams,
        withFieldDescriptions(WebhookDelivery, { status: 'PENDING: the new attempt is due now.' }),
      ),
      handler: async (request, reply) => reply.code(202).send(await webhooks.retryDelivery(request.params.deliveryId)),
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/webhookHealth',
      access: { role: 'viewer' },
      summary: "The merchant's webhook endpoint: healthy, failing (since, last error) or disabled (why)",
      description:
        'Whether the merchant’s webhook endpoint answers: healthy, failing (since when, last error), disabled ' +
        '(after a 410 or failing too long) or unknown (never tried). Errors: 404.',
      schema: readByPath(['operator'], MerchantIdParams, EndpointHealth),
      handler: async (request) => {
        const m = await merchants.requireMerchant(request.params.merchantId);
        const [health] = await webhooks.endpointHealth([m.id]);
        return health;
      },
    }),
  );

  /**
   * A requeue of a merchant's deliveries (retryFailed, recover): POST
   * /merchants/{merchantId}/webhookDeliveries/{action}, audited as webhookDelivery.{action}, 202
   * with how many deliveries are due again. 409 while the webhook is disabled or has no URL.
   */
  function requeueRoute<B extends TSchema>(route: {
    action: 'retryFailed' | 'recover';
    summary: string;
    description: string;
    /** What the requeue reads from the body; none for retryFailed. */
    body?: B;
    requeue: (merchantId: string, body: Static<B>) => Promise<Static<typeof RequeueAnswer>>;
  }) {
    return declareRoute({
      method: 'POST',
      url: `/merchants/:merchantId/webhookDeliveries/${route.action}`,
      access: { role: 'support', auditAction: `webhookDelivery.${route.action}` },
      summary: route.summary,
      description: route.description,
      schema: {
        ...acceptByPath(['operator'], MerchantIdParams, RequeueAnswer),
        ...(route.body ? { body: route.body } : {}),
      },
      handler: async (request, reply) =>
        reply.code(202).send(await route.requeue(request.params.merchantId, request.body as Static<B>)),
    });
  }

  app.route(
    requeueRoute({
      action: 'retryFailed',
      summary: 'Send every FAILED delivery of the merchant again now, in order, same webhook-ids',
      description:
        'For an endpoint that was fixed: each order keeps its order (D11). 409 while the webhook is disabled ' +
        '(the merchant must register its URL again first) or when no URL is registered.',
      requeue: (merchantId) => webhooks.retryFailed(merchantId),
    }),
  );

  app.route(
    requeueRoute({
      action: 'recover',
      summary: 'Send everything since a time again, delivered or not, in order (after the POS lost data)',
      description:
        'Every delivery created at or after `since` is due again now with its own webhook-id, so a receiver that ' +
        'dedupes on it (D10) sees each event once more at most. 409 as for retryFailed.',
      body: RecoverBody,
      requeue: (merchantId, body) => webhooks.recoverSince(merchantId, new Date(body.since)),
    }),
  );
};
