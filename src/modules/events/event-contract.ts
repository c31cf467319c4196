// The contract between event recording (events module) and the modules that fan an event out
// beyond polling (webhooks). Listeners run inside the transaction that records the event, so
// their rows commit or roll back with it (transactional outbox, architecture.md#data-flow).
import { Type } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { OD_EVENT_TYPES } from '../opendelivery/index.js';

// Open Delivery's list is the one list of event types; the platform records all of them but
// PREPARATION_REQUESTED (ONDEMAND orders, never placed here) and lists READY_FOR_PICKUP before
// DISPATCHED, the lifecycle's order, as every published enum always has. D29: PREPARING and
// PICKED_UP are Open Delivery's optional progress events, raised by POST …/preparing and …/pickedUp.
const [created, confirmed, , preparing, dispatched, readyForPickup, ...afterReady] = OD_EVENT_TYPES;

/**
 * D42: types a key receives only when it opted in (the integration setting `extraEventTypes`):
 * POS software maps types it does not know badly (D39), so no other key ever gets them.
 */
export const OPT_IN_EVENT_TYPES = ['WEIGHING_DECIDED'] as const;
export type OptInEventType = (typeof OPT_IN_EVENT_TYPES)[number];
const OPT_IN_SET = new Set<string>(OPT_IN_EVENT_TYPES);
export const isOptInEventType = (type: string): type is OptInEventType => OPT_IN_SET.has(type);

export const ORDER_EVENT_TYPES = [
  created,
  confirmed,
  preparing,
  readyForPickup,
  dispatched,
  ...afterReady,
  ...OPT_IN_EVENT_TYPES,
] as const satisfies readonly ['CREATED', 'CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'DISPATCHED', ...string[]];

export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];
export const OrderEventTypeEnum = Type.Enum(ORDER_EVENT_TYPES);

/**
 * D2: one event as `GET /v1/events:polling` returns it and as the webhook body carries it (D10).
 * The same fields in both profiles (D27); for an opendelivery key `eventId` is the occurrence id
 * and cancellation metadata uses Open Delivery's codes (D28).
 */
export interface EventRecord {
  eventId: string;
  eventType: OrderEventType;
  orderId: string;
  orderURL: string;
  createdAt: string;
  sourceAppId: string;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent {
  /** Unique per occurrence (a re-opened event, D1, is a new occurrence): the webhook-id. */
  occurrenceId: string;
  merchantId: string;
  orderId: string;
  eventType: OrderEventType;
  createdAt: Date;
  /** The record as a `cleaver` key sees it: the webhook body for a URL such a key registered. */
  record: EventRecord;
  /** The record as an `opendelivery` key sees it (D28); absent = the same as `record`. */
  openDeliveryRecord?: EventRecord;
  /**
   * False for a notification that goes out by webhook only: the CANCELLATION_REQUEST_DENIED
   * sent after CANCELLED_DENIED on a POS denial (D8).
   */
  polled: boolean;
  /** The metadata as stored (the `cleaver` dialect's), for listeners beyond the POS (D36). */
  metadata?: Record<string, unknown>;
  /**
   * What the platform feed carries beyond the POS-facing metadata (D36: CONFIRMED's
   * orderExternalCode and preparationTime, a cancellation request's items); never sent to a POS.
   */
  detail?: Record<string, unknown>;
  /** D42: an opt-in type, for the keys that asked for it only (the webhook of such a key only). */
  optIn?: boolean;
}

export type EventListener = (tx: Queryable, event: RecordedEvent) => Promise<void>;
