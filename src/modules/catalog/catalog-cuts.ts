// Cuts and spices (D37, spec 2.5): a product's cuts are the operator's to add and remove; the
// catalog upload never writes them, and a product the upload removes takes its cuts with it
// (spec 4.3, ON DELETE CASCADE). Every change bumps the catalog version, so GET /v1/merchant
// shows it at once in every process (D24).
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import type { FeedRecorder } from '../feed/index.js';
import * as repo from './catalog-repository.js';

export interface Cut {
  id: string;
  name: string;
  spice: { id: string; name: string } | null;
}

export interface CutInput {
  id?: string;
  name: string;
  spice?: { id?: string; name: string } | null;
}

export const toCut = (row: repo.CutRow): Cut => ({
  id: row.id,
  name: row.name,
  spice: row.spice_id !== null ? { id: row.spice_id, name: row.spice_name ?? '' } : null,
});

/** A name or id as stored: trimmed, and not empty once trimmed (400 naming the field). */
function text(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(`${field} must not be empty`);
  return trimmed;
}

export const productNotFound = () => notFound('Product not found');

export function createCutOperations(deps: {
  db: Db;
  clock: Clock;
  touch: (merchantId: string) => Promise<void>;
  feed: FeedRecorder;
}) {
  const { db, clock, touch, feed } = deps;

  /**
   * D36: the platform feed's `catalog CUTS_CHANGED`, in the change's transaction, with the
   * product's whole list after it: a storefront replaces what it had, whatever it missed.
   */
  async function feedCuts(
    tx: Queryable,
    merchantId: string,
    productId: string,
    change: 'ADDED' | 'REMOVED',
    cutId: string,
  ) {
    const cuts = (await repo.listCutsOfProducts(tx, [productId])).map(toCut);
    await feed(tx, {
      kind: 'catalog',
      type: 'CUTS_CHANGED',
      merchantId,
      occurredAt: clock.now(),
      data: { productId, change, cutId, cuts },
    });
  }

  async function requireProduct(merchantId: string, productId: string): Promise<repo.ProductRow> {
    const product = isUuid(productId) ? await repo.findProduct(db, merchantId, productId) : undefined;
    if (!product) throw productNotFound();
    return product;
  }

  return {
    requireProduct,

    /** The cuts of one product, oldest first. */
    async listCuts(merchantId: string, productId: string): Promise<Cut[]> {
      await requireProduct(merchantId, productId);
      return (await repo.listCutsOfProducts(db, [productId])).map(toCut);
    },

    /** POST …/products/{productId}/cuts: 201 the cut; 409 when the product has a cut of that id. */
    async addCut(merchantId: string, productId: string, input: CutInput): Promise<Cut> {
      const name = text(input.name, 'name');
      const id = input.id === undefined ? newId() : text(input.id, 'id');
      const spice = input.spice
        ? {
            name: text(input.spice.name, 'spice.name'),
            id: input.spice.id === undefined ? newId() : text(input.spice.id, 'spice.id'),
          }
        : null;
      await requireProduct(merchantId, productId);
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insertCut(tx, {
          productId,
          id,
          name,
          spiceId: spice?.id ?? null,
          spiceName: spice?.name ?? null,
        });
        if (inserted) await feedCuts(tx, merchantId, productId, 'ADDED', inserted.id);
        return inserted;
      });
      if (!row) throw conflict(`The product already has a cut with id ${id}`);
      await touch(merchantId);
      return toCut(row);
    },

    /** DELETE …/cuts/{cutId}: 204; 404 when the product has no such cut. */
    async removeCut(merchantId: string, productId: string, cutId: string): Promise<void> {
      await requireProduct(merchantId, productId);
      const deleted = await db.transaction(async (tx) => {
        const gone = await repo.deleteCut(tx, productId, cutId);
        if (gone) await feedCuts(tx, merchantId, productId, 'REMOVED', cutId);
        return gone;
      });
      if (!deleted) throw notFound('Cut not found');
      await touch(merchantId);
    },
  };
}

/** Order intake (D37): the cuts of the products an order names, by product id. */
export async function findCutsOfProducts(db: Queryable, productIds: string[]): Promise<Map<string, Cut[]>> {
  const byProduct = new Map<string, Cut[]>();
  for (const row of await repo.listCutsOfProducts(db, productIds)) {
    const list = byProduct.get(row.product_id);
    if (list) list.push(toCut(row));
    else byProduct.set(row.product_id, [toCut(row)]);
  }
  return byProduct;
}
