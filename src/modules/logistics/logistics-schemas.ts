import { Type } from 'typebox';
import { DateTime, described, Uuid, withFieldDescriptions } from '../../lib/schemas.js';

// Spec 4.14 says the partner's body "is not validated against a strict schema" and a missing
// field "can cause a server error". Here every field processing needs is required and typed,
// so a bad body gets a 400 naming the field instead. The optional parts follow the spec's table
// (types from Open Delivery 1.7 DeliveryOrderEvent); fields beyond them are accepted and kept,
// because partners send more of Open Delivery than the spec lists.

const Text = (max = 1000) => Type.String({ maxLength: max });
const Name = (max = 200) => Type.String({ minLength: 1, maxLength: max });
const Opt = Type.Optional;

export const DeliveryUpdateBody = Type.Object({
  deliveryId: Uuid({ description: 'The logistics partner’s own id for this delivery.' }),
  orderId: Uuid({ description: 'The order.' }),
  orderDisplayId: described(Name(100), 'The order’s short number.'),
  merchant: Type.Object(
    {
      id: Uuid({ description: 'The record’s unique id.' }),
      name: described(Name(), 'The merchant’s name.'),
    },
    { description: 'The merchant the delivery is for.' },
  ),
  event: Type.Object(
    {
      // Spec 3.1: DELIVERY_ONGOING and DELIVERY_FINISHED move the order; any other type
      // (PENDING, ACCEPTED, REJECTED, PICKUP_ONGOING, …) is recorded for tracking only.
      type: described(Name(64), 'The tracking event type (e.g. DELIVERY_ARRIVED).'),
      message: described(Text(), 'A message for people.'),
      datetime: DateTime({ description: 'When it happened.' }),
      rejectionInfo: Type.Optional(
        Type.Object(
          { reason: described(Name(100), 'Why, in words.') },
          { description: 'Why the delivery was rejected, if it was.' },
        ),
      ),
    },
    { description: 'What happened to the delivery.' },
  ),
  customerName: described(Name(), 'The customer’s name.'),
  vehicle: Type.Optional(
    Type.Object(
      {
        type: described(Opt(Text(100)), 'The courier’s vehicle (e.g. MOTORBIKE, BICYCLE, CAR).'),
        container: described(Opt(Text(100)), 'The box the courier carries (e.g. BAG).'),
        containerSize: described(Opt(Text(100)), 'Its size.'),
        instruction: described(Opt(Text()), 'Instructions for the courier.'),
      },
      { description: 'The courier’s vehicle.' },
    ),
  ),
  deliveryPrice: Type.Optional(
    Type.Object(
      {
        price: Opt(
          Type.Object(
            {
              value: Type.Number({ description: 'The amount.', minimum: 0 }),
              currency: Type.String({ description: 'The currency: BRL.', minLength: 3, maxLength: 3 }),
            },
            { description: 'The delivery price.' },
          ),
        ),
        pricingList: described(Opt(Text(100)), 'The price items.'),
        additionalPricePercentual: Opt(Type.Number({ description: 'Additional percentage.' })),
      },
      { description: 'What the delivery costs.' },
    ),
  ),
  eta: Type.Optional(
    Type.Object(
      {
        pickupEtaInMinutes: Opt(Type.Integer({ minimum: 0, description: 'Minutes until pickup.' })),
        pickupEtaDatetime: described(Opt(DateTime()), 'Expected pickup time.'),
        deliveryEtaInMinutes: Opt(Type.Integer({ minimum: 0, description: 'Minutes until delivery.' })),
        deliveryEtaDatetime: described(Opt(DateTime()), 'Expected delivery time.'),
        maxDeliveryTime: described(Opt(DateTime()), 'Latest delivery time promised.'),
      },
      { description: 'Expected times.' },
    ),
  ),
  deliveryPerson: Type.Optional(
    Type.Object(
      {
        id: described(Opt(Uuid()), 'The courier’s id in the POS or the logistics partner.'),
        name: described(Opt(Text(200)), 'The courier’s name.'),
        pictureURL: Opt(Type.String({ format: 'uri', maxLength: 2000, description: 'A photo of the courier.' })),
        phone: described(Opt(Text(50)), 'A phone number.'),
      },
      { description: 'The courier.' },
    ),
  ),
  geoLocalization: Type.Optional(
    Type.Object(
      {
        latitude: Type.Number({ description: 'Latitude in degrees.', minimum: -90, maximum: 90 }),
        longitude: Type.Number({ description: 'Longitude in degrees.', minimum: -180, maximum: 180 }),
        lastAddress: Type.Optional(Type.Object({}, { description: 'The courier’s last known address.' })),
      },
      { description: 'Where the courier is.' },
    ),
  ),
  externalTrackingURL: Type.Optional(
    Type.String({ description: 'A page where the customer follows the delivery.', format: 'uri', maxLength: 2000 }),
  ),
  // Other orders of the same merchant on the same route (same deliveryId).
  combinedOrdersIds: Type.Optional(
    Type.Array(Uuid(), { description: 'The orders delivered together.', maxItems: 100 }),
  ),
});

export const ConfirmationCodeBody = Type.Object({
  orderId: Uuid({ description: 'The order.' }),
  // Sent exactly as the customer gives it (spec 4.15): any mismatch is `Invalid code provided`.
  deliveryCode: Type.String({
    description: 'The code the customer gives at the door; check it with validateCode before handing over.',
  }),
});

export const ConfirmationCodeAnswer = Type.Object({
  orderId: Uuid({ description: 'The order.' }),
  deliveryCode: Type.String({
    description: 'The code the customer gives at the door; check it with validateCode before handing over.',
  }),
});

/** Spec 5.2, for the OpenAPI document; the plugin checks them before anything else runs. */
export const LogisticsHeaders = Type.Object({
  'x-app-id': Type.String({ description: 'Logistics app id (uuid v4)' }),
  'x-app-merchantid': Type.String({ description: 'Merchant id, 36 to 100 characters' }),
  'x-app-signature': Type.String({
    description: 'Lowercase-hex HMAC-SHA256 of the exact body bytes, keyed with the app client secret',
  }),
});

/** An update as the operator's order timeline shows it (operator-api.md#orders). */
export const LogisticsUpdateView = Type.Object({
  requestId: Uuid({ description: 'The id of the request that carried the update (for support).' }),
  appId: Uuid({ description: 'The logistics partner app.' }),
  deliveryId: Uuid({ description: 'The logistics partner’s own delivery id.' }),
  eventType: Type.String({ description: 'The event type (see the event catalog).' }),
  receivedAt: DateTime({ description: 'When it was received.' }),
  combined: Type.Boolean({ description: 'Whether several orders go in one delivery.' }),
  statusBefore: Type.String({ description: 'The order’s status before the update.' }),
  statusAfter: Type.String({ description: 'The order’s status after it.' }),
  raisedEvent: Type.Union([Type.String(), Type.Null()], { description: 'The event the update raised, or null.' }),
  note: Type.Union([Type.String(), Type.Null()], { description: 'What was done with the update.' }),
  body: described(
    withFieldDescriptions(DeliveryUpdateBody, { deliveryId: 'The logistics partner’s own delivery id.' }),
    'The request body as received.',
  ),
});
