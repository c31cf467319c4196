import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { decodeTimeCursor } from '../../lib/cursor.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { Decimal, toDecimalString } from '../../lib/money.js';
import type { LookupFn } from '../../lib/net/address-guard.js';
import { privateTargetReason } from '../../lib/net/outbound-url.js';
import type { AuthService, Principal } from '../auth/index.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import { checkLayouts, type ScaleLabelLayout } from '../scale-labels/index.js';
import { createMerchantPause } from './merchant-pause.js';
import type { MerchantRow } from './merchants-repository.js';
import * as repo from './merchants-repository.js';
import { checkScheduling, type Scheduling, schedulingOf } from './scheduling-settings.js';
import { webhookBaseOf } from './webhook-address.js';

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
 * `/v1/orderUpdate`. D12: production accepts https only. D35: for an opendelivery key the
 * address may end in a path prefix of the POS's own (`/v1/newEvent` is appended to it), still
 * without query, fragment or trailing slash.
 */
export function checkWebhookBaseUrl(raw: string, env: Config['env'], options: { pathPrefix?: boolean } = {}): void {
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
  if (url.pathname === '/') return;
  if (!options.pathPrefix) throw badRequest('ordersWebhookURL must be a base URL without a path');
  // The path is appended to as written: no empty or dot segments that a server would read otherwise.
  const pathStart = raw.indexOf('/', raw.indexOf('//') + 2);
  if (pathStart < 0 || raw.includes('\\') || /\/\/|\/\.\.?(\/|$)|%2e|%2f/i.test(raw.slice(pathStart))) {
    throw badRequest('ordersWebhookURL must have a plain path prefix (no empty, dot or encoded-slash segments)');
  }
}

function checkHttpUrl(field: string, raw: string, env: Config['env']): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`${field} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`${field} must use http or https`);
  if (env === 'production' && url.protocol !== 'https:') throw badRequest(`${field} must use https`);
  if (url.username || url.password) throw badRequest(`${field} must not contain credentials`);
}

export function createMerchantsService(deps: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  env: Config['env'];
  /** DNS resolution for the registration-time address check (tests: a fake resolver). */
  lookup?: LookupFn;
  /** D36: the platform feed (STATUS_CHANGED, ONBOARDING_CHANGED), in each change's transaction. */
  feed?: FeedRecorder;
}) {
  const { db, clock, auth } = deps;
  const feed = deps.feed ?? noFeed;
  /** D36: `merchant STATUS_CHANGED`, who switched it: the POS, an operator or presence. */
  const feedStatus = (
    tx: Queryable,
    merchantId: string,
    status: string,
    by: 'pos' | 'operator' | 'presence',
    at: Date,
  ) => feed(tx, { kind: 'merchant', type: 'STATUS_CHANGED', merchantId, occurredAt: at, data: { status, by } });

  /** D12 at registration: production refuses a URL already known to point inside our network. */
  async function refusePrivateTarget(field: string, raw: string): Promise<void> {
    if (deps.env !== 'production') return;
    const reason = await privateTargetReason(new URL(raw), deps.lookup);
    if (reason) throw badRequest(`${field} must point to a public internet address (${reason} is not allowed)`);
  }

  function integrationConfig(row: MerchantRow): IntegrationConfig {
    return {
      getMerchantURL:
        row.get_merchant_base_url && row.get_merchant_api_key_enc
          ? { baseURL: row.get_merchant_base_url, apiKey: auth.openSecret(row.get_merchant_api_key_enc) }
          : null,
      ordersWebhookURL: row.orders_webhook_url,
    };
  }

  /** Name or status change, with the status change written in the merchant's history. */
  async function changeProfile(
    id: string,
    changes: {
      name?: string;
      status?: 'AVAILABLE' | 'UNAVAILABLE';
      weighingTolerancePercent?: string;
    } & repo.WeighingApprovalSettings,
    by: 'operator' | 'pos-notification',
  ): Promise<MerchantRow> {
    const at = clock.now();
    const row = await db.transaction(async (tx) => {
      const updated = await repo.updateMerchantProfile(tx, id, changes, at);
      if (updated && changes.status && updated.previous_status !== changes.status) {
        await repo.insertHistory(tx, {
          merchantId: id,
          at,
          kind: 'status',
          detail: { from: updated.previous_status, to: changes.status, by },
        });
        await feedStatus(tx, id, changes.status, by === 'operator' ? 'operator' : 'pos', at);
      }
      return updated;
    });
    if (!row) throw merchantNotFound();
    return row;
  }

  async function requireMerchant(id: string): Promise<MerchantRow> {
    const merchant = await repo.findMerchant(db, id);
    if (!merchant) throw merchantNotFound();
    return merchant;
  }

  return {
    // D43: the store's timed pause (merchant-pause.ts).
    ...createMerchantPause({ db, clock, feed }),
    requireMerchant,
    findMerchant: (id: string) => repo.findMerchant(db, id),
    /** Which of these ids are merchants (the logistics module links apps to them). */
    existingMerchantIds: (ids: string[]) => repo.existingMerchantIds(db, ids),
    merchantNames: (ids: string[]) => repo.merchantNames(db, ids),
    /** All merchants (console pickers), or a page of them matching `q` (operator-api.md#lists). */
    listMerchants: (filter: { q?: string; status?: string; cursor?: string; limit?: number } = {}) =>
      repo.listMerchants(db, { ...filter, after: decodeTimeCursor(filter.cursor) }),
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

    /**
     * An operator renames a merchant, turns its order-receiving switch (written in its history)
     * or sets its weighing tolerance (D38: 0 to 100 %, at most two decimal places).
     */
    async updateMerchant(
      id: string,
      changes: {
        name?: string;
        status?: 'AVAILABLE' | 'UNAVAILABLE';
        weighingTolerancePercent?: number;
        scheduling?: Partial<Scheduling>;
      } & repo.WeighingApprovalSettings,
    ) {
      if (changes.name !== undefined && !changes.name.trim()) throw badRequest('name must not be empty');
      let tolerance: string | undefined;
      if (changes.weighingTolerancePercent !== undefined) {
        tolerance = toDecimalString(changes.weighingTolerancePercent, 'weighingTolerancePercent');
        if (new Decimal(tolerance).greaterThan(100)) throw badRequest('weighingTolerancePercent must be at most 100');
        if (new Decimal(tolerance).decimalPlaces() > 2) {
          throw badRequest('weighingTolerancePercent has more than 2 decimal places');
        }
      }
      const { weighingOutOfTolerance, weighingApprovalSeconds, weighingApprovalDefault } = changes;
      // D44: the scheduling settings sent, over the current ones (400 naming the field).
      if (changes.scheduling !== undefined) {
        const current = await requireMerchant(id);
        const next = checkScheduling(changes.scheduling, schedulingOf(current.scheduling));
        await repo.setScheduling(db, id, { ...next }, clock.now());
      }
      return changeProfile(
        id,
        {
          name: changes.name?.trim(),
          status: changes.status,
          weighingTolerancePercent: tolerance,
          weighingOutOfTolerance,
          weighingApprovalSeconds,
          weighingApprovalDefault,
        },
        'operator',
      );
    },

    /** D41: the merchant's scale label layouts, tried in order. */
    scaleLabelLayouts: async (id: string) => (await requireMerchant(id)).scale_label_layouts,

    /** D41: replaces the layouts, each checked (400 naming the field, nothing written). */
    async setScaleLabelLayouts(id: string, layouts: ScaleLabelLayout[]) {
      const written = await repo.setScaleLabelLayouts(db, id, checkLayouts(layouts), clock.now());
      if (!written) throw merchantNotFound();
      return written;
    },

    /** Spec 4.3: what a MERCHANT upload says of the merchant, in the catalog's transaction. */
    async applyCatalogIdentity(
      tx: Queryable,
      merchantId: string,
      identity: { status: 'AVAILABLE' | 'UNAVAILABLE'; pdvExternalId: string },
      at: Date,
    ): Promise<void> {
      const changed = await repo.applyCatalogIdentity(tx, merchantId, identity, at);
      if (changed && changed.previousStatus !== identity.status) {
        await feedStatus(tx, merchantId, identity.status, 'pos', at);
      }
    },

    /** Spec 3.3 / D29: the order-receiving switch alone (Open Delivery's merchantStatus notification). */
    async setStatus(merchantId: string, status: 'AVAILABLE' | 'UNAVAILABLE'): Promise<void> {
      await changeProfile(merchantId, { status }, 'pos-notification');
    },

    // ---- presence (the usage module asks; the switch and its history are ours) --------------

    /** A merchant whose POS has been silent since `silentSince` goes UNAVAILABLE (opt-in). */
    async switchOffSilent(merchantId: string, silentSince: Date): Promise<boolean> {
      const at = clock.now();
      return db.transaction(async (tx) => {
        if (!(await repo.switchOffByPresence(tx, merchantId, at))) return false;
        await repo.insertHistory(tx, {
          merchantId,
          at,
          kind: 'status',
          detail: { from: 'AVAILABLE', to: 'UNAVAILABLE', by: 'presence', silentSince: silentSince.toISOString() },
        });
        await feedStatus(tx, merchantId, 'UNAVAILABLE', 'presence', at);
        return true;
      });
    },

    /** Merchants presence switched off whose POS is back: AVAILABLE again. */
    async switchBackOn(merchantIds: string[]): Promise<string[]> {
      const at = clock.now();
      return db.transaction(async (tx) => {
        const back = await repo.switchBackByPresence(tx, merchantIds, at);
        for (const merchantId of back) {
          await repo.insertHistory(tx, {
            merchantId,
            at,
            kind: 'status',
            detail: { from: 'UNAVAILABLE', to: 'AVAILABLE', by: 'presence', reason: 'the POS is back' },
          });
          await feedStatus(tx, merchantId, 'AVAILABLE', 'presence', at);
        }
        return back;
      });
    },

    autoUnavailableMerchants: () => repo.autoUnavailableIds(db),

    /** GET /admin/v1/merchants/{merchantId}/history, newest first. */
    async history(merchantId: string, limit = 100) {
      await requireMerchant(merchantId);
      return (await repo.listHistory(db, merchantId, limit)).map((h) => ({
        at: h.at.toISOString(),
        kind: h.kind,
        detail: h.detail,
      }));
    },

    /** PUT /v1/merchantOnboarding (spec 4.2, D21, D10). */
    async onboard(principal: Principal, input: OnboardingInput, queryMerchantId?: string): Promise<IntegrationConfig> {
      for (const given of [input.merchantId, queryMerchantId]) {
        if (given !== undefined && given !== principal.merchantId) {
          throw badRequest('merchantId must be the merchant of the access token');
        }
      }
      // D40: an opendelivery key's full endpoint address is stored as the base before /v1/newEvent.
      const webhookBase = webhookBaseOf(input.ordersWebhookURL, principal.profile);
      checkWebhookBaseUrl(webhookBase, deps.env, { pathPrefix: principal.profile === 'opendelivery' });
      if (input.getMerchantURL) {
        checkHttpUrl('getMerchantURL.baseURL', input.getMerchantURL.baseURL, deps.env);
        if (!input.getMerchantURL.apiKey.trim()) throw badRequest('getMerchantURL.apiKey must not be empty');
      }
      await refusePrivateTarget('ordersWebhookURL', webhookBase);
      if (input.getMerchantURL) await refusePrivateTarget('getMerchantURL.baseURL', input.getMerchantURL.baseURL);
      const at = clock.now();
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateOnboarding(
          tx,
          principal.merchantId,
          {
            ordersWebhookURL: webhookBase,
            webhookKeyId: principal.keyId,
            getMerchantURL: input.getMerchantURL && {
              baseURL: input.getMerchantURL.baseURL.replace(/\/+$/, ''),
              apiKeyEnc: auth.sealSecret(input.getMerchantURL.apiKey),
            },
          },
          at,
        );
        // D36: the addresses, never the pull key.
        if (updated) {
          await feed(tx, {
            kind: 'merchant',
            type: 'ONBOARDING_CHANGED',
            merchantId: updated.id,
            occurredAt: at,
            data: {
              ordersWebhookURL: updated.orders_webhook_url,
              getMerchantURL: updated.get_merchant_base_url ? { baseURL: updated.get_merchant_base_url } : null,
            },
          });
        }
        return updated;
      });
      if (!row) throw merchantNotFound();
      return integrationConfig(row);
    },
  };
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
