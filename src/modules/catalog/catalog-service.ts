import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { toDecimalString, toNumber } from '../../lib/money.js';
import { DEFAULT_PULL_LIMITS, fetchPosCatalog, type PullLimits } from './catalog-pull.js';
import * as repo from './catalog-repository.js';
import * as syncRepo from './catalog-sync-repository.js';
import { createCatalogSyncWorker } from './catalog-sync-worker.js';
import {
  type Discarded,
  describeOutcome,
  emptyCounts,
  planUpload,
  type SyncOutcome,
  type UploadEnvelope,
} from './catalog-upload-plan.js';

/** Internal code generated on creation (spec 2.4, 2.5: informational). */
const newExternalCode = (prefix: string) => `${prefix}-${newId().slice(0, 8).toUpperCase()}`;

const ENTITY_TYPES = ['MERCHANT', 'ITEM', 'ITEM_OFFER'] as const;
const isStatus = (v: unknown) => v === 'AVAILABLE' || v === 'UNAVAILABLE';

/**
 * Spec 4.3 envelope rules, for bodies that did not come through the route's schema (a pulled
 * POS answer, D20). Returns the reason in the words the route's 400 titles use.
 */
export function checkEnvelope(body: unknown): { envelope: UploadEnvelope } | { reason: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { reason: 'body must be an object' };
  const b = body as Record<string, unknown>;
  if (b.entityType === undefined) return { reason: 'entityType is required' };
  if (!ENTITY_TYPES.includes(b.entityType as never)) {
    return { reason: 'entityType must be one of MERCHANT, ITEM, ITEM_OFFER' };
  }
  const reason = checkMerchantStatus(b.entityType as UploadEnvelope['entityType'], b.merchantStatus);
  if (reason) return { reason };
  if (b.onlyAddProducts !== undefined && typeof b.onlyAddProducts !== 'boolean') {
    return { reason: 'onlyAddProducts must be boolean' };
  }
  if (b.updatedObjects === undefined) return { reason: 'updatedObjects is required' };
  if (!Array.isArray(b.updatedObjects)) return { reason: 'updatedObjects must be array' };
  return {
    envelope: {
      entityType: b.entityType as UploadEnvelope['entityType'],
      merchantStatus: b.merchantStatus,
      onlyAddProducts: b.onlyAddProducts as boolean | undefined,
      updatedObjects: b.updatedObjects,
    },
  };
}

/** Spec 4.3: required and an enum value for MERCHANT; accepted and ignored for ITEM and ITEM_OFFER. */
export function checkMerchantStatus(entityType: UploadEnvelope['entityType'], value: unknown): string | null {
  if (entityType !== 'MERCHANT') return null;
  if (value === undefined || value === null) return 'merchantStatus is required when entityType is MERCHANT';
  if (!isStatus(value)) return 'merchantStatus must be one of AVAILABLE, UNAVAILABLE';
  return null;
}

export interface MerchantRecord {
  lastUpdate: string;
  TTL: number;
  id: string;
  status: 'AVAILABLE' | 'UNAVAILABLE';
  categories: Array<{
    id: string;
    pdv_external_id: string | null;
    name: string;
    index: number;
    status: 'AVAILABLE' | 'UNAVAILABLE';
    externalCode: string;
    productsId: string[];
  }>;
  products: Array<{
    id: string;
    pdv_external_id: string | null;
    name: string;
    description: string;
    price: number;
    unit: 'KG' | 'UN';
    status: 'AVAILABLE' | 'UNAVAILABLE';
    stock: number;
    externalCode: string;
    ean: string;
    sku: string;
    media: string[];
    cuts?: Array<{ id: string; name: string; spice: { id: string; name: string } | null }>;
  }>;
}

/** The operator's view of a sync (OPERATOR-API.md catalogSyncs). */
export function toSyncView(s: syncRepo.SyncRow) {
  return {
    id: s.id,
    source: s.source,
    entityType: s.entity_type,
    status: s.status,
    moreInfo: s.more_info,
    details: s.details,
    attempts: s.attempts,
    receivedAt: s.received_at.toISOString(),
    startedAt: s.started_at ? s.started_at.toISOString() : null,
    finishedAt: s.finished_at ? s.finished_at.toISOString() : null,
  };
}

export interface CatalogServiceDeps {
  db: Db;
  clock: Clock;
  /** Merchant-record cache lifetime (D24); 0 turns the cache off. */
  merchantCacheTtlSec?: number;
  /** The merchant's registered catalog endpoint with its clear apiKey, or null (D20). */
  getMerchantUrl?: (merchantId: string) => Promise<{ baseURL: string; apiKey: string } | null>;
  pullLimits?: PullLimits;
  /** Production: pull only over https (D12, D25). */
  pullHttpsOnly?: boolean;
  /** Test seam: runs inside the apply transaction just before it commits (crash simulation). */
  beforeCommit?: (syncId: string) => Promise<void> | void;
  onWorkerError?: (error: unknown) => void;
}

const CACHE_MAX_ENTRIES = 500;

export function createCatalogService(deps: CatalogServiceDeps) {
  const { db, clock } = deps;
  const ttlSec = deps.merchantCacheTtlSec ?? 60;
  // D24: per-process cache of merchant records. Every read validates the entry against the
  // catalog version (one primary-key read), so a POS that saw SUCCESS reads its own changes even
  // when another process ran the sync.
  const cache = new Map<string, { key: string; expiresAt: number; record: MerchantRecord }>();

  async function touch(merchantId: string) {
    await syncRepo.touchCatalogState(db, merchantId, clock.now());
    cache.delete(merchantId);
  }

  async function finishWith(sync: syncRepo.ClaimedSync, outcome: SyncOutcome) {
    const done = await syncRepo.finishSync(db, {
      id: sync.id,
      owner: sync.lease_owner,
      status: outcome.status,
      moreInfo: outcome.moreInfo,
      details: outcome.details,
      at: clock.now(),
    });
    if (!done) throw new Error('catalog sync lease lost');
  }

  const zero = () => ({ categories: emptyCounts(), products: emptyCounts() });

  /** Applies one claimed upload in one transaction and records its outcome (D16, D17). */
  async function processSync(sync: syncRepo.ClaimedSync): Promise<void> {
    let envelope = sync.payload;
    if (envelope === null) {
      // A pull (D20): fetch outside any transaction, then keep the answer as the payload.
      const target = deps.getMerchantUrl ? await deps.getMerchantUrl(sync.merchant_id) : null;
      if (!target) {
        return finishWith(
          sync,
          describeOutcome(null, zero(), [], null, 'Pull failed: getMerchantURL is not registered'),
        );
      }
      const fetched = await fetchPosCatalog(target, {
        ...(deps.pullLimits ?? DEFAULT_PULL_LIMITS),
        httpsOnly: deps.pullHttpsOnly === true,
      });
      if ('reason' in fetched) return finishWith(sync, describeOutcome(null, zero(), [], null, fetched.reason));
      const checked = checkEnvelope(fetched.body);
      if ('reason' in checked) {
        return finishWith(
          sync,
          describeOutcome(
            null,
            zero(),
            [],
            null,
            `Pull failed: the POS answer is not an upload body (${checked.reason})`,
          ),
        );
      }
      envelope = checked.envelope;
      if (!(await syncRepo.storePulledPayload(db, sync.id, sync.lease_owner, envelope))) {
        throw new Error('catalog sync lease lost');
      }
    }
    const plan = planUpload(envelope);
    const merchantId = sync.merchant_id;
    await db.transaction(async (tx) => {
      const at = clock.now();
      let outcome: SyncOutcome;
      if (plan.fatal) {
        outcome = describeOutcome(plan.entityType, zero(), [], null, plan.fatal);
      } else if (plan.entityType === 'MERCHANT') {
        const counts = await syncRepo.applyMerchantPlan(tx, merchantId, plan, at);
        outcome = describeOutcome('MERCHANT', counts, plan.discarded, plan.removalSkipped);
      } else {
        const matched =
          plan.entityType === 'ITEM'
            ? await syncRepo.applyItemPlan(tx, merchantId, plan, at)
            : await syncRepo.applyOfferPlan(tx, merchantId, plan, at);
        const entries = plan.entityType === 'ITEM' ? plan.items : plan.offers;
        const kind = plan.entityType === 'ITEM' ? 'items' : 'itemOffers';
        const unknown: Discarded[] = entries
          .filter((e) => !matched.has(e.pdvId))
          .map((e) => ({
            kind,
            id: e.pdvId,
            index: e.index,
            reason: 'no product has this pdv_external_id (create it with a MERCHANT upload)',
          }));
        const discarded = [...plan.discarded, ...unknown].sort((a, b) => a.index - b.index);
        const counts = zero();
        counts.products.updated = matched.size;
        outcome = describeOutcome(plan.entityType, counts, discarded, null);
      }
      await deps.beforeCommit?.(sync.id);
      const done = await syncRepo.finishSync(tx, {
        id: sync.id,
        owner: sync.lease_owner,
        status: outcome.status,
        moreInfo: outcome.moreInfo,
        details: outcome.details,
        at,
      });
      // Compare-and-set on the lease: if another worker took the upload over, roll back.
      if (!done) throw new Error('catalog sync lease lost');
      await syncRepo.touchCatalogState(tx, merchantId, at);
    });
    cache.delete(merchantId);
  }

  const worker = createCatalogSyncWorker({
    db,
    clock,
    process: processSync,
    giveUp: (sync) =>
      finishWith(
        sync,
        describeOutcome(
          sync.entity_type,
          zero(),
          [],
          null,
          `Processing failed ${sync.attempts - 1} times; nothing of this upload was applied. Send it again or ask support.`,
        ),
      ),
    onError: (error) => deps.onWorkerError?.(error),
  });

  async function buildRecord(merchantId: string, head: repo.RecordHeadRow): Promise<MerchantRecord> {
    const [categories, products, media, cuts] = await Promise.all([
      repo.listRecordCategories(db, merchantId),
      repo.listRecordProducts(db, merchantId),
      repo.listRecordMedia(db, merchantId),
      repo.listRecordCuts(db, merchantId),
    ]);
    const mediaBy = new Map<string, string[]>();
    for (const m of media) {
      const list = mediaBy.get(m.product_id);
      if (list) list.push(m.url);
      else mediaBy.set(m.product_id, [m.url]);
    }
    const cutsBy = new Map<string, NonNullable<MerchantRecord['products'][number]['cuts']>>();
    for (const k of cuts) {
      const cut = {
        id: k.id,
        name: k.name,
        spice: k.spice_id !== null ? { id: k.spice_id, name: k.spice_name ?? '' } : null,
      };
      const list = cutsBy.get(k.product_id);
      if (list) list.push(cut);
      else cutsBy.set(k.product_id, [cut]);
    }
    const lastUpdate =
      head.catalog_updated_at && head.catalog_updated_at > head.merchant_updated_at
        ? head.catalog_updated_at
        : head.merchant_updated_at;
    return {
      lastUpdate: lastUpdate.toISOString(),
      TTL: ttlSec,
      id: head.id,
      status: head.status,
      categories: categories.map((c) => ({
        id: c.id,
        pdv_external_id: c.pdv_external_id,
        name: c.name,
        index: c.index,
        status: c.status,
        externalCode: c.external_code,
        productsId: c.product_ids,
      })),
      products: products.map((p) => {
        const productCuts = cutsBy.get(p.id);
        return {
          id: p.id,
          pdv_external_id: p.pdv_external_id,
          name: p.name,
          description: p.description,
          price: toNumber(p.price),
          unit: p.unit,
          status: p.status,
          stock: toNumber(p.stock),
          externalCode: p.external_code,
          ean: p.ean,
          sku: p.sku,
          media: mediaBy.get(p.id) ?? [],
          // spec 2.5: present only when the product has cuts
          ...(productCuts ? { cuts: productCuts } : {}),
        };
      }),
    };
  }

  return {
    worker,
    processSync,

    /** PUT /v1/merchantUpdate: stored and queued; PROCESSING from now on (spec 3.2, D16). */
    async acceptUpload(merchantId: string, envelope: UploadEnvelope): Promise<string> {
      const id = newId();
      await syncRepo.insertSync(db, { id, merchantId, source: 'UPLOAD', envelope, at: clock.now() });
      // NOTIFY wakes the workers of every process; this process's own worker is woken directly
      // too, so it does not depend on its LISTEN connection being up yet.
      worker.wake();
      return id;
    },

    /** POST /admin/v1/merchants/{id}/catalogPull (D20): queued like an upload; the worker fetches. */
    async requestPull(merchantId: string, registered: boolean): Promise<string> {
      if (!registered) throw badRequest('getMerchantURL is not registered for this merchant');
      const id = newId();
      await syncRepo.insertSync(db, { id, merchantId, source: 'PULL', envelope: null, at: clock.now() });
      worker.wake();
      return id;
    },

    /** GET /v1/merchantStatus (spec 2.7, 4.4, D16, D21). */
    async getSyncStatus(callerMerchantId: string, queriedMerchantId: string) {
      if (queriedMerchantId.toLowerCase() !== callerMerchantId.toLowerCase()) throw notFound('Merchant not found');
      const latest = await syncRepo.latestSync(db, callerMerchantId);
      if (!latest) throw notFound('No catalog sync found');
      return {
        status: latest.status,
        lastRead: (latest.finished_at ?? latest.started_at ?? latest.received_at).toISOString(),
        moreInfo: latest.status === 'PROCESSING' ? null : latest.more_info,
      };
    },

    /** GET /v1/merchant (spec 2.3–2.5), cached per D24. */
    async getMerchantRecord(merchantId: string): Promise<MerchantRecord> {
      const head = await repo.findRecordHead(db, merchantId);
      if (!head) throw notFound('Merchant not found');
      const key = `${head.catalog_version}:${head.merchant_updated_at.getTime()}:${head.status}`;
      const now = Date.now();
      const cached = cache.get(merchantId);
      if (cached && cached.key === key && cached.expiresAt > now) return cached.record;
      const record = await buildRecord(merchantId, head);
      if (ttlSec > 0) {
        cache.delete(merchantId);
        if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
        cache.set(merchantId, { key, expiresAt: now + ttlSec * 1000, record });
      }
      return record;
    },

    async listSyncs(merchantId: string, limit = 50) {
      return (await syncRepo.listSyncs(db, merchantId, limit)).map(toSyncView);
    },

    /** For GET /admin/v1/merchants/{id} (operator-merchants-routes `lastCatalogSync`). */
    async lastSync(merchantId: string): Promise<Record<string, unknown> | null> {
      const latest = await syncRepo.latestSync(db, merchantId);
      return latest ? toSyncView(latest) : null;
    },

    /** POST /admin/v1/merchants/{id}/categories: a category made by hand (pdv_external_id null). */
    async createHandMadeCategory(merchantId: string, input: { name: string; status?: 'AVAILABLE' | 'UNAVAILABLE' }) {
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be empty');
      const row = await repo.insertHandMadeCategory(db, {
        id: newId(),
        merchantId,
        name,
        status: input.status ?? 'AVAILABLE',
        externalCode: newExternalCode('CAT'),
        at: clock.now(),
      });
      await touch(merchantId);
      return row;
    },

    /** POST /admin/v1/merchants/{id}/products: a product made by hand (pdv_external_id null). */
    async createHandMadeProduct(
      merchantId: string,
      input: {
        name: string;
        price: number;
        unit: 'KG' | 'UN';
        description?: string;
        status?: 'AVAILABLE' | 'UNAVAILABLE';
        categoryId?: string;
      },
    ) {
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be empty');
      if (input.categoryId !== undefined) {
        if (!isUuid(input.categoryId) || !(await repo.findCategory(db, merchantId, input.categoryId))) {
          throw badRequest('categoryId is not a category of this merchant');
        }
      }
      const row = await db.transaction((tx) =>
        repo.insertHandMadeProduct(tx, {
          id: newId(),
          merchantId,
          name,
          description: input.description ?? '',
          price: toDecimalString(input.price, 'price'),
          unit: input.unit,
          status: input.status ?? 'AVAILABLE',
          externalCode: newExternalCode('P'),
          categoryId: input.categoryId,
          at: clock.now(),
        }),
      );
      await touch(merchantId);
      return row;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
