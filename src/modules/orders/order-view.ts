import type { Static } from 'typebox';
import type { OrderRow, OrderViewRow } from './orders-repository.js';
import type { OperatorOrder, Order } from './orders-schemas.js';

/** Spec 2.6: the stored document plus the fields that change over the order's life. */
export function toOrderView(row: OrderViewRow): Static<typeof Order> {
  const doc = row.document;
  return {
    ...doc,
    // The internal product uuid is kept for the Open Delivery view only (D28).
    items: doc.items.map(({ productId: _internal, ...item }) => item),
    lastEvent: row.last_event as Static<typeof Order>['lastEvent'],
    ...(doc.delivery
      ? {
          delivery: {
            ...doc.delivery,
            ...(row.delivered_at ? { deliveryDateTime: row.delivered_at.toISOString() } : {}),
          },
        }
      : {}),
    preparationStartDateTime: row.preparation_start_at ? row.preparation_start_at.toISOString() : null,
  };
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
