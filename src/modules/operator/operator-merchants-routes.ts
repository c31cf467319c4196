import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { encodeTimeCursor, page } from '../../lib/cursor.js';
import { notFound } from '../../lib/errors.js';
import { toNumber } from '../../lib/money.js';
import { setNextLink } from '../../lib/pagination.js';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import type { AuthService, IntegrationKeyRow } from '../auth/index.js';
import type { SyncView } from '../catalog/index.js';
import type { MerchantRow, MerchantsService } from '../merchants/index.js';
import { type KeyPresence, KeyUsage, type UsageService } from '../usage/index.js';
import {
  CreatedIntegrationKey,
  CreateIntegrationKeyBody,
  CreateMerchantBody,
  IntegrationKeySummary,
  ListQuery,
  MerchantDetail,
  MerchantHistoryEntry,
  MerchantIdParams,
  MerchantSummary,
  UpdatedMerchant,
  UpdateIntegrationKeyBody,
  UpdateMerchantBody,
} from './operator-schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A key wherever keys are listed: never its secret (D27: with its profile). */
const toKeySummary = (k: IntegrationKeyRow) => ({
  keyId: k.id,
  name: k.name,
  profile: k.profile,
  createdAt: k.created_at.toISOString(),
  lastUsedAt: iso(k.last_used_at),
});

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
  lastCatalogSync?: (merchantId: string) => Promise<Static<typeof SyncView> | null>;
  usage: Pick<UsageService, 'presenceOf' | 'usageOf'>;
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
        summary: 'List merchants, oldest first, a page at a time; search by name, id or POS code',
        description:
          'Paged as operator-api.md says: `limit` (default 100, at most 1000) and `cursor`; the next page is in the ' +
          '`Link: <…>; rel="next"` header. `q` matches part of the name (any case) or exactly the id or the POS code.',
        querystring: ListQuery,
        response: { 200: Type.Array(MerchantSummary), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const limit = request.query.limit ?? 100;
      const rows = await merchants.listMerchants({ ...request.query, limit: limit + 1 });
      const { items, next } = page(rows, limit, (m) => encodeTimeCursor(m.created_at, m.id));
      setNextLink(request, reply, next);
      return items.map(toMerchantSummary);
    },
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
      const presence = await deps.usage.presenceOf(keys.map((k) => k.id));
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
          ...toKeySummary(k),
          presence: presence.get(k.id) as Static<typeof KeyPresence>,
        })),
        lastCatalogSync,
        weighingTolerancePercent: toNumber(m.weighing_tolerance_percent),
      };
    },
  );

  app.get(
    '/merchants/:merchantId/history',
    {
      schema: {
        tags: ['operator'],
        summary: "The merchant's history: changes of its order-receiving switch, newest first",
        params: MerchantIdParams,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
        response: { 200: Type.Array(MerchantHistoryEntry), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      (await merchants.history(request.params.merchantId, request.query.limit)) as Array<
        Static<typeof MerchantHistoryEntry>
      >,
  );

  app.get(
    '/merchants/:merchantId/integrationKeys/:keyId/usage',
    {
      schema: {
        tags: ['operator'],
        summary: 'What the POS behind a key does: presence, and requests, 4xx, 429 and latency per route group',
        description:
          'Counters per route group (poll, acknowledge, orders-read, order-actions, catalog, onboarding, other) over ' +
          'the last `hours` (default 6), totals and an hourly series, so support can tell an integrator what it is ' +
          'doing wrong. Figures are written every few seconds, so the last seconds may be missing.',
        params: Type.Object({ merchantId: Uuid(), keyId: Uuid() }),
        querystring: Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 168 })) }),
        response: { 200: KeyUsage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const keys = await auth.listIntegrationKeys(request.params.merchantId);
      if (!keys.some((k) => k.id === request.params.keyId)) throw notFound('Integration key not found');
      return deps.usage.usageOf(request.params.keyId, request.query.hours ?? 6);
    },
  );

  app.patch(
    '/merchants/:merchantId',
    {
      schema: {
        tags: ['operator'],
        summary: 'Rename a merchant, switch its order-receiving status or set its weighing tolerance (D38)',
        params: MerchantIdParams,
        body: UpdateMerchantBody,
        response: { 200: UpdatedMerchant, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const m = await merchants.updateMerchant(request.params.merchantId, request.body);
      return { ...toMerchantSummary(m), weighingTolerancePercent: toNumber(m.weighing_tolerance_percent) };
    },
  );

  app.post(
    '/merchants/:merchantId/integrationKeys',
    {
      schema: {
        tags: ['operator'],
        summary: 'Create an integration key; the client secret is shown only in this answer',
        description: 'profile (D27): `cleaver` (default) or `opendelivery`.',
        params: MerchantIdParams,
        body: Type.Optional(CreateIntegrationKeyBody),
        response: { 201: CreatedIntegrationKey, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const m = await merchants.requireMerchant(request.params.merchantId);
      const key = await auth.createIntegrationKey(m.id, request.body?.name, request.body?.profile);
      return reply.code(201).header('cache-control', 'no-store').send(key);
    },
  );

  app.patch(
    '/merchants/:merchantId/integrationKeys/:keyId',
    {
      schema: {
        tags: ['operator'],
        summary: "Change a key's profile (D27); its next request speaks the new one",
        description:
          'Takes effect at once on this process and within a second on every other. Events the key polled ' +
          'before keep the eventId it was shown: acknowledgment accepts either form (D28).',
        params: Type.Object({ merchantId: Uuid(), keyId: Uuid() }),
        body: UpdateIntegrationKeyBody,
        response: { 200: IntegrationKeySummary, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await merchants.requireMerchant(request.params.merchantId);
      const key = await auth.setIntegrationKeyProfile(
        request.params.merchantId,
        request.params.keyId,
        request.body.profile,
      );
      if (!key) throw notFound('Integration key not found');
      const presence = await deps.usage.presenceOf([key.id]);
      return { ...toKeySummary(key), presence: presence.get(key.id) as Static<typeof KeyPresence> };
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
