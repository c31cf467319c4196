// D43: what is in the case. A product is available when the catalog says so, no pause holds it
// and, when its stock is counted, the stock is above its minimum. The POS and operators pause,
// resume and count without a catalog upload; confirmed orders take stock, weighings move it,
// cancellations give it back, each in the order change's own transaction. Every change bumps
// the catalog version (GET /v1/merchant shows it at once, D24) and is a `catalog
// AVAILABILITY_CHANGED` feed item.
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { Decimal } from '../../lib/money.js';
import type { FeedRecorder } from '../feed/index.js';
import type { AvailabilityRow, PauseReason } from './availability-repository.js';
import * as repo from './availability-repository.js';
import { touchCatalogState } from './catalog-sync-repository.js';

export const PAUSE_REASONS: readonly PauseReason[] = ['OUT_OF_STOCK', 'QUALITY', 'NOT_TODAY', 'OTHER'];
export const AVAILABILITY_ITEMS_MAX = 100;
const SWEEP_BATCH = 200;

/** One product's availability as every answer and feed item shows it. */
export interface ItemAvailability {
  productId: string;
  pdvId: string | null;
  available: boolean;
  /** Why it is unavailable; null when available or when the catalog itself says UNAVAILABLE. */
  reason: PauseReason | null;
  /** When a pause ends by itself; null otherwise. */
  until: string | null;
  /** Counted stock (kg for KG, units for UN); null when not counted. */
  stock: { quantity: number } | null;
}

export interface AvailabilityInput {
  productId?: string;
  pdvId?: string;
  available: boolean;
  reason?: string;
  until?: string;
  stock?: { quantity: number };
}

/** A quantity of one product an order line takes; `field` is the line's name in the request. */
export interface StockLine {
  field: string;
  productId: string;
  /** Decimal text: kg or units. */
  quantity: string;
}

/** Pure: the effective availability of a row at `now` (a pause past its end no longer holds). */
export function availabilityOf(row: AvailabilityRow, now: Date): ItemAvailability {
  const stock = row.stock === null ? null : { quantity: Number(row.stock) };
  const base = { productId: row.product_id, pdvId: row.pdv_external_id, stock };
  const pauseHolds = row.paused && (row.paused_until === null || row.paused_until > now);
  if (pauseHolds) {
    return {
      ...base,
      available: false,
      reason: row.pause_reason ?? 'OTHER',
      until: row.paused_until ? row.paused_until.toISOString() : null,
    };
  }
  if (row.stock !== null && new Decimal(row.stock).lessThanOrEqualTo(row.stock_min)) {
    return { ...base, available: false, reason: 'OUT_OF_STOCK', until: null };
  }
  return { ...base, available: row.status === 'AVAILABLE', reason: null, until: null };
}

/** A stock quantity as sent: not negative, 3 decimals for KG, whole for UN (400 naming the field). */
function stockQuantity(value: number, unit: 'KG' | 'UN', field: string): string {
  if (!Number.isFinite(value)) throw badRequest(`${field} must be a number`);
  const q = new Decimal(String(value));
  if (q.isNegative()) throw badRequest(`${field} must not be negative`);
  if (q.greaterThan('99999999999')) throw badRequest(`${field} is too large`);
  if (unit === 'UN' && !q.isInteger()) throw badRequest(`${field} must be a whole number for a UN product`);
  if (q.decimalPlaces() > 3) throw badRequest(`${field} has more than 3 decimal places`);
  return q.toFixed();
}

const left = (row: AvailabilityRow) =>
  `${new Decimal(row.stock ?? '0').toFixed(row.unit === 'KG' ? 3 : 0)} ${row.unit === 'KG' ? 'kg' : 'units'} left`;

export function createAvailability(deps: { db: Db; clock: Clock; feed: FeedRecorder }) {
  const { db, clock, feed } = deps;

  /** The feed item and the catalog version of one change, in its transaction. */
  async function announce(tx: Queryable, merchantId: string, productIds: string[], at: Date) {
    if (productIds.length === 0) return;
    const rows = await repo.findAvailability(tx, merchantId, { ids: productIds, pdvIds: [] });
    await touchCatalogState(tx, merchantId, at);
    await feed(tx, {
      kind: 'catalog',
      type: 'AVAILABILITY_CHANGED',
      merchantId,
      occurredAt: at,
      data: { items: rows.map((r) => availabilityOf(r, at)) },
    });
  }

  /** Moves stock line by line, in product id order (two orders never wait on each other in a cycle). */
  async function move(tx: Queryable, merchantId: string, lines: StockLine[], at: Date): Promise<Map<string, string>> {
    const moved = new Map<string, string>();
    const sorted = [...lines].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
    for (const line of sorted) {
      if (new Decimal(line.quantity).isZero()) continue;
      const result = await repo.moveStock(tx, line.productId, line.quantity, at);
      if (result === 'uncounted') continue;
      if (result === 'short') {
        const [row] = await repo.findAvailability(tx, merchantId, { ids: [line.productId], pdvIds: [] });
        throw badRequest(`${line.field} is more than the stock left (${row ? left(row) : 'none left'})`);
      }
      moved.set(line.productId, new Decimal(moved.get(line.productId) ?? '0').plus(line.quantity).toFixed());
    }
    await announce(tx, merchantId, [...moved.keys()], at);
    return moved;
  }

  return {
    availabilityOf,

    /** The availability of every product of a merchant that has a pause or counted stock. */
    async listForMerchant(merchantId: string, q: Queryable = db): Promise<Map<string, ItemAvailability>> {
      const now = clock.now();
      const rows = await repo.listAvailability(q, merchantId);
      return new Map(rows.map((r) => [r.product_id, availabilityOf(r, now)]));
    },

    /**
     * POST /v1/merchant/availability and its operator twin (D43): pauses, resumes and counts, all
     * items or none (one transaction), one feed item for the lot.
     */
    async setAvailability(merchantId: string, items: AvailabilityInput[]): Promise<ItemAvailability[]> {
      if (items.length === 0) throw badRequest('items must not be empty');
      if (items.length > AVAILABILITY_ITEMS_MAX)
        throw badRequest(`items has more than ${AVAILABILITY_ITEMS_MAX} entries`);
      const now = clock.now();
      const ids = items.flatMap((i) => (i.productId !== undefined && isUuid(i.productId) ? [i.productId] : []));
      const pdvIds = items.flatMap((i) => (i.pdvId !== undefined ? [i.pdvId] : []));
      const found = await repo.findAvailability(db, merchantId, { ids, pdvIds });
      const byId = new Map(found.map((r) => [r.product_id.toLowerCase(), r]));
      const byPdv = new Map(found.filter((r) => r.pdv_external_id !== null).map((r) => [r.pdv_external_id, r]));
      const plans = items.map((item, i) => {
        const at = `items[${i}]`;
        if (item.productId === undefined && item.pdvId === undefined) {
          throw badRequest(`${at}.productId or ${at}.pdvId is required`);
        }
        const fromId = item.productId !== undefined ? byId.get(item.productId.toLowerCase()) : undefined;
        const fromPdv = item.pdvId !== undefined ? byPdv.get(item.pdvId) : undefined;
        if (item.productId !== undefined && !fromId)
          throw badRequest(`${at}.productId is not a product of this merchant`);
        if (item.pdvId !== undefined && !fromPdv) throw badRequest(`${at}.pdvId is not a product of this merchant`);
        if (fromId && fromPdv && fromId.product_id !== fromPdv.product_id) {
          throw badRequest(`${at}.pdvId names another product than ${at}.productId`);
        }
        const row = (fromId ?? fromPdv) as AvailabilityRow;
        if (item.available && (item.reason !== undefined || item.until !== undefined)) {
          throw badRequest(`${at}.reason and ${at}.until apply to available: false only`);
        }
        const reason = (item.reason ?? 'OTHER') as PauseReason;
        if (!PAUSE_REASONS.includes(reason))
          throw badRequest(`${at}.reason must be one of ${PAUSE_REASONS.join(', ')}`);
        let until: Date | null = null;
        if (item.until !== undefined) {
          until = new Date(item.until);
          if (Number.isNaN(until.getTime())) throw badRequest(`${at}.until must be an ISO date-time`);
          if (until <= now) throw badRequest(`${at}.until must be in the future`);
        }
        const stock = item.stock ? stockQuantity(item.stock.quantity, row.unit, `${at}.stock.quantity`) : undefined;
        return { row, available: item.available, reason, until, stock };
      });
      const productIds = [...new Set(plans.map((p) => p.row.product_id))];
      if (productIds.length < plans.length) throw badRequest('items names one product more than once');
      return db.transaction(async (tx) => {
        await repo.lockAvailability(tx, productIds);
        for (const p of plans) {
          await repo.writeAvailability(tx, {
            productId: p.row.product_id,
            merchantId,
            pause: p.available
              ? { paused: false, reason: null, until: null }
              : { paused: true, reason: p.reason, until: p.until },
            stock: p.stock,
            at: now,
          });
          if (p.available) await repo.setCatalogStatusAvailable(tx, p.row.product_id, now);
        }
        await announce(tx, merchantId, productIds, now);
        const after = await repo.findAvailability(tx, merchantId, { ids: productIds, pdvIds: [] });
        const byProduct = new Map(after.map((r) => [r.product_id, availabilityOf(r, now)]));
        return plans.map((p) => byProduct.get(p.row.product_id) as ItemAvailability);
      });
    },

    /**
     * Order intake (D43): every item available, and no counted product asked for more than is
     * left (400 naming `items[i]` or `items[i].quantity`, the stock left in the title).
     */
    async checkIntake(merchantId: string, lines: StockLine[]): Promise<void> {
      const now = clock.now();
      const rows = await repo.findAvailability(db, merchantId, { ids: lines.map((l) => l.productId), pdvIds: [] });
      const byId = new Map(rows.map((r) => [r.product_id, r]));
      const asked = new Map<string, Decimal>();
      for (const line of lines) {
        const row = byId.get(line.productId);
        if (!row) continue;
        const item = line.field.replace(/\.quantity$/, '');
        const view = availabilityOf(row, now);
        if (!view.available) {
          const why = view.reason
            ? `${view.reason}${view.until ? ` until ${view.until}` : ''}`
            : 'UNAVAILABLE in the catalog';
          throw badRequest(`${item} names an unavailable product (${why})`);
        }
        const total = (asked.get(line.productId) ?? new Decimal(0)).plus(line.quantity);
        asked.set(line.productId, total);
        if (row.stock !== null && total.greaterThan(row.stock)) {
          throw badRequest(`${line.field} is more than the stock left (${left(row)})`);
        }
      }
    },

    /**
     * In an order change's transaction: takes (positive) or gives back (negative) stock of the
     * counted products among `lines`; what moved, by product. A take that would leave less than
     * zero is a 400 naming the line's field and nothing of the change is written.
     */
    moveStock: (tx: Queryable, merchantId: string, lines: StockLine[]) => move(tx, merchantId, lines, clock.now()),

    /** The pause sweep (D43): pauses whose `until` has come end, with their feed items. */
    async endDuePauses(): Promise<number> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const ended = await repo.endDuePauses(tx, now, SWEEP_BATCH);
        const byMerchant = new Map<string, string[]>();
        for (const e of ended) byMerchant.set(e.merchant_id, [...(byMerchant.get(e.merchant_id) ?? []), e.product_id]);
        for (const [merchantId, productIds] of byMerchant) await announce(tx, merchantId, productIds, now);
        return ended.length;
      });
    },
  };
}

export type Availability = ReturnType<typeof createAvailability>;
