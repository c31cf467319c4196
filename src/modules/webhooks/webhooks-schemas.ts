import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';

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

/** OPERATOR-API.md "Webhook deliveries": event, target, attempts, next attempt. */
export const WebhookDelivery = Type.Object({
  id: Uuid(),
  webhookId: Uuid(),
  merchantId: Uuid(),
  orderId: Uuid(),
  eventType: Type.String(),
  event: Type.Object({}, { additionalProperties: true }),
  target: Type.Union([Type.String(), Type.Null()]),
  status: DeliveryStatus,
  attemptCount: Type.Integer(),
  nextAttemptAt: Type.Union([DateTime(), Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime(),
  deliveredAt: Type.Union([DateTime(), Type.Null()]),
  attempts: Type.Array(WebhookAttempt),
});

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(DeliveryStatus),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const DeliveryIdParams = Type.Object({ deliveryId: Uuid() });
