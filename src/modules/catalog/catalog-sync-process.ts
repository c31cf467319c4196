// Processing of one claimed catalog sync (D16, D17): an upload (PUT, spec 4.3), a pull from the
// POS (D20) or an Open Delivery notification (POST, D29). A pull fetches outside any transaction,
// decides which format the answer is in (our MERCHANT upload body or an Open Delivery Merchant)
// and skips a menu that did not change; then each sync is applied in one transaction that also
// records its outcome, compare-and-set on the worker's lease. Size: the three kinds share the
// lease check, the outcome record and the unchanged-menu test, which must not drift apart.
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import type { LookupFn } from '../../lib/net/address-guard.js';
import { createOutboundAgent } from '../../lib/net/outbound-agent.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import type { OdEntityType } from '../opendelivery/index.js';
import * as applyRepo from './catalog-apply-repository.js';
import { applyCategoryUpdates } from './catalog-category-repository.js';
import { checkEnvelope } from './catalog-envelope.js';
import { DEFAULT_PULL_LIMITS, fetchPosCatalog, type PullLimits, pullUrl } from './catalog-pull.js';
import * as pullRepo from './catalog-pull-repository.js';
import * as syncRepo from './catalog-sync-repository.js';
import {
  type Availability,
  type Discarded,
  describeOutcome,
  type KindCounts,
  type MerchantPlan,
  planUpload,
  type SyncOutcome,
  type UploadEnvelope,
  type UploadPlan,
  zeroCounts,
} from './catalog-upload-plan.js';
import { looksLikeOdMerchant, type OdMerchantPlan, planOdMerchant } from './od-merchant-plan.js';
import { type OdNotificationPlan, planOdNotification } from './od-notification-plan.js';
import { describeOdOutcome, describeUnchanged } from './od-outcome.js';

export interface CatalogMerchantPort {
  /** Spec 4.3: a MERCHANT upload's order-receiving switch and store id, in the apply transaction. */
  applyCatalogIdentity(
    tx: Queryable,
    merchantId: string,
    identity: { status: Availability; pdvExternalId: string },
    at: Date,
  ): Promise<void>;
  /** Spec 3.3 / D29: Open Delivery's merchantStatus notification switches order receiving. */
  setStatus(merchantId: string, status: Availability): Promise<void>;
}

export interface SyncProcessorDeps {
  db: Db;
  clock: Clock;
  /** The merchant's registered catalog endpoint with its clear apiKey, or null (D20). */
  getMerchantUrl?: (merchantId: string) => Promise<{ baseURL: string; apiKey: string } | null>;
  /** The merchant's own row is the merchants module's: written through it, never its table. */
  merchants: CatalogMerchantPort;
  pullLimits?: PullLimits;
  /** Production: pull only public https addresses, checked at connect time (D12, D25, D31). */
  production?: boolean;
  /** DNS resolution of outbound connections (tests prove the guard with a fake resolver). */
  lookup?: LookupFn;
  /**
   * Sandbox homologation (operator-api.md#homologation): a reason when this merchant's upload must
   * end in FAIL on purpose (spec 3.2), asked once per upload; null to process it as usual.
   */
  forcedFailure?: (merchantId: string) => Promise<string | null>;
  /** Test seam: runs inside the apply transaction just before it commits (crash simulation). */
  beforeCommit?: (syncId: string) => Promise<void> | void;
  /** D36: the platform feed's `catalog SYNC_FINISHED`, in the transaction that finishes the sync. */
  feed?: FeedRecorder;
}

/** What a sync asks for, once its payload is read. */
type Work =
  | { kind: 'cleaver'; plan: UploadPlan }
  | { kind: 'od-merchant'; merchant: OdMerchantPlan }
  | {
      kind: 'od-notify';
      merchantStatus: Availability | null;
      entityType: OdEntityType | null;
      plan: OdNotificationPlan | null;
    };

/** A pulled answer applied with SUCCESS is remembered, so the same menu is not processed again. */
interface PulledAnswer {
  url: string;
  etag: string | null;
  sha256: string;
}

/** A flat update creates and removes nothing: what it matched was either updated or unchanged. */
function flatCounts(matched: Set<string>, changed: Set<string>): KindCounts {
  const updated = [...changed].filter((id) => matched.has(id)).length;
  return { created: 0, updated, unchanged: matched.size - updated, removed: 0 };
}

export function createSyncProcessor(deps: SyncProcessorDeps) {
  const { db, clock } = deps;
  const feed = deps.feed ?? noFeed;

  /** D36: what the storefront needs to follow a finished sync. */
  async function feedFinished(tx: Queryable, sync: syncRepo.ClaimedSync, outcome: SyncOutcome, at: Date) {
    const changedProductIds =
      outcome.status === 'SUCCESS' ? await syncRepo.productIdsWrittenAt(tx, sync.merchant_id, at) : [];
    // A FAIL can be partial (D17): what it did remove is gone all the same.
    const removedProductIds = applyRepo.takeRemovedProductIds(tx);
    await feed(tx, {
      kind: 'catalog',
      type: 'SYNC_FINISHED',
      merchantId: sync.merchant_id,
      occurredAt: at,
      data: {
        syncId: sync.id,
        status: outcome.status,
        counts: outcome.details.counts,
        changedProductIds,
        removedProductIds,
      },
    });
  }

  /**
   * Records the outcome and its feed item in `tx`. Compare-and-set on the lease: if another worker
   * took the sync over, the throw rolls the transaction back.
   */
  async function finishIn(tx: Queryable, sync: syncRepo.ClaimedSync, outcome: SyncOutcome, at: Date) {
    const done = await syncRepo.finishSync(tx, {
      id: sync.id,
      owner: sync.lease_owner,
      status: outcome.status,
      moreInfo: outcome.moreInfo,
      details: outcome.details,
      at,
    });
    if (!done) throw new Error('catalog sync lease lost');
    await feedFinished(tx, sync, outcome, at);
  }

  async function finishWith(sync: syncRepo.ClaimedSync, outcome: SyncOutcome): Promise<void> {
    const at = clock.now();
    await db.transaction((tx) => finishIn(tx, sync, outcome, at));
  }

  const pullFailed = (reason: string) => describeOutcome(null, zeroCounts(), [], null, reason);

  /**
   * D20: fetches the POS answer and stores it as the sync's payload. Returns null when the sync
   * is already finished (a failed fetch, or an unchanged menu).
   */
  async function fetchPull(
    sync: syncRepo.ClaimedSync,
  ): Promise<{ payload: unknown; format: syncRepo.SyncFormat; answer: PulledAnswer } | null> {
    const target = deps.getMerchantUrl ? await deps.getMerchantUrl(sync.merchant_id) : null;
    if (!target) {
      await finishWith(sync, pullFailed('Pull failed: getMerchantURL is not registered'));
      return null;
    }
    let url: string;
    try {
      url = pullUrl(target.baseURL);
    } catch {
      url = target.baseURL; // fetchPosCatalog reports the unusable URL
    }
    // The last applied answer counts only while the catalog is what it produced and the address
    // is the same: an upload, a notification or a hand-made change since then means re-apply.
    const last = await pullRepo.findPullState(db, sync.merchant_id);
    const usable = last?.current && last.url === url ? last : undefined;
    const limits = deps.pullLimits ?? DEFAULT_PULL_LIMITS;
    const production = deps.production === true;
    // One agent per pull: pulls are rare, and nothing stays open between them.
    const dispatcher = await createOutboundAgent({
      guarded: production,
      timeoutMs: limits.timeoutMs,
      lookup: deps.lookup,
    });
    const fetched = await fetchPosCatalog(target, { dispatcher, production }, limits, usable?.etag ?? null).finally(
      () => dispatcher.close().catch(() => {}),
    );
    if ('reason' in fetched) {
      const outcome = pullFailed(fetched.reason);
      // The merchant reads `reason`; the operator's view keeps the exact error too.
      await finishWith(sync, { ...outcome, details: { ...outcome.details, pullError: fetched.detail } });
      return null;
    }
    if ('notModified' in fetched) {
      await finishWith(sync, describeUnchanged({ notModified: true, url, etag: usable?.etag ?? '' }));
      return null;
    }
    if (usable && usable.body_sha256 === fetched.sha256) {
      if (fetched.etag) await pullRepo.updatePullEtag(db, sync.merchant_id, fetched.etag);
      await finishWith(sync, describeUnchanged({ sameBody: true, appliedAt: usable.applied_at }));
      return null;
    }
    let format: syncRepo.SyncFormat;
    let entityType: OdEntityType;
    if (looksLikeOdMerchant(fetched.body)) {
      format = 'opendelivery';
      entityType = 'MERCHANT';
    } else {
      const checked = checkEnvelope(fetched.body);
      if ('reason' in checked) {
        const what =
          typeof fetched.body === 'object' && fetched.body !== null && 'entityType' in fetched.body
            ? `not an upload body (${checked.reason})`
            : 'neither our MERCHANT upload body (entityType, merchantStatus, updatedObjects) nor an Open Delivery Merchant (id, status, categories, itemOffers, items)';
        await finishWith(sync, pullFailed(`Pull failed: the POS answer is ${what}`));
        return null;
      }
      format = 'cleaver';
      entityType = checked.envelope.entityType;
    }
    const stored = await syncRepo.storePulledPayload(db, {
      id: sync.id,
      owner: sync.lease_owner,
      raw: fetched.raw,
      entityType,
      format,
    });
    if (!stored) throw new Error('catalog sync lease lost');
    return { payload: fetched.body, format, answer: { url, etag: fetched.etag, sha256: fetched.sha256 } };
  }

  /** Reads a payload into the work it asks for, or the reason it cannot be processed at all. */
  function readWork(sync: syncRepo.ClaimedSync, format: syncRepo.SyncFormat, payload: unknown): Work | string {
    if (format === 'cleaver') {
      // An upload's payload passed the route's schema; a pulled one is checked again after a re-run.
      if (sync.source === 'UPLOAD') return { kind: 'cleaver', plan: planUpload(payload as UploadEnvelope) };
      const checked = checkEnvelope(payload);
      if ('reason' in checked) return `Pull failed: the POS answer is not an upload body (${checked.reason})`;
      return { kind: 'cleaver', plan: planUpload(checked.envelope) };
    }
    if (sync.source === 'PULL') return { kind: 'od-merchant', merchant: planOdMerchant(payload) };
    // NOTIFY: the route checked the envelope (checkOdNotification) before storing it.
    const body = payload as { merchantStatus?: Availability; entityType?: OdEntityType; updatedObjects?: unknown[] };
    const merchantStatus = body.merchantStatus ?? null;
    const entityType = body.entityType ?? null;
    return {
      kind: 'od-notify',
      merchantStatus,
      entityType,
      plan: entityType ? planOdNotification(entityType, body.updatedObjects ?? [], merchantStatus) : null,
    };
  }

  /** The spec's apply of a MERCHANT plan, shared by both formats (spec 4.3 removal rules). */
  async function applyMerchant(tx: Queryable, merchantId: string, plan: MerchantPlan, at: Date) {
    if (plan.fatal) return zeroCounts();
    await deps.merchants.applyCatalogIdentity(
      tx,
      merchantId,
      { status: plan.merchantStatus, pdvExternalId: plan.merchantPdvId },
      at,
    );
    return applyRepo.applyMerchantPlan(tx, merchantId, plan, at);
  }

  /** ITEM and ITEM_OFFER plans update existing products only (D18): unknown ids are reported. */
  function unknownProducts(
    entries: Array<{ pdvId: string; index: number }>,
    matched: Set<string>,
    kind: 'items' | 'itemOffers',
  ): Discarded[] {
    return entries
      .filter((e) => !matched.has(e.pdvId))
      .map((e) => ({
        kind,
        id: e.pdvId,
        index: e.index,
        reason: 'no product has this pdv_external_id (create it with a MERCHANT upload)',
      }));
  }

  /** What an ITEM or ITEM_OFFER plan did: products updated or unchanged, and the discarded entries (unknown ids too) in upload order. */
  function productUpdates(
    matched: Set<string>,
    changed: Set<string>,
    discarded: Discarded[],
    entries: Array<{ pdvId: string; index: number }>,
    kind: 'items' | 'itemOffers',
  ): { counts: ReturnType<typeof zeroCounts>; discarded: Discarded[] } {
    const counts = zeroCounts();
    counts.products = flatCounts(matched, changed);
    return {
      counts,
      discarded: [...discarded, ...unknownProducts(entries, matched, kind)].sort((a, b) => a.index - b.index),
    };
  }

  async function applyWork(tx: Queryable, merchantId: string, work: Work, at: Date): Promise<SyncOutcome> {
    if (work.kind === 'cleaver') {
      const plan = work.plan;
      if (plan.fatal) return describeOutcome(plan.entityType, zeroCounts(), [], null, plan.fatal);
      if (plan.entityType === 'MERCHANT') {
        const counts = await applyMerchant(tx, merchantId, plan, at);
        return describeOutcome('MERCHANT', counts, plan.discarded, plan.removalSkipped);
      }
      const { matched, changed } =
        plan.entityType === 'ITEM'
          ? await applyRepo.applyItemPlan(tx, merchantId, plan, at)
          : await applyRepo.applyOfferPlan(tx, merchantId, plan, at);
      const entries = plan.entityType === 'ITEM' ? plan.items : plan.offers;
      const kind = plan.entityType === 'ITEM' ? 'items' : 'itemOffers';
      const { counts, discarded } = productUpdates(matched, changed, plan.discarded, entries, kind);
      return describeOutcome(plan.entityType, counts, discarded, null);
    }
    if (work.kind === 'od-merchant') return applyOdMerchant(tx, merchantId, work.merchant, 'MERCHANT', null, at);

    const { plan, merchantStatus, entityType } = work;
    if (!plan) return describeOdOutcome({ entityType, merchantStatus });
    const productsOutcome = (updates: ReturnType<typeof productUpdates>, notMapped: string[]) =>
      describeOdOutcome({ entityType, merchantStatus, ...updates, lines: ['products'], notMapped });
    switch (plan.kind) {
      case 'merchant':
        return applyOdMerchant(tx, merchantId, plan.merchant, 'MERCHANT', merchantStatus, at);
      case 'items': {
        const { matched, changed } = await applyRepo.applyItemPlan(tx, merchantId, plan.items, at);
        const statuses = await applyRepo.applyOfferPlan(tx, merchantId, plan.statuses, at);
        const allChanged = new Set([...changed, ...statuses.changed]);
        const updates = productUpdates(matched, allChanged, plan.items.discarded, plan.items.items, 'items');
        return productsOutcome(updates, plan.notMapped);
      }
      case 'offers': {
        const { matched, changed } = await applyRepo.applyOfferPlan(tx, merchantId, plan.offers, at);
        const updates = productUpdates(matched, changed, plan.offers.discarded, plan.offers.offers, 'itemOffers');
        return productsOutcome(updates, plan.notMapped);
      }
      case 'categories': {
        const { matched, changed } = await applyCategoryUpdates(tx, merchantId, plan.categories, at);
        const counts = zeroCounts();
        counts.categories = flatCounts(matched, changed);
        const unknown: Discarded[] = plan.categories
          .filter((c) => !matched.has(c.pdvId))
          .map((c) => ({
            kind: 'categories',
            id: c.pdvId,
            index: c.index,
            reason: 'no category has this id (a new category comes with the whole menu: POST an empty body)',
          }));
        return describeOdOutcome({
          entityType,
          merchantStatus,
          counts,
          lines: ['categories'],
          discarded: [...plan.discarded, ...unknown].sort((a, b) => a.index - b.index),
          notMapped: plan.notMapped,
        });
      }
      case 'not-applied':
        return describeOdOutcome({ entityType, merchantStatus, notMapped: plan.notMapped });
    }
  }

  async function applyOdMerchant(
    tx: Queryable,
    merchantId: string,
    { plan, notMapped }: OdMerchantPlan,
    entityType: string,
    merchantStatus: Availability | null,
    at: Date,
  ): Promise<SyncOutcome> {
    const counts = await applyMerchant(tx, merchantId, plan, at);
    return describeOdOutcome({
      entityType,
      merchantStatus,
      counts,
      lines: ['categories', 'products'],
      discarded: plan.discarded,
      removalSkipped: plan.removalSkipped,
      notMapped: plan.fatal ? [] : notMapped,
      problem: plan.fatal,
    });
  }

  /** Applies one claimed sync in one transaction and records its outcome (D16, D17). */
  async function processSync(sync: syncRepo.ClaimedSync): Promise<void> {
    let payload = sync.payload;
    let format = sync.format;
    let answer: PulledAnswer | null = null;
    if (sync.source === 'PULL' && payload === null) {
      const pulled = await fetchPull(sync);
      if (!pulled) return;
      ({ payload, format, answer } = pulled);
    }
    if (sync.source !== 'PULL' && deps.forcedFailure) {
      const forced = await deps.forcedFailure(sync.merchant_id);
      if (forced) return finishWith(sync, pullFailed(forced));
    }
    const work = readWork(sync, format, payload);
    if (typeof work === 'string') return finishWith(sync, pullFailed(work));
    const merchantId = sync.merchant_id;
    if (work.kind === 'od-notify' && work.merchantStatus) {
      // The switch belongs to the merchants module: its own write, before the catalog's
      // transaction (idempotent, so a re-run after a crash sets it again harmlessly).
      await deps.merchants.setStatus(merchantId, work.merchantStatus);
    }
    await db.transaction(async (tx) => {
      const at = clock.now();
      const outcome = await applyWork(tx, merchantId, work, at);
      await deps.beforeCommit?.(sync.id);
      await finishIn(tx, sync, outcome, at);
      await syncRepo.touchCatalogState(tx, merchantId, at);
      if (answer && outcome.status === 'SUCCESS') {
        await pullRepo.savePullState(tx, { merchantId, ...answer, syncId: sync.id, at });
      }
    });
  }

  return { processSync, finishWith };
}

export type SyncProcessor = ReturnType<typeof createSyncProcessor>;
