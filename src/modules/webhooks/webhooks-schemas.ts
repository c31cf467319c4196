import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';
import { EventRecordSchema } from '../events/index.js';

export const DeliveryStatus = Type.Enum(['PENDING', 'DELIVERED', 'FAILED']);

export const WebhookAttempt = Type.Object({
  attemptNo: Type.Integer(),
  at: DateTime(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Integer(),
  target: Type.Union([Type.String(), Type.Null()]),
  responseSnippet: Type.Union([Type.String(), Type.Null()]),
});

/** operator-api.md#webhook-deliveries: event, target, attempts, next attempt. */
export const WebhookDelivery = Type.Object({
  id: Uuid(),
  webhookId: Uuid(),
  merchantId: Uuid(),
  orderId: Uuid(),
  eventType: Type.String(),
  profile: Type.Enum(['cleaver', 'opendelivery'], {
    description: 'D28: the dialect of the body, chosen when the event happened from the key that registered the URL',
  }),
  event: EventRecordSchema,
  target: Type.Union([Type.String(), Type.Null()]),
  status: DeliveryStatus,
  attemptCount: Type.Integer(),
  nextAttemptAt: Type.Union([DateTime(), Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime(),
  deliveredAt: Type.Union([DateTime(), Type.Null()]),
  attempts: Type.Array(WebhookAttempt),
  /** A pending delivery held back behind an earlier one of its order (D11), or null. */
  waitingFor: Type.Union([Type.Object({ deliveryId: Uuid(), eventType: Type.String() }), Type.Null()], {
    description: 'The earlier delivery of the same order this one waits for (D11 keeps each order in order), or null',
  }),
});

/** A merchant's webhook endpoint, from its recent attempts. */
export const EndpointHealth = Type.Object({
  merchantId: Uuid(),
  url: Type.Union([Type.String(), Type.Null()], {
    description: 'Where deliveries go: ordersWebhookURL + /v1/orderUpdate',
  }),
  state: Type.Enum(['healthy', 'failing', 'disabled', 'unknown'], {
    description:
      'healthy: the last attempt succeeded; failing: attempts fail since failingSince; disabled: no delivery until the merchant registers its URL again (disabledReason); unknown: never tried',
  }),
  failingSince: Type.Union([DateTime(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastSuccessAt: Type.Union([DateTime(), Type.Null()]),
  lastAttemptAt: Type.Union([DateTime(), Type.Null()]),
  disabledAt: Type.Union([DateTime(), Type.Null()]),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
});

export const RequeueAnswer = Type.Object({
  requeued: Type.Integer({ description: 'Deliveries due again now (same webhook-id each)' }),
});

export const RecoverBody = Type.Object({
  since: DateTime({ description: 'Every delivery of the merchant created at or after this is sent again, in order' }),
});

/** operator-api.md#lists: `limit` and `cursor` (the `Link` header's), and filters. */
export const DeliveryListQuery = Type.Object({
  status: Type.Optional(DeliveryStatus),
  orderId: Type.Optional(Uuid({ description: "Only this order's deliveries" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 100)' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'From the Link header of the previous page' })),
});

export const DeliveryIdParams = Type.Object({ deliveryId: Uuid() });
