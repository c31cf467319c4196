import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { sendCreatedSecret } from '../../lib/answers.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { toNumber } from '../../lib/money.js';
import { PAGED_LIST, sendTimePage } from '../../lib/pagination.js';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import { errorResponses, NoContent, Uuid, withFieldDescriptions } from '../../lib/schemas.js';
import type { AuthService, IntegrationKeyRow } from '../auth/index.js';
import type { SyncView } from '../catalog/index.js';
import type { OptInEventType } from '../events/index.js';
import { type MerchantRow, type MerchantsService, schedulingOf, webhookTargetOf } from '../merchants/index.js';
import { parseSettlementSettings, type StatementsService } from '../statements/index.js';
import { type KeyPresence, KeyUsage, type UsageService } from '../usage/index.js';
import {
  CreatedIntegrationKey,
  CreateIntegrationKeyBody,
  CreateMerchantBody,
  createByPath,
  IntegrationKeySummary,
  ListQuery,
  MerchantDetail,
  MerchantHistoryEntry,
  MerchantIdParams,
  MerchantSummary,
  readByPath,
  UpdatedMerchant,
  UpdateIntegrationKeyBody,
  UpdateMerchantBody,
} from './admin-schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** D42: the merchant's weighing approval settings, as its views show them. */
const weighingApprovalOf = (m: MerchantRow) => ({
  weighingOutOfTolerance: m.weighing_out_of_tolerance,
  weighingApprovalSeconds: m.weighing_approval_seconds,
  weighingApprovalDefault: m.weighing_approval_default,
});

/** A key wherever keys are listed: never its secret (D27: with its profile). */
const toKeySummary = (k: IntegrationKeyRow) => ({
  keyId: k.id,
  name: k.name,
  profile: k.profile,
  extraEventTypes: k.extra_event_types as OptInEventType[],
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
  /** D45: the merchant's commission and settlement cycle. */
  statements: Pick<StatementsService, 'settingsOf' | 'updateSettings'>;
}

export const adminMerchantsRoutes: FastifyPluginAsyncTypebox<OperatorMerchantsDeps> = async (app, deps) => {
  const { merchants, auth } = deps;

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants',
      access: { role: 'admin', auditAction: 'merchant.create' },
      summary: 'Create a merchant',
      description:
        'Creates a merchant, optionally with its first integration key (whose client secret is shown only in ' +
        'this answer). Errors: 400 for a missing name; 409 when the id is taken.',
      schema: {
        tags: ['operator'],
        body: CreateMerchantBody,
        response: { 201: MerchantSummary, ...errorResponses(400, 401, 409) },
      },
      handler: async (request, reply) => {
        const row = await merchants.createMerchant(request.body);
        return reply.code(201).send(toMerchantSummary(row));
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants',
      access: READ_WITH_PLATFORM,
      summary: 'List merchants, oldest first, a page at a time; search by name, id or POS code',
      description: `${PAGED_LIST} \`q\` matches part of the name (any case) or exactly the id or the POS code.`,
      schema: {
        tags: ['operator'],
        querystring: ListQuery,
        response: {
          200: Type.Array(
            withFieldDescriptions(MerchantSummary, {
              status: 'Whether the merchant receives orders: AVAILABLE or UNAVAILABLE.',
            }),
          ),
          ...errorResponses(400, 401),
        },
      },
      handler: async (request, reply) => {
        const items = await sendTimePage(request, reply, request.query.limit, (limit) =>
          merchants.listMerchants({ ...request.query, limit }),
        );
        return items.map(toMerchantSummary);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId',
      access: READ_WITH_PLATFORM,
      summary: 'A merchant with onboarding settings, integration keys and last catalog sync',
      description:
        'A merchant with its onboarding settings (webhook URL and whether it is disabled, catalog endpoint), ' +
        'its integration keys (never their secrets) with last use and presence, and its last catalog sync. ' +
        'Errors: 404.',
      schema: readByPath(['operator'], MerchantIdParams, MerchantDetail),
      handler: async (request) => {
        const m = await merchants.requireMerchant(request.params.merchantId);
        const [keys, lastCatalogSync] = await Promise.all([
          auth.listIntegrationKeys(m.id),
          deps.lastCatalogSync ? deps.lastCatalogSync(m.id) : Promise.resolve(null),
        ]);
        const [presence, settlement] = await Promise.all([
          deps.usage.presenceOf(keys.map((k) => k.id)),
          deps.statements.settingsOf(m.id),
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
            // D40: the address events go to, in the dialect of the key that registered it (D28).
            webhookTarget: m.orders_webhook_url
              ? webhookTargetOf(m.orders_webhook_url, keys.find((k) => k.id === m.webhook_key_id)?.profile ?? 'cleaver')
              : null,
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
          ...settlement,
          ...weighingApprovalOf(m),
          scheduling: schedulingOf(m.scheduling),
          pause: merchants.currentPause(m),
        };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/history',
      access: { role: 'viewer' },
      summary: "The merchant's history: changes of its order-receiving switch, newest first",
      description:
        'Each change of the merchant’s order-receiving switch: when, from what to what, by whom. Errors: 404.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
        response: { 200: Type.Array(MerchantHistoryEntry), ...errorResponses(400, 401, 404) },
      },
      handler: async (request) =>
        (await merchants.history(request.params.merchantId, request.query.limit)) as Array<
          Static<typeof MerchantHistoryEntry>
        >,
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/integrationKeys/:keyId/usage',
      access: { role: 'viewer' },
      summary: 'What the POS behind a key does: presence, and requests, 4xx, 429 and latency per route group',
      description:
        'Counters per route group (poll, acknowledge, orders-read, order-actions, catalog, onboarding, other) over ' +
        'the last `hours` (default 6), totals and an hourly series, so support can tell an integrator what it is ' +
        'doing wrong. Figures are written every few seconds, so the last seconds may be missing.',
      schema: {
        tags: ['operator'],
        params: Type.Object({ merchantId: Uuid(), keyId: Uuid() }),
        querystring: Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 168 })) }),
        response: { 200: KeyUsage, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        const keys = await auth.listIntegrationKeys(request.params.merchantId);
        if (!keys.some((k) => k.id === request.params.keyId)) throw notFound('Integration key not found');
        return deps.usage.usageOf(request.params.keyId, request.query.hours ?? 6);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'PATCH',
      url: '/merchants/:merchantId',
      access: { role: 'admin', auditAction: 'merchant.update' },
      summary:
        'Rename a merchant, switch its order-receiving status, set its weighing tolerance (D38) or its settlement (D45)',
      description:
        'Renames a merchant, switches whether it receives orders (status AVAILABLE or UNAVAILABLE; each ' +
        'switch is kept in the merchant’s history) or sets its weighing tolerance: how far, in percent of the ' +
        'ordered quantity, a weighed KG line may be from what the customer ordered (0 to 100, default 20), and ' +
        'what a weighing out of it does (D42: weighingOutOfTolerance, weighingApprovalSeconds, ' +
        'weighingApprovalDefault). ' +
        '`scheduling` (D44) sets encomendas’ slots, capacity, horizon, confirmation time and store hours. ' +
        'Sets its settlement (D45): commissionPercent (0 to 100, default 12) and settlementCycle (DAILY or ' +
        'WEEKLY, default WEEKLY). Audited. Errors: 400 for an empty change or a tolerance or commission outside ' +
        '0–100 or with more than 2 decimals; 404.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        body: UpdateMerchantBody,
        response: { 200: UpdatedMerchant, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        // D45: the settlement settings are checked whole before anything is written.
        const settlement = parseSettlementSettings(request.body);
        const m = await merchants.updateMerchant(request.params.merchantId, request.body);
        const settings = settlement
          ? await deps.statements.updateSettings(m.id, settlement)
          : await deps.statements.settingsOf(m.id);
        return {
          ...toMerchantSummary(m),
          weighingTolerancePercent: toNumber(m.weighing_tolerance_percent),
          ...settings,
          ...weighingApprovalOf(m),
          scheduling: schedulingOf(m.scheduling),
        };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/integrationKeys',
      access: { role: 'admin', auditAction: 'integrationKey.create' },
      summary: 'Create an integration key; the client secret is shown only in this answer',
      description: 'profile (D27): `cleaver` (default) or `opendelivery`.',
      schema: createByPath(
        ['operator'],
        MerchantIdParams,
        Type.Optional(CreateIntegrationKeyBody),
        CreatedIntegrationKey,
      ),
      handler: async (request, reply) => {
        const m = await merchants.requireMerchant(request.params.merchantId);
        const key = await auth.createIntegrationKey(m.id, request.body?.name, request.body?.profile);
        return sendCreatedSecret(reply, key);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'PATCH',
      url: '/merchants/:merchantId/integrationKeys/:keyId',
      access: { role: 'admin', auditAction: 'integrationKey.update' },
      summary: "Change a key's profile (D27) or its opt-in event types (D42)",
      description:
        'profile: takes effect at once on this process and within a second on every other. Events the key polled ' +
        'before keep the eventId it was shown: acknowledgment accepts either form (D28). extraEventTypes: the ' +
        'opt-in event types the key receives from now on (`WEIGHING_DECIDED`, D42); no other key ever receives them.',
      schema: {
        tags: ['operator'],
        params: Type.Object({ merchantId: Uuid(), keyId: Uuid() }),
        body: UpdateIntegrationKeyBody,
        response: {
          200: withFieldDescriptions(IntegrationKeySummary, { name: 'Its name as shown to people.' }),
          ...errorResponses(400, 401, 404),
        },
      },
      handler: async (request) => {
        await merchants.requireMerchant(request.params.merchantId);
        const { merchantId, keyId } = request.params;
        const { profile, extraEventTypes } = request.body;
        if (profile === undefined && extraEventTypes === undefined) {
          throw badRequest('body must name profile or extraEventTypes');
        }
        // D42 beside D27: the opt-in types first, so the answer shows both changes.
        let key = extraEventTypes
          ? await auth.setIntegrationKeyExtraEventTypes(merchantId, keyId, extraEventTypes)
          : undefined;
        if (profile !== undefined) key = await auth.setIntegrationKeyProfile(merchantId, keyId, profile);
        if (!key) throw notFound('Integration key not found');
        const presence = await deps.usage.presenceOf([key.id]);
        return { ...toKeySummary(key), presence: presence.get(key.id) as Static<typeof KeyPresence> };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/merchants/:merchantId/integrationKeys/:keyId',
      access: { role: 'admin', auditAction: 'integrationKey.revoke' },
      summary: 'Delete an integration key; its tokens stop working at once',
      description:
        'Deletes a key: its tokens stop working at once (401) and its pending events are no longer polled by ' +
        'it. Webhooks it registered are signed with the newest other key. Audited. Errors: 404.',
      schema: {
        tags: ['operator'],
        params: Type.Object({ merchantId: Uuid(), keyId: Uuid() }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
      handler: async (request, reply) => {
        await merchants.requireMerchant(request.params.merchantId);
        const deleted = await auth.deleteIntegrationKey(request.params.merchantId, request.params.keyId);
        if (!deleted) throw notFound('Integration key not found');
        return reply.code(204).send(null);
      },
    }),
  );
};
