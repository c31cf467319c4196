// Open Delivery v1.7.0, order events (D28): the `Event` that `GET /v1/events:polling` returns and
// the webhook `POST /v1/newEvent` carries, its metadata per event type, the acknowledgment
// element, and the cancellation codes. Written from the standard's descriptions.
//
// Open Delivery's eventId names one occurrence of an event: software written for it drops a
// second event with an eventId it has already seen. That is why a key with the opendelivery
// profile gets a new eventId per occurrence (D28.1).
import { Type } from 'typebox';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const DateTime = () => Type.String({ format: 'date-time' });

/** Every event type of the standard (PREPARATION_REQUESTED belongs to ONDEMAND orders, which the platform never places). */
export const OD_EVENT_TYPES = [
  'CREATED',
  'CONFIRMED',
  'PREPARATION_REQUESTED',
  'PREPARING',
  'DISPATCHED',
  'READY_FOR_PICKUP',
  'PICKUP_AREA_ASSIGNED',
  'PICKED_UP',
  'DELIVERED',
  'CONCLUDED',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'CANCELLED',
  'ORDER_CANCELLATION_REQUEST',
  'CANCELLED_DENIED',
] as const;
export type OdEventType = (typeof OD_EVENT_TYPES)[number];
export const OdEventTypeEnum = Type.Enum(OD_EVENT_TYPES);

/** The types whose metadata is `{reason, code, clientId?}` (Open Delivery's EventMetadataCancel). */
export const OD_CANCELLATION_EVENT_TYPES = [
  'ORDER_CANCELLATION_REQUEST',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'CANCELLED',
  'CANCELLED_DENIED',
] as const;

/** The codes a POS sends with requestCancellation (RequestCancelled); shared with the spec (4.10). */
export const OD_REQUEST_CANCELLATION_CODES = [
  'SYSTEMIC_ISSUES',
  'DUPLICATE_APPLICATION',
  'UNAVAILABLE_ITEM',
  'RESTAURANT_WITHOUT_DELIVERY_PERSON',
  'OUTDATED_MENU',
  'ORDER_OUTSIDE_THE_DELIVERY_AREA',
  'BLOCKED_CUSTOMER',
  'OUTSIDE_DELIVERY_HOURS',
  'INTERNAL_DIFFICULTIES_OF_THE_RESTAURANT',
  'RISK_AREA',
  'DELIVERY_PROBLEM',
] as const;

export const OdRequestCancellationCode = Type.Enum(OD_REQUEST_CANCELLATION_CODES);

/** The only codes of Open Delivery's denyCancellation (RequestDenied). */
export const OD_DENY_CANCELLATION_CODES = ['DISH_ALREADY_DONE', 'OUT_FOR_DELIVERY'] as const;

/** The code list of a cancellation event's metadata: the request codes plus two of its own. */
export const OD_CANCELLATION_METADATA_CODES = [
  ...OD_REQUEST_CANCELLATION_CODES,
  'CONSUMER_CANCELLATION_REQUESTED',
  'OTHER_CANCELLATION_REASON',
] as const;
export type OdCancellationMetadataCode = (typeof OD_CANCELLATION_METADATA_CODES)[number];

const METADATA_CODES = new Set<string>(OD_CANCELLATION_METADATA_CODES);

/**
 * D28.5: a stored cancellation code in Open Delivery's metadata list. The customer's request
 * (the platform records it as CUSTOMER_REQUEST) is CONSUMER_CANCELLATION_REQUESTED; a code the
 * list lacks (a denial's DISH_ALREADY_DONE, say) is OTHER_CANCELLATION_REASON, with the reason
 * text unchanged beside it.
 */
export function odCancellationCode(eventType: string, code: string): OdCancellationMetadataCode {
  if (code === 'CUSTOMER_REQUEST' || (eventType === 'ORDER_CANCELLATION_REQUEST' && !METADATA_CODES.has(code))) {
    return 'CONSUMER_CANCELLATION_REQUESTED';
  }
  return METADATA_CODES.has(code) ? (code as OdCancellationMetadataCode) : 'OTHER_CANCELLATION_REASON';
}

const eventFields = {
  eventId: Uuid('One occurrence of an event: a new id every time something happens, even a repeat'),
  orderId: Uuid(),
  orderURL: Type.String({ format: 'uri' }),
  createdAt: DateTime(),
  sourceAppId: Type.Optional(Uuid()),
  virtualBrand: Type.Optional(Type.String()),
};

export const OdCancellationMetadata = Type.Object({
  reason: Type.String(),
  code: Type.Enum(OD_CANCELLATION_METADATA_CODES),
  clientId: Type.Optional(Type.String()),
});

/** Open Delivery's `Event`, one variant per metadata shape (its discriminator on eventType). */
export const OdEvent = Type.Union([
  Type.Object({
    ...eventFields,
    eventType: Type.Enum([
      'CREATED',
      'PREPARATION_REQUESTED',
      'PREPARING',
      'READY_FOR_PICKUP',
      'DISPATCHED',
      'PICKED_UP',
      'DELIVERED',
      'CONCLUDED',
    ]),
  }),
  Type.Object({
    ...eventFields,
    eventType: Type.Literal('CONFIRMED'),
    metadata: Type.Object({ clientId: Type.Optional(Type.String()) }),
  }),
  Type.Object({
    ...eventFields,
    eventType: Type.Literal('PICKUP_AREA_ASSIGNED'),
    metadata: Type.Optional(Type.Object({ pickupArea: Type.String() })),
  }),
  Type.Object({
    ...eventFields,
    eventType: Type.Enum(OD_CANCELLATION_EVENT_TYPES),
    metadata: OdCancellationMetadata,
  }),
]);

export const OdEvents = Type.Array(OdEvent, { maxItems: 1000 });

/** One element of `POST /v1/events/acknowledgment` (an array of at most 100). */
export const OdAckEvent = Type.Object({
  id: Uuid('The eventId as polled'),
  orderId: Uuid(),
  eventType: OdEventTypeEnum,
});
export const OdAckEvents = Type.Array(OdAckEvent, { maxItems: 100 });
