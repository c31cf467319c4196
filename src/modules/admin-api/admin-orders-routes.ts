import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { PAGED_LIST, sendTimePage } from '../../lib/pagination.js';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import {
  DateTime,
  described,
  emptyBodyAsObject,
  errorResponses,
  sendNoBody,
  Uuid,
  withFieldDescriptions,
} from '../../lib/schemas.js';
import { EventMetadata, type EventsService } from '../events/index.js';
import { LogisticsUpdateView } from '../logistics/index.js';
import type { MerchantsService } from '../merchants/index.js';
import {
  CreateOrderBody,
  OperatorOrder,
  OperatorOrderSummary,
  ORDER_STATUSES,
  type OrdersService,
  TrackingBody,
  toOperatorOrderView,
  WeighingView,
} from '../orders/index.js';
import { WebhookDelivery } from '../webhooks/index.js';
import {
  acceptByPath,
  CancellationDecisionBody,
  CustomerCancellationBody,
  ListQuery,
  MerchantIdParams,
  PlatformEventBody,
  readByPath,
} from './admin-schemas.js';

export interface AdminOrdersDeps {
  orders: OrdersService;
  events: EventsService;
  merchants: MerchantsService;
  /** Logistics updates of an order, plugged in by the logistics module. */
  logisticsUpdates?: (orderId: string) => Promise<Array<Static<typeof LogisticsUpdateView>>>;
  /** Webhook deliveries of an order, plugged in by the webhooks module. */
  webhookDeliveries?: (orderId: string) => Promise<Array<Static<typeof WebhookDelivery>>>;
}

const OrderIdParams = Type.Object({ orderId: Uuid() });
const Accepted = Type.Null({ description: 'Accepted; no body' });

const OperatorOrderDetail = Type.Object({
  ...OperatorOrder.properties,
  status: described(OperatorOrder.properties.status, 'The order’s status.'),
  events: Type.Array(
    Type.Object({
      occurrenceId: Uuid({ description: 'This occurrence of the event (the webhook-id of its webhook).' }),
      eventId: Uuid({
        description:
          'What to acknowledge: for a cleaver key the event type’s id, for an opendelivery key this occurrence’s id.',
      }),
      eventType: Type.String({ description: 'The event type (see the event catalog).' }),
      createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
      metadata: Type.Optional(
        described(
          EventMetadata,
          'Only on cancellation events and PICKUP_AREA_ASSIGNED: reason, code, mode, pickupArea.',
        ),
      ),
      polled: Type.Boolean({ description: 'Whether polling shows it (false: a webhook-only notification).' }),
      current: Type.Boolean({ description: 'Whether this is the event’s current occurrence.' }),
      acknowledgments: Type.Array(
        Type.Object({
          keyId: Uuid({ description: 'The integration key.' }),
          acknowledged: Type.Boolean({ description: 'Whether it was acknowledged.' }),
          acknowledgedAt: Type.Union([DateTime(), Type.Null()], { description: 'When.' }),
        }),
        { description: 'Which integration keys acknowledged it, and when.' },
      ),
    }),
    { description: 'Events.' },
  ),
  tracking: Type.Array(
    Type.Object({
      id: Uuid({ description: 'The record’s unique id.' }),
      keyId: Type.Union([Uuid(), Type.Null()], { description: 'The integration key.' }),
      receivedAt: DateTime({ description: 'When it was received.' }),
      body: described(TrackingBody, 'The request body as received.'),
    }),
    { description: 'Tracking updates from the POS.' },
  ),
  logisticsUpdates: Type.Array(LogisticsUpdateView, { description: 'Updates from the logistics partner.' }),
  webhookDeliveries: Type.Array(withFieldDescriptions(WebhookDelivery, { status: 'PENDING, DELIVERED or FAILED.' }), {
    description: 'Webhook deliveries of the order with their attempts.',
  }),
  /** D38: every weighing, oldest first. */
  weighings: Type.Array(WeighingView, {
    description: 'Every weighing of the order, oldest first: the lines weighed and the totals before and after.',
  }),
});

type OrderRow = Awaited<ReturnType<OrdersService['listOrders']>>[number];

function toOperatorOrderSummary(o: OrderRow): Static<typeof OperatorOrderSummary> {
  return {
    id: o.id,
    merchantId: o.merchant_id,
    displayId: o.display_id,
    type: o.type as 'DELIVERY' | 'TAKEOUT',
    status: o.status as Static<typeof OperatorOrderSummary>['status'],
    lastEvent: o.last_event as never,
    orderAmount: Number(o.order_amount),
    customerName: o.document.customer.name,
    createdAt: o.created_at.toISOString(),
    updatedAt: o.updated_at.toISOString(),
  };
}

/** operator-api.md#orders: the platform hands in orders and plays the customer's part. */
export const adminOrdersRoutes: FastifyPluginAsyncTypebox<AdminOrdersDeps> = async (app, deps) => {
  const { orders, events, merchants } = deps;
  const tags = ['operator'];

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/orders',
      access: { role: 'support', platform: true, auditAction: 'order.create' },
      summary: 'Hand in an order placed by a customer; emits CREATED',
      description:
        'Hands in an order as the marketplace does when a customer orders (sandbox and integration tests): ' +
        'items from the merchant’s products (each with an optional `cutId`, one of the product’s cuts, shown ' +
        'as the item’s first option), payment, delivery or takeout, schedule. Raises CREATED. Errors: 400 (an ' +
        'unknown or unavailable product, a cut of another product, amounts that do not add up); 404; 409 when ' +
        'the merchant does not receive orders.',
      schema: {
        tags,
        params: MerchantIdParams,
        body: CreateOrderBody,
        response: { 201: OperatorOrder, ...errorResponses(400, 401, 404, 413, 415) },
      },
      handler: async (request, reply) => {
        const row = await orders.createOrder(request.params.merchantId, request.body);
        return reply.code(201).send(toOperatorOrderView(row));
      },
    }),
  );

  const OrderFilters = Type.Object({
    status: Type.Optional(Type.Enum(ORDER_STATUSES)),
    since: Type.Optional(DateTime()),
  });
  const PAGING = `${PAGED_LIST} \`q\` is an order id or a display id (exact).`;

  /** One keyset page of orders, newest first, with the next page in the Link header. */
  async function orderPage(
    request: FastifyRequest,
    reply: FastifyReply,
    filter: { merchantId?: string; status?: string; since?: string; q?: string; cursor?: string; limit?: number },
  ) {
    const items = await sendTimePage(request, reply, filter.limit, (limit) =>
      orders.listOrders({
        merchantId: filter.merchantId,
        status: filter.status,
        since: filter.since ? new Date(filter.since) : undefined,
        q: filter.q,
        cursor: filter.cursor,
        limit,
      }),
    );
    return items.map(toOperatorOrderSummary);
  }

  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/orders',
      access: READ_WITH_PLATFORM,
      summary: "A merchant's orders, newest first, a page at a time; search by id or display id",
      description: 'A page of the merchant’s orders, newest first, with status and last event. Errors: 404.',
      schema: {
        tags,
        params: MerchantIdParams,
        querystring: Type.Object({ ...ListQuery.properties, ...OrderFilters.properties }),
        response: { 200: Type.Array(OperatorOrderSummary), ...errorResponses(400, 401, 404) },
      },
      handler: async (request, reply) => {
        await merchants.requireMerchant(request.params.merchantId);
        return orderPage(request, reply, { ...request.query, merchantId: request.params.merchantId });
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/orders',
      access: READ_WITH_PLATFORM,
      summary: "Every merchant's orders, newest first, a page at a time; filter by merchant and status",
      description: PAGING,
      schema: {
        tags,
        querystring: Type.Object({
          ...ListQuery.properties,
          ...OrderFilters.properties,
          merchantId: Type.Optional(Uuid({ description: "Only this merchant's orders" })),
        }),
        response: {
          200: Type.Array(
            withFieldDescriptions(OperatorOrderSummary, { type: 'The kind of record.', status: 'Its current status.' }),
          ),
          ...errorResponses(400, 401),
        },
      },
      handler: async (request, reply) => orderPage(request, reply, request.query),
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/orders/:orderId',
      access: READ_WITH_PLATFORM,
      summary: 'An order with its delivery code, event timeline, tracking, weighings, logistics updates and webhooks',
      description:
        'Everything about an order for support: the order with its delivery code, every event and who ' +
        'acknowledged it, tracking updates, weighings, logistics updates, and every webhook delivery with its ' +
        'attempts. Errors: 404.',
      schema: readByPath(tags, OrderIdParams, OperatorOrderDetail),
      handler: async (request) => {
        const row = await orders.getAnyOrder(request.params.orderId);
        const [timeline, tracking, logisticsUpdates, webhookDeliveries, weighings] = await Promise.all([
          events.timeline(row.id),
          orders.listTracking(row.id),
          deps.logisticsUpdates ? deps.logisticsUpdates(row.id) : Promise.resolve([]),
          deps.webhookDeliveries ? deps.webhookDeliveries(row.id) : Promise.resolve([]),
          orders.listWeighings(row.id),
        ]);
        return {
          ...toOperatorOrderView(row),
          events: timeline,
          tracking: tracking.map((t) => ({
            id: t.id,
            keyId: t.key_id,
            receivedAt: t.received_at.toISOString(),
            body: t.body,
          })),
          logisticsUpdates,
          webhookDeliveries,
          weighings,
        };
      },
    }),
  );

  /**
   * An order event the platform raises for the customer or for itself: POST /orders/{orderId}/{path},
   * audited, answered 202 with no body once `raise` has raised it (the POS learns of it by polling).
   */
  function orderEventRoute<B extends TSchema>(route: {
    path: string;
    auditAction: string;
    summary: string;
    description: string;
    body: B;
    preValidation?: typeof emptyBodyAsObject;
    raise: (orderId: string, body: Static<B>) => Promise<unknown>;
  }) {
    return declareRoute({
      method: 'POST',
      url: `/orders/:orderId/${route.path}`,
      access: { role: 'support', platform: true, auditAction: route.auditAction },
      summary: route.summary,
      description: route.description,
      schema: { ...acceptByPath(tags, OrderIdParams, Accepted), body: route.body },
      ...(route.preValidation ? { preValidation: route.preValidation } : {}),
      handler: async (request, reply) => {
        await route.raise(request.params.orderId, request.body as Static<B>);
        return sendNoBody(reply, 202);
      },
    });
  }

  app.route(
    orderEventRoute({
      path: 'customerCancellation',
      auditAction: 'order.customerCancellation',
      summary: 'The customer asks to cancel: emits ORDER_CANCELLATION_REQUEST',
      description:
        'The customer asks to cancel: raises ORDER_CANCELLATION_REQUEST, which the POS must accept or deny. ' +
        'Errors: 404; 409 when the order is final or a request is already open.',
      body: CustomerCancellationBody,
      preValidation: emptyBodyAsObject,
      raise: (orderId, body) => orders.customerCancellation(orderId, body),
    }),
  );

  app.route(
    orderEventRoute({
      path: 'cancellationDecision',
      auditAction: 'order.cancellationDecision',
      summary: "The platform answers the POS's requestCancellation: CANCELLED or CANCELLATION_REQUEST_DENIED",
      description:
        'The platform answers the POS’s own cancellation request: accept (CANCELLED) or deny ' +
        '(CANCELLATION_REQUEST_DENIED, the order goes on). Errors: 404; 409 when no POS request is open.',
      body: CancellationDecisionBody,
      raise: (orderId, body) => orders.cancellationDecision(orderId, body),
    }),
  );

  app.route(
    orderEventRoute({
      path: 'events',
      auditAction: 'order.platformEvent',
      summary: 'Platform-side events: CONCLUDED, PICKUP_AREA_ASSIGNED (optional pickupArea), CANCELLED',
      description:
        'Raises a platform-side event on an order: CONCLUDED (after delivery), PICKUP_AREA_ASSIGNED (optional ' +
        'pickupArea) or CANCELLED (with reason and code). Errors: 400 for another type; 404; 409 when the ' +
        'order’s state does not allow it.',
      body: PlatformEventBody,
      raise: (orderId, body) => orders.platformEvent(orderId, body),
    }),
  );
};
