// One event, two dialects (D27): what a `cleaver` key and an `opendelivery` key are shown for the
// same occurrence. Pure functions, no I/O: polling, the webhook outbox and the tests use them.
import { uuidV5 } from '../../lib/ids.js';
import type { IntegrationProfile } from '../auth/index.js';
import { OD_CANCELLATION_EVENT_TYPES, odCancellationCode } from '../opendelivery/index.js';
import { type EventRecord, ORDER_EVENT_TYPES, type OrderEventType } from './event-contract.js';

/** D1: the fixed namespace of eventId = UUIDv5(namespace, eventType). Never change it. */
export const EVENT_ID_NAMESPACE = '7d4f3c2a-91b8-4e6d-a5c0-3b2e1f9d8c74';
/** Computed once per type: a poll of 1000 records would otherwise hash 1000 times. */
const EVENT_ID_BY_TYPE = new Map(ORDER_EVENT_TYPES.map((t) => [t, uuidV5(t, EVENT_ID_NAMESPACE)] as const));
export const eventIdOf = (eventType: OrderEventType): string =>
  EVENT_ID_BY_TYPE.get(eventType) ?? uuidV5(eventType, EVENT_ID_NAMESPACE);
/** eventId (D1) → event type, for acknowledgment. */
export const EVENT_TYPE_BY_ID = new Map(ORDER_EVENT_TYPES.map((t) => [eventIdOf(t), t] as const));

export interface EventOccurrence {
  occurrenceId: string;
  orderId: string;
  eventType: OrderEventType;
  createdAt: Date;
  metadata?: Record<string, unknown> | null;
}

const CANCELLATION_TYPES = new Set<string>(OD_CANCELLATION_EVENT_TYPES);

/**
 * D28: Open Delivery's metadata of one event type. Cancellations carry `{reason, code}` with a
 * code from its list (D28.5); CONFIRMED always carries an object (`clientId` when a key
 * confirmed); PICKUP_AREA_ASSIGNED its area; nothing else has metadata. Fields Open Delivery does
 * not define (the spec's `mode` of CANCELLATION_REQUESTED) are left out.
 */
function openDeliveryMetadata(
  eventType: OrderEventType,
  metadata: Record<string, unknown> | null | undefined,
): Record<string, unknown> | undefined {
  if (CANCELLATION_TYPES.has(eventType)) {
    const reason = typeof metadata?.reason === 'string' ? metadata.reason : '';
    const code = typeof metadata?.code === 'string' ? metadata.code : '';
    return { reason, code: odCancellationCode(eventType, code) };
  }
  if (eventType === 'CONFIRMED') {
    return typeof metadata?.clientId === 'string' ? { clientId: metadata.clientId } : {};
  }
  if (eventType === 'PICKUP_AREA_ASSIGNED' && typeof metadata?.pickupArea === 'string') {
    return { pickupArea: metadata.pickupArea };
  }
  // D42: an opt-in type, not Open Delivery's: the key that asked for it reads the same fields.
  if (eventType === 'WEIGHING_DECIDED' && metadata) return { ...metadata };
  return undefined;
}

/**
 * The record one key is shown (D2). `cleaver`: eventId names the type (D1), metadata as stored.
 * `opendelivery`: eventId names this occurrence, the same id the webhook carries as its
 * webhook-id, so a POS that de-duplicates by eventId drops only true repeats (D28.1).
 */
export function eventRecordFor(
  profile: IntegrationProfile,
  e: EventOccurrence,
  context: { publicUrl: string; appId: string },
): EventRecord {
  const openDelivery = profile === 'opendelivery';
  const metadata = openDelivery ? openDeliveryMetadata(e.eventType, e.metadata) : (e.metadata ?? undefined);
  return {
    eventId: openDelivery ? e.occurrenceId : eventIdOf(e.eventType),
    eventType: e.eventType,
    orderId: e.orderId,
    orderURL: `${context.publicUrl}/v1/orders/${e.orderId}`,
    createdAt: e.createdAt.toISOString(),
    sourceAppId: context.appId,
    ...(metadata ? { metadata } : {}),
  };
}
