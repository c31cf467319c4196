// D43: what an order takes from counted stock. Confirmation takes the ordered quantities, a
// weighing replaces them with the weighed ones, a cancellation gives back what was taken; each
// in the order change's transaction, through the catalog's stock (handed in as a StockKeeper,
// so this module never touches the catalog's tables). Pure arithmetic here; the moves are the
// keeper's.
import type { Queryable } from '../../db/db.js';
import { Decimal } from '../../lib/money.js';
import type { StockLine } from '../catalog/index.js';
import type { OrderDocument } from './order-intake.js';

/** The catalog's side: the intake check and the conditional moves (catalog-availability.ts). */
export interface StockKeeper {
  checkIntake(merchantId: string, lines: StockLine[]): Promise<void>;
  moveStock(tx: Queryable, merchantId: string, lines: StockLine[]): Promise<Map<string, string>>;
}

/** Each item of a document that names its product, as a line of stock (`items[i].quantity`). */
export function orderLines(document: Pick<OrderDocument, 'items'>): StockLine[] {
  return document.items.flatMap((item, i) =>
    item.productId
      ? [{ field: `items[${i}].quantity`, productId: item.productId, quantity: String(item.quantity) }]
      : [],
  );
}

/**
 * A weighing's stock move: for each product the order took stock of, the document's new total
 * minus what was taken (positive: more is taken; negative: some is given back), and what the
 * order then holds.
 */
export function weighingMoves(
  taken: Record<string, string>,
  after: Pick<OrderDocument, 'items'>,
): { lines: StockLine[]; holds: Record<string, string> } {
  const totals = new Map<string, { field: string; quantity: Decimal }>();
  for (const line of orderLines(after)) {
    if (!(line.productId in taken)) continue;
    const now = totals.get(line.productId);
    totals.set(line.productId, {
      field: now?.field ?? line.field,
      quantity: (now?.quantity ?? new Decimal(0)).plus(line.quantity),
    });
  }
  const lines: StockLine[] = [];
  const holds: Record<string, string> = {};
  for (const [productId, before] of Object.entries(taken)) {
    const total = totals.get(productId);
    const quantity = total?.quantity ?? new Decimal(0);
    holds[productId] = quantity.toFixed();
    const delta = quantity.minus(before);
    if (!delta.isZero()) lines.push({ field: total?.field ?? 'items', productId, quantity: delta.toFixed() });
  }
  return { lines, holds };
}

/** A cancellation gives back everything the order holds. */
export const giveBackLines = (taken: Record<string, string>): StockLine[] =>
  Object.entries(taken).map(([productId, quantity]) => ({
    field: 'stock',
    productId,
    quantity: new Decimal(quantity).negated().toFixed(),
  }));
