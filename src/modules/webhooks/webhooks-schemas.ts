import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { EventRecordSchema } from '../events/index.js';

export const DeliveryStatus = Type.Enum(['PENDING', 'DELIVERED', 'FAILED']);

export const WebhookAttempt = Type.Object({
  attemptNo: Type.Integer({ description: 'Which attempt (1 = the first).' }),
  at: DateTime({ description: 'When it happened.' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The HTTP status the receiver answered, or null when it did not answer.',
  }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the attempt failed (HTTP status, refused connection, timeout), or null.',
  }),
  durationMs: Type.Integer({ description: 'How long the attempt took, in milliseconds.' }),
  target: Type.Union([Type.String(), Type.Null()], { description: 'What it applies to.' }),
  responseSnippet: Type.Union([Type.String(), Type.Null()], {
    description: 'The start of the receiver’s answer (at most 1 KB), or null.',
  }),
});

/** operator-api.md#webhook-deliveries: event, target, attempts, next attempt. */
export const WebhookDelivery = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  webhookId: Uuid({ description: 'The webhook-id header: the same on every attempt.' }),
  merchantId: Uuid({ description: 'The merchant (the client_id of its integration keys).' }),
  orderId: Uuid({ description: 'The order.' }),
  eventType: Type.String({ description: 'The event type (see the event catalog).' }),
  profile: Type.Enum(['cleaver', 'opendelivery'], {
    description: 'D28: the dialect of the body, chosen when the event happened from the key that registered the URL',
  }),
  event: described(EventRecordSchema, 'The event record the webhook carries.'),
  target: Type.Union([Type.String(), Type.Null()], { description: 'What it applies to.' }),
  status: described(
    DeliveryStatus,
    'PENDING (to be tried), DELIVERED (a 2xx) or FAILED (retries used up, or the webhook disabled).',
  ),
  attemptCount: Type.Integer({ description: 'Attempts made so far.' }),
  nextAttemptAt: Type.Union([DateTime(), Type.Null()], {
    description: 'When the next attempt is due, or null when none will be made.',
  }),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()], {
    description: 'HTTP status of the last attempt, or null.',
  }),
  lastError: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed, or null.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  deliveredAt: Type.Union([DateTime(), Type.Null()], { description: 'When a 2xx was received, or null.' }),
  attempts: Type.Array(WebhookAttempt, { description: 'Every attempt, oldest first.' }),
  /** A pending delivery held back behind an earlier one of its order (D11), or null. */
  waitingFor: Type.Union(
    [
      Type.Object({
        deliveryId: Uuid({ description: 'The webhook delivery.' }),
        eventType: Type.String({ description: 'The event type (see the event catalog).' }),
      }),
      Type.Null(),
    ],
    {
      description: 'The earlier delivery of the same order this one waits for (D11 keeps each order in order), or null',
    },
  ),
});

/** A merchant's webhook endpoint, from its recent attempts. */
export const EndpointHealth = Type.Object({
  merchantId: Uuid({ description: 'The merchant (the client_id of its integration keys).' }),
  url: Type.Union([Type.String(), Type.Null()], {
    description:
      'Where deliveries go: ordersWebhookURL + /v1/orderUpdate, or + /v1/newEvent when an opendelivery key registered it (D40)',
  }),
  state: Type.Enum(['healthy', 'failing', 'disabled', 'unknown'], {
    description:
      'healthy: the last attempt succeeded; failing: attempts fail since failingSince; disabled: no delivery until the merchant registers its URL again (disabledReason); unknown: never tried',
  }),
  failingSince: Type.Union([DateTime(), Type.Null()], { description: 'Since when every attempt failed, or null.' }),
  lastError: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed, or null.' }),
  lastSuccessAt: Type.Union([DateTime(), Type.Null()], { description: 'Last 2xx, or null.' }),
  lastAttemptAt: Type.Union([DateTime(), Type.Null()], { description: 'Last attempt, or null.' }),
  disabledAt: Type.Union([DateTime(), Type.Null()], { description: 'When it was disabled, or null.' }),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was disabled, or null.' }),
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
