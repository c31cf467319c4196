// D28.6: the order as a key with the opendelivery profile reads it, shaped by Open Delivery's
// `Order` (opendelivery/order-schemas.ts). Where the spec's view (order-view.ts) shows null,
// Open Delivery has no null at all: the field is left out, or takes the default the standard
// names. Pure: the same stored row as the spec's view, another shape.
import type { Static } from 'typebox';
import { isUuid, uuidV5 } from '../../lib/ids.js';
import type { OdDeliveryAddress, OdOrder } from '../opendelivery/index.js';
import type { StoredOrderItem } from './order-intake.js';
import type { OrderViewRow } from './orders-repository.js';

type OdOrderView = Static<typeof OdOrder>;

/**
 * Ids Open Delivery requires to be uuids that the stored order does not hold as such: an
 * option's free-text id, and the product of an item stored before the product uuid was kept.
 * Name-based (version 5) under this namespace, so the same order always shows the same ids.
 */
const OD_ID_NAMESPACE = '0c9f6a55-3e1b-4d7a-8f20-6b5d4c3a2e19';

function odItem(item: StoredOrderItem, merchantId: string, orderId: string, index: number) {
  // items[].id is the internal product uuid; items[].externalCode the POS code when the product
  // is linked to the POS (the spec's items[].id), otherwise the catalog's externalCode.
  const productId = item.productId ?? (isUuid(item.id) ? item.id : uuidV5(`${merchantId}/${item.id}`, OD_ID_NAMESPACE));
  const linked = item.id !== productId;
  return {
    id: productId,
    index,
    name: item.name,
    externalCode: linked ? item.id : item.externalCode,
    unit: item.unit,
    quantity: item.quantity,
    ...(item.orderedQuantity !== undefined ? { orderedQuantity: item.orderedQuantity } : {}),
    ...(item.specialInstructions ? { specialInstructions: item.specialInstructions } : {}),
    unitPrice: item.unitPrice,
    originalPrice: item.originalPrice,
    totalPrice: item.totalPrice,
    options: item.options.map((o, j) => ({
      index: j,
      id: isUuid(o.id) ? o.id : uuidV5(`${orderId}/${index}/${j}/${o.id}`, OD_ID_NAMESPACE),
      name: o.name,
      externalCode: o.externalCode,
      unit: o.unit,
      quantity: o.quantity,
      unitPrice: o.unitPrice,
      totalPrice: o.totalPrice,
    })),
  };
}

export function toOpenDeliveryOrderView(row: OrderViewRow): OdOrderView {
  const doc = row.document;
  const customer = doc.customer;
  const delivery = doc.delivery;
  return {
    id: doc.id,
    type: doc.type,
    displayId: doc.displayId,
    sourceAppId: doc.sourceAppId,
    salesChannel: doc.salesChannel,
    ...(doc.virtualBrand ? { virtualBrand: doc.virtualBrand } : {}),
    createdAt: doc.createdAt,
    lastEvent: row.last_event as OdOrderView['lastEvent'],
    orderTiming: doc.orderTiming,
    // Open Delivery: "Default is the same time as the order creation time".
    preparationStartDateTime: row.preparation_start_at ? row.preparation_start_at.toISOString() : doc.createdAt,
    merchant: doc.merchant,
    items: doc.items.map((item, i) => odItem(item, row.merchant_id, row.id, i)),
    otherFees: doc.otherFees,
    discounts: doc.discounts,
    total: doc.total,
    payments: doc.payments,
    ...(doc.weighingAdjustment ? { weighingAdjustment: doc.weighingAdjustment } : {}),
    customer: {
      id: customer.id,
      name: customer.name,
      ...(customer.documentNumber ? { documentNumber: customer.documentNumber } : {}),
      phone: {
        number: customer.phone.number,
        ...(customer.phone.extension ? { extension: customer.phone.extension } : {}),
      },
      ...(customer.email ? { email: customer.email } : {}),
      ordersCountOnMerchant: customer.ordersCountOnMerchant,
    },
    ...(doc.schedule ? { schedule: doc.schedule } : {}),
    ...(delivery
      ? {
          delivery: {
            deliveredBy: delivery.deliveredBy,
            // Open Delivery requires coordinates; the platform's default address has them, and an
            // address the operator handed in without them has none to show (README, D28).
            deliveryAddress: delivery.deliveryAddress as Static<typeof OdDeliveryAddress>,
            estimatedDeliveryDateTime: delivery.estimatedDeliveryDateTime,
            ...(row.delivered_at ? { deliveryDateTime: row.delivered_at.toISOString() } : {}),
          },
        }
      : {}),
    ...(doc.takeout ? { takeout: doc.takeout } : {}),
    // What the POS is expected to call: tracking and delivered for a delivery by the merchant,
    // pickedUp for a takeout (D29); preparing is optional everywhere.
    sendPreparing: false,
    sendTracking: doc.type === 'DELIVERY',
    sendDelivered: doc.type === 'DELIVERY',
    sendPickedUp: doc.type === 'TAKEOUT',
    ...(doc.extraInfo ? { extraInfo: doc.extraInfo } : {}),
  };
}
