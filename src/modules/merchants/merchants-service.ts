import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AuthService } from '../auth/auth-service.js';
import type { Principal } from '../auth/token-cache.js';
import type { MerchantRow } from './merchants-repository.js';
import * as repo from './merchants-repository.js';

export const merchantNotFound = () => notFound('Merchant not found');

export interface IntegrationConfig {
  getMerchantURL: { baseURL: string; apiKey: string } | null;
  ordersWebhookURL: string | null;
}

export interface OnboardingInput {
  ordersWebhookURL: string;
  getMerchantURL?: { baseURL: string; apiKey: string };
  merchantId?: string;
}

/**
 * Spec 4.2: a base address only (no path, no query, no trailing slash); the platform appends
 * `/v1/orderUpdate`. D12: production accepts https only.
 */
export function checkWebhookBaseUrl(raw: string, env: Config['env']): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('ordersWebhookURL must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw badRequest('ordersWebhookURL must use http or https');
  }
  if (env === 'production' && url.protocol !== 'https:') throw badRequest('ordersWebhookURL must use https');
  if (url.username || url.password) throw badRequest('ordersWebhookURL must not contain credentials');
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    throw badRequest('ordersWebhookURL must be a base URL without query or fragment');
  }
  if (raw.endsWith('/')) throw badRequest('ordersWebhookURL must not end with a slash');
  if (url.pathname !== '/') throw badRequest('ordersWebhookURL must be a base URL without a path');
}

function checkHttpUrl(field: string, raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`${field} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`${field} must use http or https`);
}

export function createMerchantsService(deps: { db: Db; clock: Clock; auth: AuthService; env: Config['env'] }) {
  const { db, clock, auth } = deps;

  function integrationConfig(row: MerchantRow): IntegrationConfig {
    return {
      getMerchantURL:
        row.get_merchant_base_url && row.get_merchant_api_key_enc
          ? { baseURL: row.get_merchant_base_url, apiKey: auth.openSecret(row.get_merchant_api_key_enc) }
          : null,
      ordersWebhookURL: row.orders_webhook_url,
    };
  }

  async function requireMerchant(id: string): Promise<MerchantRow> {
    const merchant = await repo.findMerchant(db, id);
    if (!merchant) throw merchantNotFound();
    return merchant;
  }

  return {
    requireMerchant,
    findMerchant: (id: string) => repo.findMerchant(db, id),
    listMerchants: () => repo.listMerchants(db),
    integrationConfig,

    async createMerchant(input: { id?: string; name: string; status?: 'AVAILABLE' | 'UNAVAILABLE' }) {
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be empty');
      const row = await repo.insertMerchant(db, {
        id: input.id ?? newId(),
        name,
        status: input.status ?? 'AVAILABLE',
        createdAt: clock.now(),
      });
      if (!row) throw conflict('A merchant with this id already exists');
      return row;
    },

    async updateMerchant(id: string, changes: { name?: string; status?: 'AVAILABLE' | 'UNAVAILABLE' }) {
      if (changes.name !== undefined && !changes.name.trim()) throw badRequest('name must not be empty');
      const row = await repo.updateMerchantProfile(db, id, { ...changes, name: changes.name?.trim() }, clock.now());
      if (!row) throw merchantNotFound();
      return row;
    },

    /** PUT /v1/merchantOnboarding (spec 4.2, D21, D10). */
    async onboard(principal: Principal, input: OnboardingInput, queryMerchantId?: string): Promise<IntegrationConfig> {
      for (const given of [input.merchantId, queryMerchantId]) {
        if (given !== undefined && given !== principal.merchantId) {
          throw badRequest('merchantId must be the merchant of the access token');
        }
      }
      checkWebhookBaseUrl(input.ordersWebhookURL, deps.env);
      if (input.getMerchantURL) {
        checkHttpUrl('getMerchantURL.baseURL', input.getMerchantURL.baseURL);
        if (!input.getMerchantURL.apiKey.trim()) throw badRequest('getMerchantURL.apiKey must not be empty');
      }
      const row = await repo.updateOnboarding(
        db,
        principal.merchantId,
        {
          ordersWebhookURL: input.ordersWebhookURL,
          webhookKeyId: principal.keyId,
          getMerchantURL: input.getMerchantURL && {
            baseURL: input.getMerchantURL.baseURL.replace(/\/+$/, ''),
            apiKeyEnc: auth.sealSecret(input.getMerchantURL.apiKey),
          },
        },
        clock.now(),
      );
      if (!row) throw merchantNotFound();
      return integrationConfig(row);
    },
  };
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
