import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses, Uuid } from '../../lib/schemas.js';
import { isOpenDelivery } from '../auth/index.js';
import { OdMerchantApiInfo, OdMerchantAvailability } from '../opendelivery/index.js';
import { type MerchantsService, merchantNotFound } from './merchants-service.js';
import { PauseView } from './pause-routes.js';
import { webhookTargetOf } from './webhook-address.js';

export const IntegrationConfigSchema = Type.Object({
  getMerchantURL: Type.Union(
    [
      Type.Object({
        baseURL: Type.String({
          description: 'Base URL of the POS catalog endpoint; the platform calls GET {baseURL}/v1/merchant.',
        }),
        apiKey: Type.String({
          description: 'The key sent as X-API-KEY on catalog pulls; write-only, never shown back.',
        }),
      }),
      Type.Null(),
    ],
    { description: 'The POS endpoint the platform reads the catalog from (catalog pull), or null.' },
  ),
  ordersWebhookURL: Type.Union([Type.String(), Type.Null()], {
    description:
      'Base URL of the POS’s webhook receiver; webhooks are POSTed to it with /v1/orderUpdate appended (/v1/newEvent for an opendelivery key). No query, fragment or trailing slash; a path prefix only for an opendelivery key (https://pos.example.com/od → https://pos.example.com/od/v1/newEvent). https only in production. Null when never registered.',
  }),
});

const OnboardingBody = Type.Object({
  ordersWebhookURL: Type.String({
    description:
      'Base URL of the POS’s webhook receiver; webhooks are POSTed to it with /v1/orderUpdate appended (/v1/newEvent for an opendelivery key). No query, fragment or trailing slash; a path prefix only for an opendelivery key (https://pos.example.com/od → https://pos.example.com/od/v1/newEvent), which may also give the endpoint itself (https://pos.example.com/od/v1/newEvent: events go there as it is). https only in production.',
    minLength: 1,
    maxLength: 2048,
  }),
  getMerchantURL: Type.Optional(
    Type.Object(
      {
        baseURL: Type.String({
          description: 'Base URL of the POS catalog endpoint; the platform calls GET {baseURL}/v1/merchant.',
          minLength: 1,
          maxLength: 2048,
        }),
        apiKey: Type.String({
          description: 'The key sent as X-API-KEY on catalog pulls; write-only, never shown back.',
          minLength: 1,
          maxLength: 1024,
        }),
      },
      { description: 'The POS endpoint the platform reads the catalog from (catalog pull), or null.' },
    ),
  ),
  merchantId: Type.Optional(Uuid({ description: 'The merchant (the client_id of its integration keys).' })),
});

export const onboardingRoutes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService }> = async (
  app,
  { merchants },
) => {
  app.route(
    declareRoute({
      method: 'PUT',
      url: '/merchantOnboarding',
      access: MERCHANT_WRITE,
      summary: 'Register the webhook base URL and the POS catalog endpoint (spec 4.2)',
      description:
        'A `cleaver` key gets 200 with the integration configuration (spec 2.2, getMerchantURL null when never ' +
        'registered). An `opendelivery` key gets 201 with Open Delivery’s MerchantAPIInfo, which leaves out what ' +
        'is not registered (D28), whose ordersWebhookURL is the address its webhooks go to: the one given when it ends ' +
        'in /v1/newEvent, otherwise the one given with /v1/newEvent appended (D40).',
      schema: {
        tags: ['merchant'],
        querystring: Type.Object({ merchantId: Type.Optional(Uuid()) }),
        body: OnboardingBody,
        response: {
          200: IntegrationConfigSchema,
          201: OdMerchantApiInfo,
          ...errorResponses(400, 401, 413, 415, 429),
        },
      },
      handler: async (request, reply) => {
        const config = await merchants.onboard(request.principal, request.body, request.query.merchantId);
        if (!isOpenDelivery(request.principal)) return config;
        return reply.code(201).send({
          ...(config.getMerchantURL ? { getMerchantURL: config.getMerchantURL } : {}),
          // D40: the address events go to, whichever form was registered.
          ...(config.ordersWebhookURL
            ? { ordersWebhookURL: webhookTargetOf(config.ordersWebhookURL, request.principal.profile) }
            : {}),
        });
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchant/:merchantId/status',
      access: MERCHANT_READ,
      summary: 'Whether the merchant receives orders (Open Delivery 1.7’s merchant status)',
      description:
        'Open Delivery 1.7’s `GET /v1/merchant/{id}/status`, for both profiles: `status` is AVAILABLE or UNAVAILABLE ' +
        '(the order-receiving switch), `services` is empty (service hours are kept by the platform) and ' +
        '`orderingAppMerchantId` is the merchant’s id here. A paused store (D43) is UNAVAILABLE; a `cleaver` key also ' +
        'gets `pause` ({reason, until} or null), which Open Delivery has no field for. Only the token’s own merchant: any other id is 404 ' +
        '`Merchant not found` (D21).',
      schema: {
        tags: ['merchant'],
        params: Type.Object({ merchantId: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: {
          200: Type.Object({ ...OdMerchantAvailability.properties, pause: Type.Optional(PauseView) }),
          ...errorResponses(400, 401, 404, 429),
        },
      },
      handler: async (request) => {
        // D21: another merchant's id (or one that is no merchant) is answered as unknown.
        if (request.params.merchantId.toLowerCase() !== request.principal.merchantId.toLowerCase()) {
          throw merchantNotFound();
        }
        const merchant = await merchants.requireMerchant(request.principal.merchantId);
        // D43: a paused store is UNAVAILABLE, Open Delivery's own field; Open Delivery has none for
        // the pause's reason and end, so only a `cleaver` key is shown them (`pause`).
        const pause = merchants.currentPause(merchant);
        return {
          status: merchant.status,
          services: [],
          orderingAppMerchantId: merchant.id,
          ...(isOpenDelivery(request.principal) ? {} : { pause }),
        };
      },
    }),
  );
};
