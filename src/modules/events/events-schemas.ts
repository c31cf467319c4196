import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';
import { OrderEventTypeEnum } from './event-contract.js';

/**
 * D2: what an event carries besides its identity, as Open Delivery shapes it: the key that
 * confirmed, a cancellation's reason, code and mode, the pickup area.
 */
export const EventMetadata = Type.Object({
  clientId: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
  mode: Type.Optional(Type.String()),
  pickupArea: Type.Optional(Type.String()),
});

/** D2: one event as polling returns it and as its webhook carries it (D10). */
export const EventRecordSchema = Type.Object({
  eventId: Uuid(),
  eventType: OrderEventTypeEnum,
  orderId: Uuid(),
  orderURL: Type.String(),
  createdAt: DateTime(),
  sourceAppId: Uuid(),
  metadata: Type.Optional(EventMetadata),
});
