// The event catalog (docs/events.md says the same at length, served as HTML at /docs/events): for
// each event type, when it is raised and what the POS is expected to do. Served in /openapi.json
// (`x-event-catalog` and the webhook descriptions).

export interface EventDoc {
  when: string;
  todo: string;
  metadata?: Record<string, string>;
}

export const EVENT_DOCS: Record<string, EventDoc> = {
  CREATED: {
    when: 'A customer placed an order.',
    todo: 'Read the order (GET /v1/orders/{orderId}), check it, then confirm it (spec 4.7) or cancel it with requestCancellation (spec 4.8).',
  },
  CONFIRMED: {
    when: 'The POS confirmed the order.',
    todo: 'Note it (other terminals of the merchant learn the order was accepted) and start preparing.',
  },
  PREPARING: {
    when: 'The POS said preparation started (Open Delivery’s optional progress event); the status stays CONFIRMED.',
    todo: 'Nothing: informational.',
  },
  READY_FOR_PICKUP: {
    when: 'The POS said the order is ready.',
    todo: 'Hand it over when the courier or the customer arrives.',
  },
  DISPATCHED: {
    when: 'The order left the store: the POS said so, or the logistics partner reported DELIVERY_ONGOING.',
    todo: 'Nothing; tracking updates may follow.',
  },
  PICKUP_AREA_ASSIGNED: {
    when: 'The platform assigned the pickup area of a TAKEOUT order.',
    todo: 'Show the area (metadata.pickupArea) to the staff who hand the order over.',
    metadata: { pickupArea: 'Balcão 3' },
  },
  PICKED_UP: { when: 'The customer picked up a TAKEOUT order.', todo: 'Nothing: informational.' },
  DELIVERED: {
    when: 'The order reached the customer: the POS said so, or the logistics partner reported DELIVERY_FINISHED.',
    todo: 'Close the order in the POS.',
  },
  CONCLUDED: {
    when: 'The platform concluded a delivered order; nothing more will happen to it.',
    todo: 'Archive the order.',
  },
  CANCELLATION_REQUESTED: {
    when: 'The POS itself asked to cancel (spec 4.8).',
    todo: 'Wait for CANCELLED (accepted) or CANCELLATION_REQUEST_DENIED (refused: the order goes on).',
    metadata: { reason: 'Acabou a picanha', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' },
  },
  CANCELLATION_REQUEST_DENIED: {
    when: 'The platform refused the POS’s cancellation request; also the second webhook notification of a denied customer request.',
    todo: 'Carry on with the order.',
  },
  CANCELLED: {
    when: 'The order is cancelled for good: the platform accepted the POS’s request, the POS accepted the customer’s (spec 4.9), or the platform cancelled it.',
    todo: 'Stop preparing; do not dispatch.',
    metadata: { reason: 'Pagamento recusado', code: 'SYSTEMIC_ISSUES' },
  },
  ORDER_CANCELLATION_REQUEST: {
    when: 'The customer asked to cancel.',
    todo: 'Answer it: acceptCancellation while preparation can still stop, or denyCancellation with a reason and a code (spec 4.10).',
    metadata: { reason: 'Pedi errado' },
  },
  CANCELLED_DENIED: {
    when: 'The POS denied the customer’s cancellation request. Polling gives this event; a cleaver webhook URL also gets CANCELLATION_REQUEST_DENIED right after.',
    todo: 'Nothing: the order stays active.',
    metadata: { reason: 'Já saiu para entrega', code: 'DELIVERY_PROBLEM' },
  },
  WEIGHING_DECIDED: {
    when: 'Opt-in only (the key’s extraEventTypes, D42): a weighing out of tolerance that waited for the customer was decided, by the platform or at its deadline.',
    todo: 'Read the order (GET /v1/orders/{orderId}): after ACCEPT or REMOVE_LINES its totals changed; after REJECT weigh again.',
    metadata: { weighingId: '3d1c5e7a-2b4f-4c6d-8e9a-1b3c5d7e9f20', decision: 'ACCEPT', by: 'platform' },
  },
};

/** An example record of the type, as polling returns it and its webhook carries it. */
export function exampleRecord(eventType: string): Record<string, unknown> {
  const doc = EVENT_DOCS[eventType];
  return {
    eventId: '5c8a7a47-6f7e-4f83-9a8c-3b1f0f6f9e21',
    eventType,
    orderId: '0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
    orderURL: 'https://cleaver.example/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
    createdAt: '2026-11-24T12:00:00.000Z',
    sourceAppId: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b',
    ...(doc?.metadata ? { metadata: doc.metadata } : {}),
  };
}
