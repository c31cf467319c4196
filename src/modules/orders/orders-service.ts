// The order use cases: intake, the POS's actions (spec 4.6–4.12, D6, D29), the logistics
// partner's moves and the platform's side. Every change goes through order-changes.ts (one
// transaction, compare-and-set, the rules of D7). Size: one short function per action of the POS,
// the logistics partner and the platform, each deciding over order-changes.ts; the weighing's
// arithmetic lives in order-weighing.ts.
import { randomInt } from 'node:crypto';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { safeEqual } from '../../lib/crypto.js';
import { decodeTimeCursor } from '../../lib/cursor.js';
import { AppError, badRequest, notFound, Refusal } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Principal } from '../auth/index.js';
import { findCutsOfProducts, findProductsByRefs } from '../catalog/index.js';
import type { EventsService, OrderEventType } from '../events/index.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import type { MerchantsService } from '../merchants/index.js';
import {
  cancellationOutcome,
  createOrderChanges,
  noRequestToAnswer,
  ownedOrNotFound,
  refused,
  withNumericDistances,
} from './order-changes.js';
import { buildOrder, type CreateOrderInput } from './order-intake.js';
import { createOrderScheduling } from './order-scheduling.js';
import {
  ACTION_EVENT,
  canRequestCancellation,
  canTrack,
  type LifecycleAction,
  nextStatus,
  type OrderStatus,
} from './order-state.js';
import { orderLines, type StockKeeper } from './order-stock.js';
import { type WeighingLineInput, type WeighingListener, weighOrder } from './order-weighing.js';
import type { OrderRow, OrderState } from './orders-repository.js';
import * as repo from './orders-repository.js';
import type { WeighingView } from './orders-schemas.js';
import { planApproval, planDecision } from './weighing-approval.js';
import { alreadyDecided, type DocumentWithWeighing } from './weighing-approval-writes.js';
import type { WeighingDecision } from './weighing-approvals-repository.js';
import * as approvals from './weighing-approvals-repository.js';
import type { LabelContext } from './weighing-labels.js';

/** The weighing's answer: applied at once (D38), or waiting for the customer's decision (D42 ASK). */
export type PendingWeighingAnswer =
  | { weighingId: string; state: 'APPLIED' }
  | { weighingId: string; state: 'PENDING_APPROVAL'; deadline: string };

/** D36: the out-of-stock and invalid items of a cancellation request, when it names any. */
const itemsNamed = (body: { outOfStockItems?: string[]; invalidItems?: string[] }) => ({
  ...(body.outOfStockItems ? { outOfStockItems: body.outOfStockItems } : {}),
  ...(body.invalidItems ? { invalidItems: body.invalidItems } : {}),
});

/** D44: why a scheduled order is not dispatched yet. */
const slotNotStarted = (slotStart: Date) =>
  `Order is SCHEDULED: not dispatched before its slot starts at ${slotStart.toISOString()}`;

const randomDigits = (n: number) => String(randomInt(0, 10 ** n)).padStart(n, '0');

export function createOrdersService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appId'>;
  events: EventsService;
  merchants: Pick<MerchantsService, 'requireMerchant'>;
  /** D38: called in each weighing's transaction, as `eventListeners` are for events (outbox). */
  weighingListeners?: WeighingListener[];
  /** D36: the platform feed (TRACKING, DELIVERY_CODE_CHECKED items). */
  feed?: FeedRecorder;
  /** D43: counted stock and pauses (the catalog's availability). */
  stock?: StockKeeper;
}) {
  const { db, clock, config, events } = deps;
  const feed = deps.feed ?? noFeed;

  // D44: encomendas (order-scheduling.ts).
  const scheduling = createOrderScheduling({ db, clock });
  const { loadOwned, applyPlan, change, lifecycle, progress, cancelled, feedTracking } = createOrderChanges({
    db,
    clock,
    events,
    feed,
    weighingListeners: deps.weighingListeners,
    stock: deps.stock,
    onCancelled: scheduling.onCancelled,
  });

  /** D41: what reading labels needs: the merchant's layouts and the scale codes of the order's products. */
  async function labelContext(
    merchantId: string,
    orderId: string,
    layouts: LabelContext['layouts'],
  ): Promise<LabelContext> {
    const order = ownedOrNotFound(await repo.findOrder(db, orderId), merchantId);
    const ids = order.document.items.flatMap((i) => (i.productId ? [i.productId] : []));
    const products = await findProductsByRefs(db, merchantId, { ids, pdvIds: [] });
    return { layouts, products: new Map(products.map((p) => [p.id, { name: p.name, scaleCode: p.scale_code }])) };
  }

  /**
   * D42: the platform's decision for the customer on a waiting weighing (`by: platform`), or
   * the merchant's default at the deadline (`by: deadline`). 404 for an unknown weighing of
   * this order, 409 once it is decided.
   */
  async function decideWeighing(
    orderId: string,
    weighingId: string,
    input: { decision: WeighingDecision; lines?: number[] },
    by: 'platform' | 'deadline' = 'platform',
  ): Promise<void> {
    const approval = await approvals.findApproval(db, weighingId);
    if (!approval || approval.order_id !== orderId) throw notFound('Weighing not found');
    if (approval.state !== 'PENDING_APPROVAL') throw alreadyDecided();
    await change(orderId, undefined, (order) => ({
      events: [],
      decision: planDecision(order, approval, input, by, clock.now()),
    }));
  }

  /** D44: refuses a dispatch before the slot of a scheduled order starts (adds nothing otherwise). */
  function notBeforeSlot(order: OrderRow): object {
    if (order.slot_start && clock.now() < order.slot_start) throw refused(slotNotStarted(order.slot_start));
    return {};
  }

  return {
    /** D44: GET /admin/v1/merchants/{merchantId}/slots. */
    async listSlots(merchantId: string, range: { from?: string; to?: string }) {
      return scheduling.listSlots(await deps.merchants.requireMerchant(merchantId), range);
    },

    /** D44: the sweep cancels scheduled orders the POS did not confirm within confirmWithinMinutes. */
    async cancelUnconfirmedScheduled(): Promise<number> {
      let n = 0;
      for (const orderId of await scheduling.unconfirmedPastDeadline()) {
        try {
          await change(orderId, undefined, (order) => {
            if (order.status !== 'CREATED') throw refused(`Order is ${order.status}`);
            return cancelled(order, {
              reason: 'The scheduled order was not confirmed in time',
              code: 'SYSTEMIC_ISSUES',
            });
          });
          n++;
        } catch (error) {
          // Confirmed or cancelled meanwhile (by the POS or another worker's sweep): nothing to do.
          if (!(error instanceof Refusal)) throw error;
        }
      }
      return n;
    },

    /** POST /admin/v1/merchants/{merchantId}/orders (operator-api.md#orders): emits CREATED. */
    async createOrder(merchantId: string, input: CreateOrderInput) {
      const merchant = await deps.merchants.requireMerchant(merchantId);
      // Spec 3.3: UNAVAILABLE switches the order-receiving switch off.
      if (merchant.status !== 'AVAILABLE') throw badRequest('Merchant is UNAVAILABLE and does not receive orders');
      // D44: SCHEDULED comes with a schedule; INSTANT without one.
      if (input.orderTiming === 'SCHEDULED' && !input.schedule)
        throw badRequest('schedule is required for a SCHEDULED order');
      if (input.orderTiming === 'INSTANT' && input.schedule)
        throw badRequest('schedule applies to SCHEDULED orders only');
      const ids = input.items.flatMap((i) => (i.productId ? [i.productId] : []));
      const pdvIds = input.items.flatMap((i) => (i.pdvId !== undefined ? [i.pdvId] : []));
      const products = await findProductsByRefs(db, merchantId, { ids, pdvIds });
      // D37: the cuts an item may name, only when some item names one.
      const cuts = input.items.some((i) => i.cutId !== undefined)
        ? await findCutsOfProducts(
            db,
            products.map((p) => p.id),
          )
        : undefined;
      const ordersCount = input.customer?.id ? await repo.countCustomerOrders(db, merchantId, input.customer.id) : 0;
      const orderId = newId();
      const now = clock.now();
      const built = buildOrder(input, {
        orderId,
        now,
        appId: config.appId,
        merchant: { id: merchant.id, name: merchant.name },
        products,
        cuts,
        ordersCountOnMerchant: ordersCount,
        newId,
        randomDigits,
      });
      // D43: nothing paused, nothing asked beyond counted stock (taken at confirmation).
      await deps.stock?.checkIntake(merchantId, orderLines(built.document));
      // D44: the slot, the lead times, the preparation start.
      const schedule = scheduling.plan(merchant, built.document, products);
      await db.transaction(async (tx) => {
        if (schedule) await scheduling.takePlace(tx, merchantId, schedule);
        await repo.insertOrder(tx, {
          id: orderId,
          merchantId,
          type: input.type,
          displayId: built.document.displayId,
          customerId: built.customerId,
          deliveryCode: built.deliveryCode,
          totals: built.totals,
          document: built.document,
          at: now,
          schedule: schedule && {
            slotStart: schedule.slot.start,
            preparationStartAt: schedule.preparationStartAt,
            confirmBy: schedule.confirmBy,
          },
        });
        // D44: the platform feed's item carries the schedule.
        const detail = schedule && {
          schedule: built.document.schedule,
          preparationStartDateTime: schedule.preparationStartAt.toISOString(),
        };
        await events.recordEvent(tx, { merchantId, orderId, eventType: 'CREATED', ...(detail ? { detail } : {}) });
      });
      return (await repo.findOrder(db, orderId)) as OrderRow;
    },

    /** GET /v1/orders/{orderId} (spec 4.6): one primary-key read of what the POS's views need. */
    getOrder: async (principal: Principal, orderId: string) =>
      ownedOrNotFound(await repo.findOrderView(db, orderId), principal.merchantId),
    getAnyOrder: (orderId: string) => loadOwned(db, orderId, undefined),
    /** Operator lists: newest first, keyset-paged by `cursor`, searched by `q` (operator-api.md#lists). */
    listOrders: (filter: Omit<repo.OrderListFilter, 'after'> & { cursor?: string }) =>
      repo.listOrders(db, { ...filter, after: decodeTimeCursor(filter.cursor) }),
    listTracking: (orderId: string) => repo.listTracking(db, orderId),
    /** D38: the order's weighings, oldest first (its timeline), as the operator reads them. */
    async listWeighings(orderId: string): Promise<Array<Static<typeof WeighingView>>> {
      const brl = (value: string) => ({ value: Number(value), currency: 'BRL' });
      return (await repo.listWeighings(db, orderId)).map((w) => ({
        id: w.id,
        keyId: w.key_id,
        weighedAt: w.weighed_at.toISOString(),
        lines: w.lines,
        itemsPriceBefore: brl(w.items_price_before),
        itemsPriceAfter: brl(w.items_price_after),
        orderAmountAfter: brl(w.order_amount_after),
        weighingAdjustment: w.weighing_adjustment,
      }));
    },

    /**
     * D38: the weighed kilograms of KG lines. Allowed while CONFIRMED (until READY_FOR_PICKUP or
     * DISPATCHED, or a takeout's PICKED_UP), repeatable (the last weighing of a line counts); a
     * broken rule applies nothing. A compare-and-set like every other change, so a weighing and
     * a dispatch racing each other leave one outcome.
     */
    async weigh(
      principal: Principal,
      orderId: string,
      body: { items: WeighingLineInput[] },
    ): Promise<PendingWeighingAnswer> {
      const merchant = await deps.merchants.requireMerchant(principal.merchantId);
      // D41: the layouts and the order's products' scale codes, only when a line is a label.
      const labels = body.items.some((l) => l.label !== undefined)
        ? await labelContext(principal.merchantId, orderId, merchant.scale_label_layouts)
        : undefined;
      const ask = merchant.weighing_out_of_tolerance === 'ASK';
      let pending: PendingWeighingAnswer | undefined;
      await change(orderId, principal.merchantId, (order) => {
        pending = undefined;
        if (order.status !== 'CONFIRMED') throw refused(`Order is ${order.status}`);
        if (order.event_types.includes('PICKED_UP')) throw refused('Order is PICKED_UP');
        const waiting = (order.document as DocumentWithWeighing).weighing;
        if (waiting?.state === 'PENDING_APPROVAL') {
          throw refused(`Order has a weighing waiting for the customer's decision until ${waiting.deadline}`);
        }
        const outcome = weighOrder(order.document, body.items, merchant.weighing_tolerance_percent, { labels, ask });
        if (!outcome.checked.some((line) => line.outside)) {
          const id = newId();
          pending = { weighingId: id, state: 'APPLIED' };
          return { events: [], weighing: { keyId: principal.keyId, outcome, id } };
        }
        // D42 ASK: nothing changes yet; the platform decides for the customer by the deadline.
        const approval = planApproval(order.document, outcome, {
          keyId: principal.keyId,
          weighingId: newId(),
          now: clock.now(),
          seconds: merchant.weighing_approval_seconds,
          defaultDecision: merchant.weighing_approval_default,
        });
        pending = {
          weighingId: approval.weighing.weighingId,
          state: 'PENDING_APPROVAL',
          deadline: approval.weighing.deadline,
        };
        return { events: [], approval };
      });
      if (!pending) throw new Error('a weighing that changed the order left no answer');
      return pending;
    },

    decideWeighing,

    /**
     * D42: applies the merchant's default to every waiting weighing past its deadline. Safe with
     * several workers: each decision is a compare-and-set, and one that another worker (or the
     * platform) got to first is skipped. Returns how many this call decided.
     */
    async decideDueWeighings(limit = 100): Promise<number> {
      let decided = 0;
      for (const due of await approvals.dueApprovals(db, clock.now(), limit)) {
        try {
          await decideWeighing(due.order_id, due.id, { decision: due.default_decision }, 'deadline');
          decided++;
        } catch (error) {
          if (error instanceof AppError && error.status === 409) continue;
          throw error;
        }
      }
      return decided;
    },

    /** Spec 4.7. */
    confirm(principal: Principal, orderId: string, body: { orderExternalCode: string; preparationTime?: number }) {
      return change(orderId, principal.merchantId, (order) => {
        const plan = lifecycle(order, 'confirm', true);
        return {
          state: {
            ...plan.state,
            orderExternalCode: body.orderExternalCode,
            preparationTimeMin: body.preparationTime ?? null,
            // D44: a scheduled order keeps the preparation start its slot gave it.
            preparationStartAt: order.slot_start ? order.preparation_start_at : clock.now(),
          },
          // D2: CONFIRMED carries the integration key that confirmed.
          // D36: the platform feed also hears the code and the preparation time.
          events: [
            {
              eventType: 'CONFIRMED',
              metadata: { clientId: principal.keyId },
              detail: {
                orderExternalCode: body.orderExternalCode,
                ...(body.preparationTime !== undefined ? { preparationTime: body.preparationTime } : {}),
              },
            },
          ],
        };
      });
    },

    /** D6. */
    readyForPickup: (principal: Principal, orderId: string) =>
      change(orderId, principal.merchantId, (order) => lifecycle(order, 'readyForPickup', true)),

    /** D6: optional deliveryTrackingInfo is stored like a tracking update. */
    dispatch: (principal: Principal, orderId: string, trackingInfo?: unknown) =>
      change(orderId, principal.merchantId, (order) => ({
        ...lifecycle(order, 'dispatch', true),
        ...notBeforeSlot(order),
        ...(trackingInfo
          ? {
              tracking: {
                keyId: principal.keyId,
                body: { deliveryTrackingInfo: withNumericDistances(trackingInfo) },
              },
            }
          : {}),
      })),

    delivered: (principal: Principal, orderId: string) =>
      change(orderId, principal.merchantId, (order) => {
        const plan = lifecycle(order, 'delivered', true);
        return { ...plan, state: { ...plan.state, deliveredAt: clock.now() } };
      }),

    /** D29: Open Delivery's optional "preparation has started" (PREPARING). */
    preparing: (principal: Principal, orderId: string) =>
      change(orderId, principal.merchantId, (order) => progress(order, 'preparing')),

    /** D29: a TAKEOUT order was picked up by the customer (PICKED_UP). */
    pickedUp: (principal: Principal, orderId: string) =>
      change(orderId, principal.merchantId, (order) => progress(order, 'pickedUp')),

    /**
     * D29: PATCH details. Changes when preparation should start, which the order view shows as
     * preparationStartDateTime; no event, no status change. Refused once the order is finished.
     */
    updateDetails: (principal: Principal, orderId: string, body: { preparationStartDateTime: string }) =>
      change(orderId, principal.merchantId, (order) => {
        if (!canTrack(order.status)) throw refused(`Order is ${order.status}`);
        return { state: { preparationStartAt: new Date(body.preparationStartDateTime) }, events: [] };
      }),

    /** Spec 4.8: the POS asks; the platform answers later (operator cancellationDecision). */
    requestCancellation: (
      principal: Principal,
      orderId: string,
      body: { reason: string; code: string; mode: string; outOfStockItems?: string[]; invalidItems?: string[] },
    ) =>
      change(orderId, principal.merchantId, (order) => {
        // D28.3: Open Delivery's answer tells the POS how its earlier request ended (the route
        // sends it to an opendelivery key only).
        const outcome = cancellationOutcome(order);
        const detail = outcome ? { cancellationStatus: outcome } : undefined;
        if (order.event_types.includes('CANCELLATION_REQUESTED')) {
          throw refused('Order has already same event type', detail);
        }
        if (!canRequestCancellation(order.status)) throw refused(`Order is ${order.status}`, detail);
        const request = { reason: body.reason, code: body.code, mode: body.mode };
        return {
          state: { posCancellation: request },
          // D36: the items the POS names go to the platform feed.
          events: [{ eventType: 'CANCELLATION_REQUESTED', metadata: request, detail: itemsNamed(body) }],
        };
      }),

    /** Spec 4.9: answers an open customer request (D7). */
    acceptCancellation: (principal: Principal, orderId: string) =>
      change(orderId, principal.merchantId, (order) => {
        if (!order.customer_cancellation) throw noRequestToAnswer();
        return cancelled(order, order.customer_cancellation);
      }),

    /**
     * Spec 4.10, D8: CANCELLED_DENIED (polled) then CANCELLATION_REQUEST_DENIED (webhook only;
     * not sent to a URL an opendelivery key registered, D28.2). Which codes a key's profile may
     * send is the route's (orders-routes.ts, D28.5).
     */
    denyCancellation: (principal: Principal, orderId: string, body: { reason: string; code: string }) =>
      change(orderId, principal.merchantId, (order) => {
        if (!order.customer_cancellation) throw noRequestToAnswer();
        const metadata = { reason: body.reason, code: body.code };
        return {
          state: { customerCancellation: null },
          events: [
            { eventType: 'CANCELLED_DENIED', metadata },
            { eventType: 'CANCELLATION_REQUEST_DENIED', metadata, polled: false },
          ],
        };
      }),

    /**
     * Spec 4.11 and 4.15 (D7: DELIVERY orders; the code is compared in constant time). Every
     * check of a code, right or wrong, is a `DELIVERY_CODE_CHECKED` item of the feed (D36).
     */
    async validateCode(
      principal: Pick<Principal, 'merchantId'>,
      orderId: string,
      deliveryCode: string | undefined,
      source: 'pos' | 'logistics' = 'pos',
    ) {
      const order = await loadOwned(db, orderId, principal.merchantId);
      if (order.type !== 'DELIVERY') {
        throw badRequest(`Order is ${order.type}: validateCode applies to DELIVERY orders only`);
      }
      if (deliveryCode === undefined || deliveryCode === '') throw badRequest('deliveryCode is required');
      const valid = safeEqual(deliveryCode, order.delivery_code);
      await feed(db, {
        kind: 'order',
        type: 'DELIVERY_CODE_CHECKED',
        merchantId: order.merchant_id,
        orderId: order.id,
        data: { valid, source },
      });
      if (!valid) throw badRequest('Invalid code provided');
      return { orderId: order.id, deliveryCode };
    },

    /** Spec 4.12: stored always (D7), refused only on finished orders. */
    async track(principal: Principal, orderId: string, body: { deliveryTrackingInfo: unknown }) {
      const order = await loadOwned(db, orderId, principal.merchantId);
      if (!canTrack(order.status)) throw refused(`Order is ${order.status}`);
      const stored = { ...body, deliveryTrackingInfo: withNumericDistances(body.deliveryTrackingInfo) };
      const at = clock.now();
      await db.transaction(async (tx) => {
        await repo.insertTracking(tx, { id: newId(), orderId: order.id, keyId: principal.keyId, body: stored, at });
        await feedTracking(tx, order, stored, at);
      });
    },

    // ---- retention (D30): orders stay; their history goes once they are long finished ----
    finishedOrdersToPrune: (before: Date, limit: number) => repo.finishedOrdersToPrune(db, before, limit),
    markHistoryPruned: (orderIds: string[]) => repo.pruneOrderHistory(db, orderIds, clock.now()),

    // ---- logistics partner (spec 4.14), inside the logistics module's transaction -------------

    /**
     * Locks the orders a deliveryUpdate names, in id order (two updates naming the same orders
     * cannot deadlock), for the caller's transaction; unknown ids are simply absent.
     */
    lockOrders: (tx: Queryable, orderIds: string[]) => repo.findOrdersForUpdate(tx, orderIds),

    /**
     * Spec 3.1 / D7: DELIVERY_ONGOING / DELIVERY_FINISHED move a locked order to DISPATCHED /
     * DELIVERED from any non-final status, raising the event (with its polling receipts and
     * webhook fan-out) in the caller's transaction. An order already there, or one the table
     * does not allow to move (finished, or delivered before a late DELIVERY_ONGOING), is left
     * as it is: the partner's update is still recorded, with the reason in `note`.
     */
    async applyLogisticsEvent(
      tx: Queryable,
      order: OrderRow,
      action: Extract<LifecycleAction, 'logisticsDispatched' | 'logisticsDelivered'>,
    ): Promise<{ statusAfter: OrderStatus; raisedEvent: OrderEventType | null; note: string | null }> {
      const result = nextStatus(order.status, action, order.type);
      if (!result.ok) return { statusAfter: order.status, raisedEvent: null, note: result.reason };
      // D44: a scheduled order is never dispatched before its slot starts.
      if (action === 'logisticsDispatched' && order.slot_start && clock.now() < order.slot_start) {
        return { statusAfter: order.status, raisedEvent: null, note: slotNotStarted(order.slot_start) };
      }
      if (result.next === order.status) {
        return { statusAfter: order.status, raisedEvent: null, note: `Order is already ${order.status}` };
      }
      const eventType = ACTION_EVENT[action];
      const state: Partial<OrderState> = { status: result.next };
      if (result.next === 'DELIVERED') state.deliveredAt = clock.now();
      await applyPlan(tx, order, { state, events: [{ eventType }] });
      return { statusAfter: result.next, raisedEvent: eventType, note: null };
    },

    // ---- platform side (operator API, D6) ----------------------------------------------------

    /** The customer asks to cancel: ORDER_CANCELLATION_REQUEST, re-opened on a repeat (D1). */
    customerCancellation: (orderId: string, body: { reason?: string; code?: string }) =>
      change(orderId, undefined, (order) => {
        if (!canRequestCancellation(order.status)) throw badRequest(`Order is ${order.status}`);
        if (order.customer_cancellation) throw badRequest('A customer cancellation request is already open');
        const request = {
          reason: body.reason ?? 'O cliente pediu o cancelamento',
          code: body.code ?? 'CUSTOMER_REQUEST',
        };
        return {
          state: { customerCancellation: request },
          events: [{ eventType: 'ORDER_CANCELLATION_REQUEST', metadata: request }],
        };
      }),

    /** The platform answers a POS requestCancellation: CANCELLED or CANCELLATION_REQUEST_DENIED. */
    cancellationDecision: (orderId: string, body: { decision: 'accept' | 'deny'; reason?: string }) =>
      change(orderId, undefined, (order) => {
        const request = order.pos_cancellation;
        if (!request) throw noRequestToAnswer();
        if (body.decision === 'accept') return cancelled(order, request);
        return {
          state: { posCancellation: null },
          events: [
            {
              eventType: 'CANCELLATION_REQUEST_DENIED',
              metadata: { reason: body.reason ?? 'The platform denied the cancellation request', code: request.code },
            },
          ],
        };
      }),

    /** Platform-side events: CONCLUDED, PICKUP_AREA_ASSIGNED, CANCELLED. */
    platformEvent: (
      orderId: string,
      body: {
        eventType: 'CONCLUDED' | 'PICKUP_AREA_ASSIGNED' | 'CANCELLED';
        pickupArea?: string;
        reason?: string;
        code?: string;
      },
    ) =>
      change(orderId, undefined, (order) => {
        switch (body.eventType) {
          case 'CONCLUDED':
            return lifecycle(order, 'conclude', false);
          case 'CANCELLED':
            return cancelled(order, {
              reason: body.reason ?? 'Cancelled by the platform',
              code: body.code ?? 'SYSTEMIC_ISSUES',
            });
          case 'PICKUP_AREA_ASSIGNED':
            if (!canTrack(order.status)) throw badRequest(`Order is ${order.status}`);
            // D2 metadata {pickupArea}; a new area re-opens the event (D1).
            return {
              events: [{ eventType: 'PICKUP_AREA_ASSIGNED', metadata: { pickupArea: body.pickupArea ?? 'DEFAULT' } }],
            };
          default:
            throw new AppError(400, 'eventType must be one of CONCLUDED, PICKUP_AREA_ASSIGNED, CANCELLED');
        }
      }),
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
