// The order lifecycle as data (style.md#a-module: a transition table plus a pure nextStatus). D5: this is
// the lifecycle `status`; cancellation side events change `lastEvent` only. D7 gives the rules.

export const ORDER_STATUSES = [
  'CREATED',
  'CONFIRMED',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'DELIVERED',
  'CONCLUDED',
  'CANCELLED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderType = 'DELIVERY' | 'TAKEOUT';

export type LifecycleAction =
  | 'confirm'
  | 'readyForPickup'
  | 'dispatch'
  | 'delivered'
  | 'conclude'
  | 'cancel'
  | 'logisticsDispatched'
  | 'logisticsDelivered';

interface Transition {
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** Only orders of this type (D7: dispatch, delivered). */
  onlyType?: OrderType;
}

/** Statuses after which nothing moves the order any more. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['CANCELLED', 'CONCLUDED'];
const NOT_FINISHED: readonly OrderStatus[] = ['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'DISPATCHED'];

export const TRANSITIONS: Record<LifecycleAction, Transition> = {
  confirm: { from: ['CREATED'], to: 'CONFIRMED' },
  readyForPickup: { from: ['CONFIRMED'], to: 'READY_FOR_PICKUP' },
  dispatch: { from: ['CONFIRMED', 'READY_FOR_PICKUP'], to: 'DISPATCHED', onlyType: 'DELIVERY' },
  delivered: { from: ['DISPATCHED'], to: 'DELIVERED', onlyType: 'DELIVERY' },
  // Platform side (D6, operator API): the order is finished for good.
  conclude: { from: ['CONFIRMED', 'READY_FOR_PICKUP', 'DISPATCHED', 'DELIVERED'], to: 'CONCLUDED' },
  // D7 requestCancellation: any status but CANCELLED, DELIVERED, CONCLUDED.
  cancel: { from: NOT_FINISHED, to: 'CANCELLED' },
  // Spec 3.1 / D7: logistics moves the order from any non-final status.
  logisticsDispatched: { from: ['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'DISPATCHED'], to: 'DISPATCHED' },
  logisticsDelivered: { from: NOT_FINISHED, to: 'DELIVERED' },
};

/** The event each lifecycle action records (spec 3.1). */
export const ACTION_EVENT = {
  confirm: 'CONFIRMED',
  readyForPickup: 'READY_FOR_PICKUP',
  dispatch: 'DISPATCHED',
  delivered: 'DELIVERED',
  conclude: 'CONCLUDED',
  cancel: 'CANCELLED',
  logisticsDispatched: 'DISPATCHED',
  logisticsDelivered: 'DELIVERED',
} as const satisfies Record<LifecycleAction, string>;

export type TransitionResult = { ok: true; next: OrderStatus } | { ok: false; reason: string };

/** Pure: where `action` takes an order in `current`, or why it cannot (the 400 title, D7). */
export function nextStatus(current: OrderStatus, action: LifecycleAction, type: OrderType): TransitionResult {
  const t = TRANSITIONS[action];
  if (t.onlyType && t.onlyType !== type) {
    return { ok: false, reason: `Order is ${type}: ${action} applies to ${t.onlyType} orders only` };
  }
  if (t.from.includes(current)) return { ok: true, next: t.to };
  if (FINAL_STATUSES.includes(current) || current === 'DELIVERED') return { ok: false, reason: `Order is ${current}` };
  return { ok: false, reason: `Order is ${current}: ${action} needs ${t.from.join(' or ')}` };
}

/** D7: requestCancellation and tracking are refused only in these statuses. */
export const canRequestCancellation = (s: OrderStatus) => NOT_FINISHED.includes(s);
export const canTrack = (s: OrderStatus) => !FINAL_STATUSES.includes(s);

// ---- The platform's actions (D6; operator API and console) ---------------------------------

/** What the platform may do to an order: the operator API's actions, each one form in the console. */
export type PlatformAction =
  | 'customerCancellation'
  | 'acceptCancellation'
  | 'denyCancellation'
  | 'conclude'
  | 'pickupArea'
  | 'cancel';

export interface PlatformActionState {
  status: OrderStatus;
  type: OrderType;
  /** A customer's cancellation request waits for the POS. */
  customerCancellationOpen: boolean;
  /** The POS asked to cancel and waits for the platform's answer. */
  posCancellationOpen: boolean;
}

/**
 * The platform's actions an order allows now, from the same table and predicates the service
 * applies (orders-service.ts: customerCancellation, cancellationDecision, platformEvent), so the
 * console offers exactly what would be accepted; test/console/console-order-actions.test.ts
 * proves it against the service for every status and type.
 */
export function platformActions(order: PlatformActionState): PlatformAction[] {
  const actions: PlatformAction[] = [];
  const cancel = nextStatus(order.status, 'cancel', order.type).ok;
  if (canRequestCancellation(order.status) && !order.customerCancellationOpen) actions.push('customerCancellation');
  if (order.posCancellationOpen) {
    // Accepting cancels: only where cancelling is allowed. Denying closes the request anyway.
    if (cancel) actions.push('acceptCancellation');
    actions.push('denyCancellation');
  }
  if (nextStatus(order.status, 'conclude', order.type).ok) actions.push('conclude');
  if (canTrack(order.status)) actions.push('pickupArea');
  if (cancel) actions.push('cancel');
  return actions;
}

// ---- D29: Open Delivery's optional progress events ------------------------------------------
// PREPARING (preparation started) and PICKED_UP (a TAKEOUT order left with the customer) report
// progress without a lifecycle status of their own: like the cancellation dialogue (D5) they
// change `lastEvent` and leave `status` alone, so every transition of the table above keeps
// working after them.

export type ProgressAction = 'preparing' | 'pickedUp';

export const PROGRESS_EVENT = { preparing: 'PREPARING', pickedUp: 'PICKED_UP' } as const satisfies Record<
  ProgressAction,
  string
>;

interface ProgressRule {
  from: readonly OrderStatus[];
  onlyType?: OrderType;
}

export const PROGRESS_RULES: Record<ProgressAction, ProgressRule> = {
  preparing: { from: ['CONFIRMED'] },
  pickedUp: { from: ['CONFIRMED', 'READY_FOR_PICKUP'], onlyType: 'TAKEOUT' },
};

/** Pure: whether a progress event may be raised now, or why not (the refusal's title, D7). */
export function progressAllowed(
  current: OrderStatus,
  action: ProgressAction,
  type: OrderType,
  eventTypes: readonly string[],
): { ok: true } | { ok: false; reason: string } {
  const rule = PROGRESS_RULES[action];
  if (rule.onlyType && rule.onlyType !== type) {
    return { ok: false, reason: `Order is ${type}: ${action} applies to ${rule.onlyType} orders only` };
  }
  // A picked-up order has left the store: it is not prepared (again) after that.
  if (eventTypes.includes('PICKED_UP')) return { ok: false, reason: 'Order is PICKED_UP' };
  if (rule.from.includes(current)) return { ok: true };
  if (FINAL_STATUSES.includes(current) || current === 'DELIVERED') return { ok: false, reason: `Order is ${current}` };
  return { ok: false, reason: `Order is ${current}: ${action} needs ${rule.from.join(' or ')}` };
}
