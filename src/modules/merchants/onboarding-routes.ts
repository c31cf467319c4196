import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, Uuid } from '../../lib/schemas.js';
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
    '/v1/merchantOnboarding',
    {
      schema: {
        tags: ['merchant'],
        summary: 'Register the webhook base URL and the POS catalog endpoint (spec 4.2)',
        security: [{ bearer: [] }],
        querystring: Type.Object({ merchantId: Type.Optional(Uuid()) }),
        body: OnboardingBody,
        response: { 200: IntegrationConfigSchema, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => merchants.onboard(request.principal, request.body, request.query.merchantId),
  );
};
