import type { Static } from 'typebox';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { unstorableTextPath } from '../../lib/storable-text.js';
import { orderNotFound } from '../events/index.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import type { OrderRow, OrdersService } from '../orders/index.js';
import type { LogisticsCaller } from './logistics-auth.js';
import type { ConfirmationCodeBody, DeliveryUpdateBody, LogisticsUpdateView } from './logistics-schemas.js';
import * as repo from './logistics-updates-repository.js';

export type DeliveryUpdate = Static<typeof DeliveryUpdateBody>;

/** Spec 3.1: the two logistics event types that move an order; the others are kept for tracking. */
const MOVES = {
  DELIVERY_ONGOING: 'logisticsDispatched',
  DELIVERY_FINISHED: 'logisticsDelivered',
} as const;

/** D36: what the platform feed's LOGISTICS_UPDATE item carries of a deliveryUpdate. */
function feedData(body: DeliveryUpdate): Record<string, unknown> {
  const data: Record<string, unknown> = { deliveryId: body.deliveryId, event: body.event };
  for (const field of ['eta', 'deliveryPerson', 'geoLocalization', 'externalTrackingURL'] as const) {
    if (body[field] !== undefined) data[field] = body[field];
  }
  return data;
}

export function createLogisticsService(deps: { db: Db; clock: Clock; orders: OrdersService; feed?: FeedRecorder }) {
  const { db, clock, orders } = deps;
  const feed = deps.feed ?? noFeed;

  return {
    /**
     * Spec 4.14. One transaction: the request row (unique per app and body hash: a replay finds
     * it and changes nothing), the orders it names locked in id order, each moved per spec 3.1
     * / D7 through the orders service (which records DISPATCHED / DELIVERED with their polling
     * receipts and webhook fan-out), and one stored update per order. Any error rolls all back.
     */
    async receiveDeliveryUpdate(caller: LogisticsCaller, body: DeliveryUpdate): Promise<{ replay: boolean }> {
      if (body.merchant.id.toLowerCase() !== caller.merchantId) {
        throw badRequest('merchant.id must match X-App-MerchantId');
      }
      const badText = unstorableTextPath(body);
      if (badText) throw badRequest(`${badText} contains characters that cannot be stored`);

      const mainId = body.orderId.toLowerCase();
      const combined = (body.combinedOrdersIds ?? []).map((id) => id.toLowerCase());
      const targets = [...new Set([mainId, ...combined])];
      const action = MOVES[body.event.type as keyof typeof MOVES] as (typeof MOVES)[keyof typeof MOVES] | undefined;

      return db.transaction(async (tx) => {
        const requestId = newId();
        const stored = await repo.insertRequestOnce(tx, {
          id: requestId,
          appId: caller.appId,
          bodySha256: caller.bodySha256,
          merchantId: caller.merchantId,
          deliveryId: body.deliveryId,
          eventType: body.event.type,
          body,
          at: clock.now(),
        });
        if (!stored) return { replay: true };

        const locked = new Map((await orders.lockOrders(tx, targets)).map((o) => [o.id, o] as const));
        const owned = (id: string): OrderRow | undefined => {
          const order = locked.get(id);
          return order && order.merchant_id === caller.merchantId ? order : undefined;
        };
        // D21: another merchant's order is indistinguishable from a missing one.
        if (!owned(mainId)) throw orderNotFound();
        const foreign = combined.findIndex((id) => !owned(id));
        if (foreign >= 0) throw badRequest(`combinedOrdersIds[${foreign}] is not an order of this merchant`);

        const updates = [];
        for (const id of targets) {
          const order = owned(id) as OrderRow;
          const outcome = action
            ? await orders.applyLogisticsEvent(tx, order, action)
            : { statusAfter: order.status, raisedEvent: null, note: null };
          updates.push({ orderId: id, combined: id !== mainId, statusBefore: order.status, ...outcome });
          await feed(tx, {
            kind: 'order',
            type: 'LOGISTICS_UPDATE',
            merchantId: order.merchant_id,
            orderId: id,
            data: feedData(body),
          });
        }
        await repo.insertUpdates(tx, requestId, updates);
        return { replay: false };
      });
    },

    /** Spec 4.15: the logistics-side equivalent of 4.11, the same check. */
    confirmCode: (caller: LogisticsCaller, body: Static<typeof ConfirmationCodeBody>) =>
      orders.validateCode({ merchantId: caller.merchantId }, body.orderId, body.deliveryCode, 'logistics'),

    /** For the operator's order view (GET /admin/v1/orders/{id} `logisticsUpdates`), oldest first. */
    /** Retention (D30): updates of orders whose history is pruned, and requests left with none. */
    pruneOrderUpdates: (orderIds: string[]) => repo.deleteOrderUpdates(db, orderIds),
    pruneOrphanRequests: (before: Date, limit: number) => repo.deleteOrphanRequests(db, before, limit),

    async listUpdates(orderId: string): Promise<Array<Static<typeof LogisticsUpdateView>>> {
      const rows = await repo.listUpdatesOfOrder(db, orderId);
      return rows.map((r) => ({
        requestId: r.request_id,
        appId: r.app_id,
        deliveryId: r.delivery_id,
        eventType: r.event_type,
        receivedAt: r.received_at.toISOString(),
        combined: r.combined,
        statusBefore: r.status_before,
        statusAfter: r.status_after,
        raisedEvent: r.raised_event,
        note: r.note,
        body: r.body,
      }));
    },
  };
}

export type LogisticsService = ReturnType<typeof createLogisticsService>;
