// The platform feed's item and the data of each of its kinds and types (D36), as TypeBox
// schemas: the HTTP answer, the NATS payload and the AsyncAPI document are all built from these.
import { type TSchema, Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';

export const FEED_KINDS = ['order', 'merchant', 'catalog', 'webhook', 'settlement'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

const Price = Type.Object({ value: Type.Number(), currency: Type.String() });
const Loose = (properties: Record<string, TSchema>, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

const cancellation = Loose(
  {
    reason: Type.String(),
    code: Type.String(),
    mode: Type.Optional(Type.String()),
    outOfStockItems: Type.Optional(Type.Array(Uuid())),
    invalidItems: Type.Optional(Type.Array(Uuid())),
  },
  'The cancellation: reason and code, and the POS request mode and the items it names when there are any',
);
const noData = (description: string) => Loose({}, description);

/** D36: the `data` of every type of every kind. */
export const FEED_DATA: Record<FeedKind, Record<string, TSchema>> = {
  order: {
    CREATED: Loose(
      {
        schedule: Type.Optional(
          Type.Object(
            { scheduledDateTimeStart: DateTime(), scheduledDateTimeEnd: DateTime() },
            {
              description: 'D44: an encomenda’s window (SCHEDULED orders only)',
            },
          ),
        ),
        preparationStartDateTime: Type.Optional(
          DateTime({ description: 'D44: when preparation starts (the slot’s start minus the longest lead time)' }),
        ),
      },
      'The order was handed in; a SCHEDULED one carries its schedule (D44)',
    ),
    CONFIRMED: Loose(
      {
        preparationTime: Type.Optional(Type.Integer({ description: 'Minutes, when the POS said' })),
        orderExternalCode: Type.String(),
        clientId: Type.Optional(Type.String({ description: 'The integration key that confirmed' })),
      },
      'The POS confirmed (spec 4.7): the customer is told',
    ),
    PREPARING: noData('Preparation started (D29)'),
    READY_FOR_PICKUP: noData('Ready for pickup'),
    DISPATCHED: noData('Out for delivery'),
    PICKUP_AREA_ASSIGNED: Loose({ pickupArea: Type.String() }, 'A pickup area was assigned'),
    PICKED_UP: noData('The customer picked the order up (D29)'),
    DELIVERED: noData('Delivered'),
    CONCLUDED: noData('Concluded by the platform'),
    CANCELLATION_REQUESTED: cancellation,
    CANCELLATION_REQUEST_DENIED: cancellation,
    CANCELLED: cancellation,
    ORDER_CANCELLATION_REQUEST: cancellation,
    CANCELLED_DENIED: cancellation,
    TRACKING: Loose({ deliveryTrackingInfo: Type.Unknown() }, 'A POS tracking update (spec 4.12)'),
    LOGISTICS_UPDATE: Loose(
      {
        deliveryId: Uuid(),
        event: Type.Object(
          { type: Type.String() },
          { additionalProperties: true, description: 'type, message, datetime' },
        ),
        eta: Type.Optional(Type.Unknown()),
        deliveryPerson: Type.Optional(Type.Unknown()),
        geoLocalization: Type.Optional(Type.Unknown()),
      },
      "A logistics partner's deliveryUpdate for this order (spec 4.14)",
    ),
    DELIVERY_CODE_CHECKED: Loose(
      { valid: Type.Boolean(), source: Type.Enum(['pos', 'logistics']) },
      'A delivery code was checked (spec 4.11, 4.15)',
    ),
    WEIGHED: Loose(
      {
        lines: Type.Array(Type.Unknown()),
        itemsPriceBefore: Price,
        itemsPriceAfter: Price,
        weighingAdjustment: Type.Union([Price, Type.Null()]),
      },
      'The POS weighed the order (D38); a line weighed by label carries its scaleLabel (D41)',
    ),
    WEIGHING_APPROVAL_REQUESTED: Loose(
      {
        weighingId: Uuid(),
        lines: Type.Array(Type.Unknown(), {
          description:
            'Per weighed line: index, name, orderedQuantity, quantityBefore, quantity, totalPriceBefore, ' +
            'totalPriceAfter, outOfTolerance, scaleLabel?',
        }),
        itemsPriceBefore: Price,
        itemsPriceAfter: Price,
        deadline: DateTime(),
      },
      'A weighing is out of tolerance and the merchant asks the customer (D42): decide before the deadline',
    ),
    WEIGHING_DECIDED: Loose(
      {
        weighingId: Uuid(),
        decision: Type.Enum(['ACCEPT', 'REJECT', 'REMOVE_LINES']),
        by: Type.Enum(['platform', 'deadline']),
        removedLines: Type.Optional(Type.Array(Type.Integer())),
      },
      'A waiting weighing was decided, by the platform or by the merchant’s default at the deadline (D42)',
    ),
  },
  merchant: {
    STATUS_CHANGED: Loose(
      {
        status: Type.Enum(['AVAILABLE', 'UNAVAILABLE']),
        by: Type.Enum(['pos', 'operator', 'presence', 'pause'], {
          description: 'Who switched it; `pause`: a timed pause ended by itself (D43)',
        }),
        pause: Type.Optional(
          Type.Union([Type.Object({ reason: Type.String(), until: DateTime() }), Type.Null()], {
            description: 'D43: the timed pause that switched it off, with its reason and end; null when a pause ended',
          }),
        ),
      },
      "The merchant's order-receiving switch changed",
    ),
    PRESENCE_CHANGED: Loose(
      { keyId: Uuid(), state: Type.Enum(['online', 'late', 'offline']) },
      "An integration key's POS presence changed (by its last request; the worker checks every 30 s)",
    ),
    ONBOARDING_CHANGED: Loose(
      {
        ordersWebhookURL: Type.String(),
        getMerchantURL: Type.Union([Type.Object({ baseURL: Type.String() }), Type.Null()]),
      },
      'The POS registered its addresses (spec 4.2); the pull key is never included',
    ),
  },
  catalog: {
    AVAILABILITY_CHANGED: Loose(
      {
        items: Type.Array(
          Type.Object({
            productId: Uuid(),
            pdvId: Type.Union([Type.String(), Type.Null()]),
            available: Type.Boolean(),
            reason: Type.Union([Type.Enum(['OUT_OF_STOCK', 'QUALITY', 'NOT_TODAY', 'OTHER']), Type.Null()]),
            until: Type.Union([DateTime(), Type.Null()]),
            stock: Type.Union([Type.Object({ quantity: Type.Number() }), Type.Null()]),
          }),
        ),
      },
      'D43: products were paused, resumed or counted, or an order moved their stock (confirmation, weighing, ' +
        'cancellation), or a pause ended by itself: each product as it is now',
    ),
    SYNC_FINISHED: Loose(
      {
        syncId: Uuid(),
        status: Type.Enum(['SUCCESS', 'FAIL']),
        counts: Type.Unknown({
          description:
            'Per kind (categories, products): {created, updated, unchanged, removed}, updated counting only objects whose ' +
            'values really changed; and discarded per kind (D17).',
        }),
        changedProductIds: Type.Array(Type.String()),
        removedProductIds: Type.Array(Type.String(), {
          description: 'The products the sync removed (POS-linked products absent from a full catalog)',
        }),
      },
      'A catalog upload or pull finished: the storefront follows',
    ),
    PRODUCT_CHANGED: Loose(
      { productId: Uuid(), change: Type.Enum(['CREATED']), by: Type.Enum(['operator']) },
      'An operator made a product by hand (not linked to the POS): read it in the product list',
    ),
    CATEGORY_CHANGED: Loose(
      { categoryId: Uuid(), change: Type.Enum(['CREATED']), by: Type.Enum(['operator']) },
      'An operator made a category by hand (not linked to the POS)',
    ),
    CUTS_CHANGED: Loose(
      {
        productId: Uuid(),
        change: Type.Enum(['ADDED', 'REMOVED']),
        cutId: Type.String(),
        cuts: Type.Array(
          Type.Object({
            id: Type.String(),
            name: Type.String(),
            spice: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
          }),
          { description: "The product's cuts after the change, all of them" },
        ),
      },
      "An operator added or removed a cut of a product (D37): `cuts` is the product's whole list now",
    ),
  },
  settlement: {
    STATEMENT_CLOSED: Loose(
      {
        statementId: Uuid(),
        totals: Type.Object(
          {
            gross: Type.Number(),
            weighingAdjustments: Type.Number(),
            cancellations: Type.Number(),
            commission: Type.Number(),
            collectedByMerchant: Type.Number(),
            adjustments: Type.Number(),
            net: Type.Number(),
          },
          { description: 'BRL, as GET /admin/v1/statements/{statementId} shows them (D45)' },
        ),
      },
      "A merchant's statement closed at the end of its period: it never changes again (D45)",
    ),
  },
  webhook: {
    ENDPOINT_HEALTH_CHANGED: Loose(
      { state: Type.String(), since: Type.Union([DateTime(), Type.Null()]), lastError: Type.Optional(Type.String()) },
      "The merchant's webhook endpoint started or stopped failing",
    ),
  },
};

export const FeedItem = Type.Object({
  id: Uuid({ description: 'Unique per item: the Nats-Msg-Id of its NATS message' }),
  cursor: Type.String({ description: "The item's place in the feed; pass it as `after` to read on" }),
  kind: Type.Enum(FEED_KINDS, { description: 'What kind of entry.' }),
  type: Type.String({ description: 'The event type or change, per kind (D36)' }),
  merchantId: Uuid({ description: 'The merchant (the client_id of its integration keys).' }),
  orderId: Type.Optional(Uuid({ description: 'The order.' })),
  occurredAt: DateTime({ description: 'When the change happened (the time of its transaction)' }),
  data: Type.Record(Type.String(), Type.Unknown(), {
    description: 'What the platform acts on, per kind and type (D36; /asyncapi.json has each shape)',
  }),
  traceparent: Type.Optional(
    Type.String({
      description:
        'The W3C trace context of the change that wrote the item, while the service exports traces (docs/operations.md, "Tracing")',
    }),
  ),
});
export type FeedItemView = {
  id: string;
  cursor: string;
  kind: FeedKind;
  type: string;
  merchantId: string;
  orderId?: string;
  occurredAt: string;
  data: Record<string, unknown>;
  traceparent?: string;
};

export const FEED_LIMIT_MAX = 1000;
export const FEED_WAIT_MAX_SEC = 30;

export const FeedQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,18}$',
      description: 'A cursor (`next` or an item cursor); absent: the oldest item kept',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: FEED_LIMIT_MAX, default: 100 })),
  kinds: Type.Optional(
    Type.String({
      pattern: `^(${FEED_KINDS.join('|')})(,(${FEED_KINDS.join('|')}))*$`,
      description: `A comma list of ${FEED_KINDS.join(', ')}`,
    }),
  ),
  merchantId: Type.Optional(Uuid()),
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: FEED_WAIT_MAX_SEC,
      description: 'Seconds to hold an empty answer until an item arrives',
    }),
  ),
});

const PAGE_EXAMPLE = {
  items: [
    {
      id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
      cursor: '1042',
      kind: 'order',
      type: 'CONFIRMED',
      merchantId: '3e1f5a2b-7c4d-4e8f-9a1b-2c3d4e5f6a7b',
      orderId: '0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
      occurredAt: '2026-03-02T15:00:05.000Z',
      data: { orderExternalCode: 'PDV-1', preparationTime: 20, clientId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' },
    },
    {
      id: '7a2d3e4f-5b6c-4d7e-8f9a-0b1c2d3e4f5a',
      cursor: '1043',
      kind: 'merchant',
      type: 'STATUS_CHANGED',
      merchantId: '3e1f5a2b-7c4d-4e8f-9a1b-2c3d4e5f6a7b',
      occurredAt: '2026-03-02T15:01:00.000Z',
      data: { status: 'UNAVAILABLE', by: 'operator' },
    },
  ],
  next: '1043',
};

export const FeedPage = Type.Object(
  {
    items: Type.Array(FeedItem, { description: 'The ordered products.' }),
    next: Type.String({ description: 'The cursor to pass as `after` next time (the same when nothing came)' }),
  },
  { examples: [PAGE_EXAMPLE] },
);
