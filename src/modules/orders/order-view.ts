import type { Static } from 'typebox';
import type { OrderRow, OrderViewRow } from './orders-repository.js';
import type { OperatorOrder, Order } from './orders-schemas.js';

type OrderView = Static<typeof Order>;
type StoredItem = OrderView['items'][number] & { productId?: string };

/**
 * Spec 2.6: the stored document plus the fields that change over the order's life. The document
 * is completed in place, not copied: every caller passes a row it has just read for this answer,
 * and copying its two dozen fields and each item was a tenth of GET /v1/orders/{id}'s own time
 * (docs/benchmarks.md, "GET /v1/orders/{id}").
 */
export function toOrderView(row: OrderViewRow): OrderView {
  const view = row.document as unknown as OrderView;
  // The internal product uuid is kept for the Open Delivery view only (D28). Cleared rather than
  // deleted: a delete would turn each item into a slow dictionary-mode object.
  for (const item of view.items as StoredItem[]) item.productId = undefined;
  view.lastEvent = row.last_event as OrderView['lastEvent'];
  if (view.delivery && row.delivered_at) view.delivery.deliveryDateTime = row.delivered_at.toISOString();
  view.preparationStartDateTime = row.preparation_start_at ? row.preparation_start_at.toISOString() : null;
  return view;
}

export function toOperatorOrderView(row: OrderRow): Static<typeof OperatorOrder> {
  return {
    ...toOrderView(row),
    status: row.status,
    deliveryCode: row.delivery_code,
    orderExternalCode: row.order_external_code,
    preparationTime: row.preparation_time_min,
    openCustomerCancellation: row.customer_cancellation,
    openPosCancellation: row.pos_cancellation,
  };
}
