// The catalog module's service: accepts uploads, pulls and Open Delivery notifications as syncs
// (D16), runs the sync worker, and builds the merchant record with a short cache (D24). Size: the
// service is the one closure that owns the cache and the worker; the planning, the apply and the
// processing it calls live in their own files (catalog-*-plan, catalog-apply-repository,
// catalog-sync-process).
import { decodeKeyCursor, decodeSeqCursor, encodeKeyCursor, page } from '../../lib/cursor.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { toDecimalString, toNumber } from '../../lib/money.js';
import { noFeed } from '../feed/index.js';
import { createAvailability, type ItemAvailability } from './catalog-availability.js';
import * as browse from './catalog-browse-repository.js';
import { createCutOperations, findCutsOfProducts } from './catalog-cuts.js';
import * as repo from './catalog-repository.js';
import { categoryView, productView, tradeView } from './catalog-schemas.js';
import { createSyncProcessor, type SyncProcessorDeps } from './catalog-sync-process.js';
import * as syncRepo from './catalog-sync-repository.js';
import { createCatalogSyncWorker } from './catalog-sync-worker.js';
import { describeOutcome, type UploadEnvelope, zeroCounts } from './catalog-upload-plan.js';
import type { OdNotificationUse } from './od-notification-plan.js';

export { checkEnvelope, checkMerchantStatus } from './catalog-envelope.js';

/** Internal code generated on creation (spec 2.4, 2.5: informational). */
const newExternalCode = (prefix: string) => `${prefix}-${newId().slice(0, 8).toUpperCase()}`;

export interface MerchantRecord {
  lastUpdate: string;
  TTL: number;
  id: string;
  status: 'AVAILABLE' | 'UNAVAILABLE';
  /** D43: the store's timed pause while it holds. */
  pause?: { reason: string; until: string } | null;
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
    /** D43: present when the product is paused or its stock is counted. */
    availability?: ItemAvailability;
  }>;
}

/** The operator's view of a sync (operator-api.md#catalog catalogSyncs). */
export function toSyncView(s: syncRepo.SyncRow) {
  return {
    id: s.id,
    source: s.source,
    format: s.format,
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

export interface CatalogServiceDeps extends SyncProcessorDeps {
  /** Merchant-record cache lifetime (D24); 0 turns the cache off. */
  merchantCacheTtlSec?: number;
  /** How long a worker holds an upload between heartbeats (CLEAVER_CATALOG_LEASE_SEC). */
  leaseMs?: number;
  onWorkerError?: (error: unknown) => void;
}

const CACHE_MAX_ENTRIES = 500;

export function createCatalogService(deps: CatalogServiceDeps) {
  const { db, clock } = deps;
  const feed = deps.feed ?? noFeed;
  const ttlSec = deps.merchantCacheTtlSec ?? 60;
  // D24: per-process cache of merchant records. Every read validates the entry against the
  // catalog version (one primary-key read), so a POS that saw SUCCESS reads its own changes even
  // when another process ran the sync.
  const cache = new Map<string, { key: string; expiresAt: number; record: MerchantRecord }>();

  async function touch(merchantId: string) {
    await syncRepo.touchCatalogState(db, merchantId, clock.now());
    cache.delete(merchantId);
  }

  const processor = createSyncProcessor(deps);
  // D43: pauses and counted stock, written without an upload.
  const availability = createAvailability({ db, clock, feed: deps.feed ?? (async () => {}) });
  // The worker's processing also drops this process's cached record of the merchant (D24).
  async function processSync(sync: syncRepo.ClaimedSync): Promise<void> {
    try {
      await processor.processSync(sync);
    } finally {
      cache.delete(sync.merchant_id);
    }
  }

  const worker = createCatalogSyncWorker({
    db,
    clock,
    process: processSync,
    giveUp: (sync) =>
      processor.finishWith(
        sync,
        describeOutcome(
          sync.entity_type,
          zeroCounts(),
          [],
          null,
          `Processing failed ${sync.attempts - 1} times; nothing of this upload was applied. Send it again or ask support.`,
        ),
      ),
    leaseMs: deps.leaseMs,
    onError: deps.onWorkerError,
  });

  async function buildRecord(merchantId: string, head: repo.RecordHeadRow): Promise<MerchantRecord> {
    const [categories, products, media, cuts, available] = await Promise.all([
      repo.listRecordCategories(db, merchantId),
      repo.listRecordProducts(db, merchantId),
      repo.listRecordMedia(db, merchantId),
      repo.listRecordCuts(db, merchantId),
      availability.listForMerchant(merchantId),
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
      pause:
        head.paused_until && head.paused_until > clock.now() && head.status === 'UNAVAILABLE'
          ? { reason: head.pause_reason ?? '', until: head.paused_until.toISOString() }
          : null,
      categories: categories.map((c) => ({ ...categoryView(c), productsId: c.product_ids })),
      products: products.map((p) => {
        const productCuts = cutsBy.get(p.id);
        const productAvailability = available.get(p.id);
        return {
          ...productView(p),
          // D43: the status a customer meets (a pause or stock at its minimum switches it off).
          ...(productAvailability && !productAvailability.available ? { status: 'UNAVAILABLE' as const } : {}),
          stock: productAvailability?.stock ? productAvailability.stock.quantity : toNumber(p.stock),
          externalCode: p.external_code,
          ean: p.ean,
          sku: p.sku,
          media: mediaBy.get(p.id) ?? [],
          // spec 2.5: present only when the product has cuts
          ...(productCuts ? { cuts: productCuts } : {}),
          ...(productAvailability ? { availability: productAvailability } : {}),
          ...tradeView(p),
        };
      }),
    };
  }

  /** A sync stored and queued (D16): the id it answers with. */
  async function queueSync(sync: Omit<Parameters<typeof syncRepo.insertSync>[1], 'id' | 'at'>): Promise<string> {
    const id = newId();
    await syncRepo.insertSync(db, { id, ...sync, at: clock.now() });
    // NOTIFY wakes the workers of every process; this process's own worker is woken directly
    // too, so it does not depend on its LISTEN connection being up yet.
    worker.wake();
    return id;
  }

  return {
    worker,
    processSync,
    // D43: pauses and stock (catalog-availability.ts); the orders module moves stock through it.
    availability,
    // D37: cuts and spices, the operator's to add and remove (catalog-cuts.ts).
    ...createCutOperations({ db, clock, touch, feed }),

    /** PUT /v1/merchantUpdate: stored and queued; PROCESSING from now on (spec 3.2, D16). */
    acceptUpload(merchantId: string, envelope: UploadEnvelope): Promise<string> {
      return queueSync({ merchantId, source: 'UPLOAD', entityType: envelope.entityType, payload: envelope });
    },

    /** POST /admin/v1/merchants/{id}/catalogPull (D20): queued like an upload; the worker fetches. */
    async requestPull(merchantId: string, registered: boolean): Promise<string> {
      if (!registered) throw badRequest('getMerchantURL is not registered for this merchant');
      return queueSync({ merchantId, source: 'PULL', entityType: null, payload: null });
    },

    /**
     * POST /v1/merchantUpdate, Open Delivery's notification (D29): an empty body queues a pull;
     * the others queue the notification itself, so a merchant's changes apply in arrival order
     * whichever route brought them (D16). The outcome shows in merchantStatus like an upload's.
     */
    async acceptNotification(merchantId: string, notification: OdNotificationUse): Promise<string> {
      if (notification.use === 'pull') {
        const target = deps.getMerchantUrl ? await deps.getMerchantUrl(merchantId) : null;
        if (!target) {
          throw badRequest(
            'getMerchantURL is not registered: register it with PUT /v1/merchantOnboarding before asking for a pull (empty body)',
          );
        }
        return queueSync({ merchantId, source: 'PULL', entityType: null, payload: null });
      }
      const { merchantStatus, entityType, updatedObjects } = notification;
      return queueSync({
        merchantId,
        source: 'NOTIFY',
        format: 'opendelivery',
        entityType,
        payload: {
          ...(merchantStatus ? { merchantStatus } : {}),
          ...(entityType ? { entityType, updatedObjects } : {}),
        },
      });
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

    /** Retention (D30): payloads beyond each merchant's last `keep`, summaries past `before`. */
    async pruneSyncs(keep: number, before: Date, limit: number): Promise<number> {
      return (await syncRepo.dropOldPayloads(db, keep, limit)) + (await syncRepo.deleteOldSyncs(db, before, limit));
    },

    /** One page of products by name (console catalog page); `next` is the following page's cursor. */
    async browseProducts(
      merchantId: string,
      filter: { q?: string; categoryId?: string; status?: string; cursor?: string; limit: number },
    ) {
      const rows = await browse.browseProducts(db, merchantId, {
        ...filter,
        after: decodeKeyCursor(filter.cursor),
        limit: filter.limit + 1,
      });
      return page(rows, filter.limit, (p) => encodeKeyCursor(p.name, p.id));
    },
    /**
     * GET /admin/v1/merchants/{id}/products: a page of products by name with their cuts (two
     * statements a page, whatever its size), for a storefront following the catalog (D36, D37).
     */
    async listProducts(merchantId: string, filter: { q?: string; cursor?: string; limit: number }) {
      const rows = await browse.browseProducts(db, merchantId, {
        q: filter.q,
        after: decodeKeyCursor(filter.cursor),
        limit: filter.limit + 1,
      });
      const { items, next } = page(rows, filter.limit, (p) => encodeKeyCursor(p.name, p.id));
      const cuts = await findCutsOfProducts(
        db,
        items.map((p) => p.id),
      );
      return {
        items: items.map((p) => ({
          id: p.id,
          pdv_external_id: p.pdv_external_id,
          name: p.name,
          description: p.description,
          price: toNumber(p.price),
          unit: p.unit as 'KG' | 'UN',
          status: p.status as 'AVAILABLE' | 'UNAVAILABLE',
          externalCode: p.external_code,
          cuts: cuts.get(p.id) ?? [],
        })),
        next,
      };
    },
    categoryCounts: (merchantId: string) => browse.categoryCounts(db, merchantId),
    productCount: (merchantId: string) => browse.productCount(db, merchantId),
    productCounts: (merchantId: string) => browse.productCounts(db, merchantId),
    /** Sync outcomes per day in the operator's zone (console chart). */
    syncsByDay: (merchantId: string, since: Date, zone: string) => browse.syncsByDay(db, merchantId, since, zone),

    /** A keyset page of the sync history, newest first; `next` is the following page's cursor. */
    async listSyncs(merchantId: string, filter: { status?: string; cursor?: string; limit?: number } = {}) {
      const limit = filter.limit ?? 50;
      const rows = await syncRepo.listSyncs(db, merchantId, {
        status: filter.status,
        beforeSeq: decodeSeqCursor(filter.cursor),
        limit: limit + 1,
      });
      const { items, next } = page(rows, limit, (s) => String(s.seq));
      return { items: items.map(toSyncView), next };
    },

    /** For GET /admin/v1/merchants/{id} (admin-merchants-routes `lastCatalogSync`). */
    async lastSync(merchantId: string): Promise<ReturnType<typeof toSyncView> | null> {
      const latest = await syncRepo.latestSync(db, merchantId);
      return latest ? toSyncView(latest) : null;
    },

    /** POST /admin/v1/merchants/{id}/categories: a category made by hand (pdv_external_id null). */
    async createHandMadeCategory(merchantId: string, input: { name: string; status?: 'AVAILABLE' | 'UNAVAILABLE' }) {
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be empty');
      const at = clock.now();
      const row = await db.transaction(async (tx) => {
        const made = await repo.insertHandMadeCategory(tx, {
          id: newId(),
          merchantId,
          name,
          status: input.status ?? 'AVAILABLE',
          externalCode: newExternalCode('CAT'),
          at,
        });
        // D36: a storefront following the catalog hears of what the panel made, as of a sync.
        await feed(tx, {
          kind: 'catalog',
          type: 'CATEGORY_CHANGED',
          merchantId,
          occurredAt: at,
          data: { categoryId: made.id, change: 'CREATED', by: 'operator' },
        });
        return made;
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
      const at = clock.now();
      const row = await db.transaction(async (tx) => {
        const made = await repo.insertHandMadeProduct(tx, {
          id: newId(),
          merchantId,
          name,
          description: input.description ?? '',
          price: toDecimalString(input.price, 'price'),
          unit: input.unit,
          status: input.status ?? 'AVAILABLE',
          externalCode: newExternalCode('P'),
          categoryId: input.categoryId,
          at,
        });
        await feed(tx, {
          kind: 'catalog',
          type: 'PRODUCT_CHANGED',
          merchantId,
          occurredAt: at,
          data: { productId: made.id, change: 'CREATED', by: 'operator' },
        });
        return made;
      });
      await touch(merchantId);
      return row;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
