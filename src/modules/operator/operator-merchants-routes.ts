import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../lib/errors.js';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import type { AuthService } from '../auth/auth-service.js';
import type { MerchantRow } from '../merchants/merchants-repository.js';
import type { MerchantsService } from '../merchants/merchants-service.js';
import {
  CreatedIntegrationKey,
  CreateMerchantBody,
  MerchantDetail,
  MerchantIdParams,
  MerchantSummary,
  UpdateMerchantBody,
} from './operator-schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toMerchantSummary = (m: MerchantRow) => ({
  id: m.id,
  name: m.name,
  status: m.status,
  createdAt: m.created_at.toISOString(),
});

export interface OperatorMerchantsDeps {
  merchants: MerchantsService;
  auth: AuthService;
  /** The last catalog sync of a merchant, supplied by the catalog module once it exists. */
  lastCatalogSync?: (merchantId: string) => Promise<Record<string, unknown> | null>;
}

export const operatorMerchantsRoutes: FastifyPluginAsyncTypebox<OperatorMerchantsDeps> = async (app, deps) => {
  const { merchants, auth } = deps;

  app.post(
    '/merchants',
    {
      schema: {
        tags: ['operator'],
        summary: 'Create a merchant',
        body: CreateMerchantBody,
        response: { 201: MerchantSummary, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const row = await merchants.createMerchant(request.body);
      return reply.code(201).send(toMerchantSummary(row));
    },
  );

  app.get(
    '/merchants',
    {
      schema: {
        tags: ['operator'],
        summary: 'List merchants',
        response: { 200: Type.Array(MerchantSummary), ...errorResponses(401) },
      },
    },
    async () => (await merchants.listMerchants()).map(toMerchantSummary),
  );

  app.get(
    '/merchants/:merchantId',
    {
      schema: {
        tags: ['operator'],
        summary: 'A merchant with onboarding settings, integration keys and last catalog sync',
        params: MerchantIdParams,
        response: { 200: MerchantDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const m = await merchants.requireMerchant(request.params.merchantId);
      const [keys, lastCatalogSync] = await Promise.all([
        auth.listIntegrationKeys(m.id),
        deps.lastCatalogSync ? deps.lastCatalogSync(m.id) : Promise.resolve(null),
      ]);
      return {
        id: m.id,
        name: m.name,
        status: m.status,
        pdvExternalId: m.pdv_external_id,
        createdAt: m.created_at.toISOString(),
        updatedAt: m.updated_at.toISOString(),
        onboarding: {
          ordersWebhookURL: m.orders_webhook_url,
          webhookKeyId: m.webhook_key_id,
          webhookDisabledAt: iso(m.webhook_disabled_at),
          getMerchantURL: m.get_merchant_base_url
            ? { baseURL: m.get_merchant_base_url, apiKeySet: m.get_merchant_api_key_enc !== null }
            : null,
          onboardedAt: iso(m.onboarded_at),
        },
        integrationKeys: keys.map((k) => ({
          keyId: k.id,
          name: k.name,
          createdAt: k.created_at.toISOString(),
          lastUsedAt: iso(k.last_used_at),
        })),
        lastCatalogSync,
      };
    },
  );

  app.patch(
    '/merchants/:merchantId',
    {
      schema: {
        tags: ['operator'],
        summary: 'Rename a merchant or switch its order-receiving status',
        params: MerchantIdParams,
        body: UpdateMerchantBody,
        response: { 200: MerchantSummary, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => toMerchantSummary(await merchants.updateMerchant(request.params.merchantId, request.body)),
  );

  app.post(
    '/merchants/:merchantId/integrationKeys',
    {
      schema: {
        tags: ['operator'],
        summary: 'Create an integration key; the client secret is shown only in this answer',
        params: MerchantIdParams,
        body: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })) })),
        response: { 201: CreatedIntegrationKey, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const m = await merchants.requireMerchant(request.params.merchantId);
      const key = await auth.createIntegrationKey(m.id, request.body?.name);
      return reply.code(201).header('cache-control', 'no-store').send(key);
    },
  );

  app.delete(
    '/merchants/:merchantId/integrationKeys/:keyId',
    {
      schema: {
        tags: ['operator'],
        summary: 'Delete an integration key; its tokens stop working at once',
        params: Type.Object({ merchantId: Uuid(), keyId: Uuid() }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await merchants.requireMerchant(request.params.merchantId);
      const deleted = await auth.deleteIntegrationKey(request.params.merchantId, request.params.keyId);
      if (!deleted) throw notFound('Integration key not found');
      return reply.code(204).send(null);
    },
  );
};
