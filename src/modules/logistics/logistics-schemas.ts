import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';

// Spec 4.14 says the partner's body "is not validated against a strict schema" and a missing
// field "can cause a server error". Here every field processing needs is required and typed,
// so a bad body gets a 400 naming the field instead. The optional parts follow the spec's table
// (types from Open Delivery 1.7 DeliveryOrderEvent); fields beyond them are accepted and kept,
// because partners send more of Open Delivery than the spec lists.

const Text = (max = 1000) => Type.String({ maxLength: max });
const Name = (max = 200) => Type.String({ minLength: 1, maxLength: max });
const Opt = Type.Optional;

export const DeliveryUpdateBody = Type.Object({
  deliveryId: Uuid(),
  orderId: Uuid(),
  orderDisplayId: Name(100),
  merchant: Type.Object({ id: Uuid(), name: Name() }),
  event: Type.Object({
    // Spec 3.1: DELIVERY_ONGOING and DELIVERY_FINISHED move the order; any other type
    // (PENDING, ACCEPTED, REJECTED, PICKUP_ONGOING, …) is recorded for tracking only.
    type: Name(64),
    message: Text(),
    datetime: DateTime(),
    rejectionInfo: Type.Optional(Type.Object({ reason: Name(100) })),
  }),
  customerName: Name(),
  vehicle: Type.Optional(
    Type.Object({
      type: Opt(Text(100)),
      container: Opt(Text(100)),
      containerSize: Opt(Text(100)),
      instruction: Opt(Text()),
    }),
  ),
  deliveryPrice: Type.Optional(
    Type.Object({
      price: Opt(
        Type.Object({ value: Type.Number({ minimum: 0 }), currency: Type.String({ minLength: 3, maxLength: 3 }) }),
      ),
      pricingList: Opt(Text(100)),
      additionalPricePercentual: Opt(Type.Number()),
    }),
  ),
  eta: Type.Optional(
    Type.Object({
      pickupEtaInMinutes: Opt(Type.Integer({ minimum: 0 })),
      pickupEtaDatetime: Opt(DateTime()),
      deliveryEtaInMinutes: Opt(Type.Integer({ minimum: 0 })),
      deliveryEtaDatetime: Opt(DateTime()),
      maxDeliveryTime: Opt(DateTime()),
    }),
  ),
  deliveryPerson: Type.Optional(
    Type.Object({
      id: Opt(Uuid()),
      name: Opt(Text(200)),
      pictureURL: Opt(Type.String({ format: 'uri', maxLength: 2000 })),
      phone: Opt(Text(50)),
    }),
  ),
  geoLocalization: Type.Optional(
    Type.Object({
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
      lastAddress: Type.Optional(Type.Object({})),
    }),
  ),
  externalTrackingURL: Type.Optional(Type.String({ format: 'uri', maxLength: 2000 })),
  // Other orders of the same merchant on the same route (same deliveryId).
  combinedOrdersIds: Type.Optional(Type.Array(Uuid(), { maxItems: 100 })),
});

export const ConfirmationCodeBody = Type.Object({
  orderId: Uuid(),
  // Sent exactly as the customer gives it (spec 4.15): any mismatch is `Invalid code provided`.
  deliveryCode: Type.String(),
});

export const ConfirmationCodeAnswer = Type.Object({ orderId: Uuid(), deliveryCode: Type.String() });

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
  requestId: Uuid(),
  appId: Uuid(),
  deliveryId: Uuid(),
  eventType: Type.String(),
  receivedAt: DateTime(),
  combined: Type.Boolean(),
  statusBefore: Type.String(),
  statusAfter: Type.String(),
  raisedEvent: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  body: DeliveryUpdateBody,
});
