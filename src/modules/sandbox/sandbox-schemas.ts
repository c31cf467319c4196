import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { OrderEventTypeEnum } from '../events/index.js';
import { ORDER_STATUSES } from '../orders/index.js';
import { SCENARIO_NAMES } from './scenarios.js';

export const ScenarioSummary = Type.Object({
  name: Type.String({ description: 'Its name as shown to people.' }),
  description: Type.String({ description: 'What it is, in a sentence.' }),
  events: Type.Array(OrderEventTypeEnum, { description: 'The events a play on a new order raises, in order' }),
  appliesToExistingOrder: Type.Boolean({
    description: 'Whether options.orderId may name an order of the merchant to play the steps on',
  }),
  existingOrderEvents: Type.Array(OrderEventTypeEnum, { description: 'The events a play on an existing order raises' }),
});

export const PlayScenarioBody = Type.Object(
  {
    scenario: Type.Enum(SCENARIO_NAMES, { description: 'A name from GET on the same path' }),
    options: Type.Optional(
      Type.Object(
        {
          orderId: Type.Optional(
            Uuid({
              description:
                'Play the steps after the order is placed (customer cancellation, logistics, platform events) ' +
                'on this existing order of the merchant instead of placing a new one',
            }),
          ),
        },
        { additionalProperties: false, description: 'Options of the play.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ScenarioPlayed = Type.Object({
  scenario: Type.String({ description: 'The scenario’s name (GET /v1/sandbox/scenarios lists them).' }),
  merchantId: Uuid({ description: 'The merchant (the client_id of its integration keys).' }),
  orders: Type.Array(
    Type.Object({
      id: Uuid({ description: 'The record’s unique id.' }),
      displayId: Type.String({ description: 'The short number people use for the order (4 digits).' }),
      type: Type.Enum(['DELIVERY', 'TAKEOUT'], { description: 'DELIVERY or TAKEOUT.' }),
      orderTiming: Type.Enum(['INSTANT', 'SCHEDULED'], {
        description: 'INSTANT (prepare now) or SCHEDULED (see schedule).',
      }),
      status: Type.Enum(ORDER_STATUSES, { description: 'The order’s status.' }),
      lastEvent: Type.String({ description: 'The type of the latest event of the order.' }),
      created: Type.Boolean({ description: 'Placed by this play (false: the existing order of options.orderId)' }),
      orderAmount: Type.Number({ description: 'What the customer pays: items plus fees minus discounts.' }),
      deliveryCode: Type.String({ description: 'What the customer tells the courier (validateCode, spec 4.11)' }),
    }),
    { description: 'Orders.' },
  ),
  events: Type.Array(
    Type.Object({
      orderId: Uuid({ description: 'The order.' }),
      eventType: described(OrderEventTypeEnum, 'The event type (see the event catalog).'),
      createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
      polled: Type.Boolean({ description: 'false: a webhook-only event (D8)' }),
    }),
    { description: 'Every event this play raised, oldest first' },
  ),
});

export const CustomerDeliveryCode = Type.Object({
  orderId: Uuid({ description: 'The order.' }),
  customerDeliveryCode: Type.String({
    description: 'What the sandbox customer says at the door: send it to validateCode (spec 4.11)',
  }),
});
