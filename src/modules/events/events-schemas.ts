import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { OrderEventTypeEnum } from './event-contract.js';

/**
 * D2: what an event carries besides its identity, as Open Delivery shapes it: the key that
 * confirmed, a cancellation's reason, code and mode, the pickup area.
 */
export const EventMetadata = Type.Object({
  clientId: Type.Optional(Type.String({ description: 'The integration key that caused the event.' })),
  reason: Type.Optional(Type.String({ description: 'Why, in words.' })),
  code: Type.Optional(Type.String({ description: 'The cancellation or denial code.' })),
  mode: Type.Optional(
    Type.String({ description: 'AUTO or MANUAL: whether the cancellation was decided by a system or a person.' }),
  ),
  pickupArea: Type.Optional(Type.String({ description: 'The pickup area assigned (TAKEOUT with PICKUP_AREA).' })),
  // D42: the opt-in WEIGHING_DECIDED's fields, for the keys that asked for it.
  weighingId: Type.Optional(Uuid({ description: 'WEIGHING_DECIDED: the weighing that was decided.' })),
  decision: Type.Optional(
    Type.Enum(['ACCEPT', 'REJECT', 'REMOVE_LINES'], { description: 'WEIGHING_DECIDED: what was decided.' }),
  ),
  by: Type.Optional(
    Type.Enum(['platform', 'deadline'], { description: 'WEIGHING_DECIDED: the platform, or the deadline’s default.' }),
  ),
});

/** D2: one event as polling returns it and as its webhook carries it (D10). */
export const EventRecordSchema = Type.Object({
  eventId: Uuid({
    description:
      'What to acknowledge: for a cleaver key the event type’s id, for an opendelivery key this occurrence’s id.',
  }),
  eventType: described(OrderEventTypeEnum, 'The event type (see the event catalog).'),
  orderId: Uuid({ description: 'The order.' }),
  orderURL: Type.String({ description: 'Where to read the order: GET /v1/orders/{orderId}.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  sourceAppId: Uuid({ description: 'The marketplace application that raised it (also the X-App-Id header).' }),
  metadata: Type.Optional(
    described(EventMetadata, 'Only on cancellation events, PICKUP_AREA_ASSIGNED and the opt-in WEIGHING_DECIDED.'),
  ),
});
