import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, Uuid } from '../../lib/schemas.js';
import { isOpenDelivery } from '../auth/index.js';
import { OdMerchantApiInfo } from '../opendelivery/index.js';
import type { MerchantsService } from './merchants-service.js';

export const IntegrationConfigSchema = Type.Object({
  getMerchantURL: Type.Union([Type.Object({ baseURL: Type.String(), apiKey: Type.String() }), Type.Null()]),
  ordersWebhookURL: Type.Union([Type.String(), Type.Null()]),
});

const OnboardingBody = Type.Object({
  ordersWebhookURL: Type.String({ minLength: 1, maxLength: 2048 }),
  getMerchantURL: Type.Optional(
    Type.Object({
      baseURL: Type.String({ minLength: 1, maxLength: 2048 }),
      apiKey: Type.String({ minLength: 1, maxLength: 1024 }),
    }),
  ),
  merchantId: Type.Optional(Uuid()),
});

export const onboardingRoutes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService }> = async (
  app,
  { merchants },
) => {
  app.put(
    '/merchantOnboarding',
    {
      schema: {
        tags: ['merchant'],
        summary: 'Register the webhook base URL and the POS catalog endpoint (spec 4.2)',
        description:
          'A `cleaver` key gets 200 with the integration configuration (spec 2.2, getMerchantURL null when never ' +
          'registered). An `opendelivery` key gets 201 with Open Delivery’s MerchantAPIInfo, which leaves out what ' +
          'is not registered (D28); its webhooks then go to {ordersWebhookURL}/v1/newEvent.',
        security: [{ bearer: [] }],
        querystring: Type.Object({ merchantId: Type.Optional(Uuid()) }),
        body: OnboardingBody,
        response: {
          200: IntegrationConfigSchema,
          201: OdMerchantApiInfo,
          ...errorResponses(400, 401, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const config = await merchants.onboard(request.principal, request.body, request.query.merchantId);
      if (!isOpenDelivery(request.principal)) return config;
      return reply.code(201).send({
        ...(config.getMerchantURL ? { getMerchantURL: config.getMerchantURL } : {}),
        ...(config.ordersWebhookURL ? { ordersWebhookURL: config.ordersWebhookURL } : {}),
      });
    },
  );
};
