// How one change of an order is made (architecture.md#data-flow): read it, decide with the pure
// rules of order-state.ts, compare-and-set the new state, record the events, in one transaction.
// A refused action is one Refusal whoever asked; its status in each dialect (D7, D28.3) is the
// route's, at the edge (answerRefusal in lib/route-declaration.ts).
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, Refusal } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type EventsService, type OrderEventType, orderNotFound } from '../events/index.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import {
  ACTION_EVENT,
  type LifecycleAction,
  nextStatus,
  PROGRESS_EVENT,
  type ProgressAction,
  progressAllowed,
} from './order-state.js';
import { giveBackLines, orderLines, type StockKeeper, weighingMoves } from './order-stock.js';
import type { OrderWeighed, WeighingListener, WeighingOutcome } from './order-weighing.js';
import type { CancellationRequest, OrderRow, OrderState } from './orders-repository.js';
import * as repo from './orders-repository.js';
import {
  type ApprovalPlan,
  applyApproval,
  applyDecision,
  type DecisionListener,
  type DecisionPlan,
} from './weighing-approval-writes.js';

/**
 * An action the order already has, or one its state does not allow, with a title saying why (D7);
 * `detail` is what Open Delivery's answer adds (D28.3). Whoever asked: the route answers it.
 */
export const refused = (title: string, detail?: Record<string, unknown>) => new Refusal(title, detail);
export const alreadySameEvent = () => refused('Order has already same event type');
export const noRequestToAnswer = () => refused('No cancellation request to answer');
const CAS_ATTEMPTS = 5;

/**
 * D28.3: Open Delivery's answer to a repeated requestCancellation says how the earlier request
 * ended, once it has: the order was cancelled, or the platform denied the request.
 */
export function cancellationOutcome(order: OrderRow): 'CANCELLED' | 'CANCELLATION_REQUEST_DENIED' | undefined {
  if (order.status === 'CANCELLED') return 'CANCELLED';
  const denied =
    order.pos_cancellation === null &&
    order.event_types.includes('CANCELLATION_REQUESTED') &&
    order.event_types.includes('CANCELLATION_REQUEST_DENIED');
  return denied ? 'CANCELLATION_REQUEST_DENIED' : undefined;
}

/** D28.7: tracking distances arrive as numbers or decimal strings; they are kept as numbers. */
export function withNumericDistances<T>(info: T): T {
  const address = (info as { geoLocalization?: { lastAddress?: Record<string, unknown> } } | undefined)?.geoLocalization
    ?.lastAddress;
  if (!address) return info;
  const geo = (info as { geoLocalization: Record<string, unknown> }).geoLocalization;
  const lastAddress = { ...address };
  for (const field of ['distanceToPickup', 'distanceToDelivery']) {
    if (typeof lastAddress[field] === 'string') lastAddress[field] = Number(lastAddress[field]);
  }
  return { ...info, geoLocalization: { ...geo, lastAddress } };
}

class VersionConflict extends Error {}

export interface PlannedEvent {
  eventType: OrderEventType;
  metadata?: Record<string, unknown>;
  polled?: boolean;
  /** For the platform feed only (D36), never shown to a POS. */
  detail?: Record<string, unknown>;
}

/** What one change does: the new state fields and the events it raises (in order). */
export interface Plan {
  state?: Partial<OrderState>;
  events: PlannedEvent[];
  tracking?: { keyId: string | null; body: unknown };
  /** D38: a weighing rewrites the document and its totals; it raises no event (no state, no events). */
  weighing?: { keyId: string | null; outcome: WeighingOutcome; id?: string };
  /** D42: a weighing out of tolerance that waits for the platform's decision. */
  approval?: ApprovalPlan;
  /** D42: the decision on a waiting weighing (the platform's or the deadline's). */
  decision?: DecisionPlan;
}

/**
 * D21: another merchant's order is indistinguishable from a missing one. `merchantId` undefined:
 * the operator, who reads every merchant's orders.
 */
export function ownedOrNotFound<T extends { merchant_id: string }>(
  order: T | undefined,
  merchantId: string | undefined,
): T {
  if (!order || (merchantId !== undefined && order.merchant_id !== merchantId)) throw orderNotFound();
  return order;
}

export function createOrderChanges(deps: {
  db: Db;
  clock: Clock;
  events: EventsService;
  /** D38: called in each weighing's transaction (the platform feed's WEIGHED item). */
  weighingListeners?: WeighingListener[];
  /** D36: the platform feed's TRACKING item, in the change's transaction. */
  feed?: FeedRecorder;
  /** D43: counted stock, moved in the change's transaction (the catalog's). */
  stock?: StockKeeper;
  /** D44: a cancelled scheduled order gives its slot's place back, in the change's transaction. */
  onCancelled?: (tx: Queryable, order: OrderRow) => Promise<void>;
}) {
  const { db, clock, events } = deps;
  const feed = deps.feed ?? noFeed;
  const weighingListeners = deps.weighingListeners ?? [];

  /** D38: the weighed document (compare-and-set), its timeline entry, then its listeners. */
  async function applyWeighing(tx: Queryable, order: OrderRow, weighing: NonNullable<Plan['weighing']>) {
    const { outcome, keyId } = weighing;
    const at = clock.now();
    const written = await repo.updateWeighedOrderIfVersion(
      tx,
      order.id,
      order.version,
      { document: outcome.document, ...outcome.totals },
      at,
    );
    if (!written) throw new VersionConflict();
    // D43: the weighed quantities replace the ordered ones in what the order holds of stock.
    if (deps.stock && order.stock_taken) {
      const moves = weighingMoves(order.stock_taken, outcome.document);
      if (moves.lines.length > 0) {
        await deps.stock.moveStock(tx, order.merchant_id, moves.lines);
        await repo.setStockTaken(tx, order.id, moves.holds);
      }
    }
    const id = weighing.id ?? newId();
    await repo.insertWeighing(tx, {
      id,
      orderId: order.id,
      key_id: keyId,
      lines: outcome.lines,
      items_price_before: String(outcome.itemsPriceBefore.value),
      items_price_after: outcome.totals.itemsPrice,
      order_amount_after: outcome.totals.orderAmount,
      weighing_adjustment: outcome.weighingAdjustment,
      weighed_at: at,
    });
    const weighed: OrderWeighed = {
      id,
      merchantId: order.merchant_id,
      orderId: order.id,
      occurredAt: at,
      keyId,
      data: {
        lines: outcome.lines,
        itemsPriceBefore: outcome.itemsPriceBefore,
        itemsPriceAfter: outcome.itemsPriceAfter,
        weighingAdjustment: outcome.weighingAdjustment,
      },
    };
    for (const listener of weighingListeners) await listener(tx, weighed);
  }

  /** D36: a tracking update as the platform feed's `order TRACKING` item. */
  function feedTracking(tx: Queryable, order: Pick<OrderRow, 'id' | 'merchant_id'>, body: unknown, at: Date) {
    const info = (body as { deliveryTrackingInfo?: unknown } | null)?.deliveryTrackingInfo ?? null;
    return feed(tx, {
      kind: 'order',
      type: 'TRACKING',
      merchantId: order.merchant_id,
      orderId: order.id,
      occurredAt: at,
      data: { deliveryTrackingInfo: info },
    });
  }

  async function loadOwned(q: Queryable, orderId: string, merchantId: string | undefined): Promise<OrderRow> {
    return ownedOrNotFound(await repo.findOrder(q, orderId), merchantId);
  }

  /**
   * D43: confirmation takes the ordered quantities of counted products (a 400 naming the item
   * when one is short, and nothing of the change written); cancellation gives back what the
   * order holds. D44: a cancelled order's slot place is given back too.
   */
  async function moveStockWith(tx: Queryable, order: OrderRow, status: OrderRow['status']) {
    if (status === order.status) return;
    if (status === 'CONFIRMED' && deps.stock) {
      const taken = await deps.stock.moveStock(tx, order.merchant_id, orderLines(order.document));
      if (taken.size > 0) await repo.setStockTaken(tx, order.id, Object.fromEntries(taken));
    }
    if (status === 'CANCELLED') {
      if (deps.stock && order.stock_taken) {
        await deps.stock.moveStock(tx, order.merchant_id, giveBackLines(order.stock_taken));
        await repo.setStockTaken(tx, order.id, null);
      }
      await deps.onCancelled?.(tx, order);
    }
  }

  /** D42: the opt-in WEIGHING_DECIDED event, for the keys that asked for it, in the decision's tx. */
  const decided: DecisionListener = async (tx, d) => {
    await events.recordEvent(tx, {
      merchantId: d.merchantId,
      orderId: d.orderId,
      eventType: 'WEIGHING_DECIDED',
      metadata: { weighingId: d.weighingId, decision: d.decision, by: d.by },
      optIn: true,
    });
  };

  /** Writes one decided change: compare-and-set of the state, tracking, then the events. */
  async function applyPlan(tx: Queryable, order: OrderRow, plan: Plan): Promise<void> {
    if (plan.weighing) return applyWeighing(tx, order, plan.weighing);
    if (plan.approval) {
      if (!(await applyApproval(tx, order, plan.approval, { feed, at: clock.now() }))) throw new VersionConflict();
      return;
    }
    if (plan.decision) {
      const write = (outcome: WeighingOutcome) =>
        applyWeighing(tx, order, { keyId: plan.decision?.keyId ?? null, outcome });
      if (!(await applyDecision(tx, order, plan.decision, { feed, at: clock.now(), write, listeners: [decided] }))) {
        throw new VersionConflict();
      }
      return;
    }
    const current = repo.stateOf(order);
    const polled = plan.events.filter((e) => e.polled !== false).map((e) => e.eventType);
    const next: OrderState = {
      ...current,
      ...plan.state,
      lastEvent: polled.at(-1) ?? current.lastEvent,
      eventTypes: [...new Set([...current.eventTypes, ...polled])],
    };
    const at = clock.now();
    if (!(await repo.updateOrderIfVersion(tx, order.id, order.version, next, at))) throw new VersionConflict();
    await moveStockWith(tx, order, next.status);
    if (plan.tracking) {
      await repo.insertTracking(tx, { id: newId(), orderId: order.id, ...plan.tracking, at });
      await feedTracking(tx, order, plan.tracking.body, at);
    }
    for (const e of plan.events) {
      await events.recordEvent(tx, { merchantId: order.merchant_id, orderId: order.id, ...e });
    }
  }

  /**
   * One state change: read, decide (pure rules), compare-and-set, record the events, all in one
   * transaction. A concurrent change makes the CAS miss; the whole decision is then re-made
   * on the fresh row (which usually turns it into a rule error such as a duplicate). Resolves
   * with nothing: the row it read is the state before the change, and no caller needs the one
   * after (a reader asks the order's view, which the change's events also describe).
   */
  async function change(
    orderId: string,
    merchantId: string | undefined,
    decide: (order: OrderRow) => Plan,
  ): Promise<void> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      try {
        await db.transaction(async (tx) => {
          const order = await loadOwned(tx, orderId, merchantId);
          await applyPlan(tx, order, decide(order));
        });
        return;
      } catch (error) {
        if (error instanceof VersionConflict) continue;
        throw error;
      }
    }
    throw conflict('The order changed concurrently; try again');
  }

  /** A lifecycle move of D7: refuses a repeat of the same event, then applies the table. */
  function lifecycle(order: OrderRow, action: LifecycleAction, refuseRepeat: boolean): Plan {
    const eventType = ACTION_EVENT[action];
    if (refuseRepeat && order.event_types.includes(eventType)) throw alreadySameEvent();
    // D29: a takeout order the customer has picked up does not become ready again.
    if (action === 'readyForPickup' && order.event_types.includes('PICKED_UP')) {
      throw refused('Order is PICKED_UP');
    }
    const result = nextStatus(order.status, action, order.type);
    if (!result.ok) throw refused(result.reason);
    return { state: { status: result.next }, events: [{ eventType }] };
  }

  /** D29: PREPARING or PICKED_UP, which change lastEvent and not the status (order-state.ts). */
  function progress(order: OrderRow, action: ProgressAction): Plan {
    const eventType = PROGRESS_EVENT[action];
    if (order.event_types.includes(eventType)) throw alreadySameEvent();
    const result = progressAllowed(order.status, action, order.type, order.event_types);
    if (!result.ok) throw refused(result.reason);
    return { events: [{ eventType }] };
  }

  /** Cancelling closes whatever cancellation requests were open. */
  const cancelled = (order: OrderRow, reason: CancellationRequest): Plan => {
    const plan = lifecycle(order, 'cancel', false);
    return {
      state: { ...plan.state, customerCancellation: null, posCancellation: null },
      events: [{ eventType: 'CANCELLED', metadata: { reason: reason.reason, code: reason.code } }],
    };
  };

  return { loadOwned, applyPlan, change, lifecycle, progress, cancelled, feedTracking };
}

export type OrderChanges = ReturnType<typeof createOrderChanges>;
