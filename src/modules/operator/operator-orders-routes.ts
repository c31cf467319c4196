import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { DateTime, emptyBodyAsObject, errorResponses, Uuid } from '../../lib/schemas.js';
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
} from '../orders/index.js';
import { WebhookDelivery } from '../webhooks/index.js';
import { MerchantIdParams } from './operator-schemas.js';

export interface OperatorOrdersDeps {
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
const CANCELLATION_CODE = Type.String({ minLength: 1, maxLength: 100 });

const OperatorOrderDetail = Type.Object({
  ...OperatorOrder.properties,
  events: Type.Array(
    Type.Object({
      occurrenceId: Uuid(),
      eventId: Uuid(),
      eventType: Type.String(),
      createdAt: DateTime(),
      metadata: Type.Optional(EventMetadata),
      polled: Type.Boolean(),
      current: Type.Boolean(),
      acknowledgments: Type.Array(
        Type.Object({
          keyId: Uuid(),
          acknowledged: Type.Boolean(),
          acknowledgedAt: Type.Union([DateTime(), Type.Null()]),
        }),
      ),
    }),
  ),
  tracking: Type.Array(
    Type.Object({ id: Uuid(), keyId: Type.Union([Uuid(), Type.Null()]), receivedAt: DateTime(), body: TrackingBody }),
  ),
  logisticsUpdates: Type.Array(LogisticsUpdateView),
  webhookDeliveries: Type.Array(WebhookDelivery),
});

/** operator-api.md#orders: the platform hands in orders and plays the customer's part. */
export const operatorOrdersRoutes: FastifyPluginAsyncTypebox<OperatorOrdersDeps> = async (app, deps) => {
  const { orders, events, merchants } = deps;
  const tags = ['operator'];

  app.post(
    '/merchants/:merchantId/orders',
    {
      schema: {
        tags,
        summary: 'Hand in an order placed by a customer; emits CREATED',
        params: MerchantIdParams,
        body: CreateOrderBody,
        response: { 201: OperatorOrder, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const row = await orders.createOrder(request.params.merchantId, request.body);
      return reply.code(201).send(toOperatorOrderView(row));
    },
  );

  app.get(
    '/merchants/:merchantId/orders',
    {
      schema: {
        tags,
        summary: "A merchant's orders, newest first",
        params: MerchantIdParams,
        querystring: Type.Object({
          status: Type.Optional(Type.Enum(ORDER_STATUSES)),
          since: Type.Optional(DateTime()),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
        }),
        response: { 200: Type.Array(OperatorOrderSummary), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await merchants.requireMerchant(request.params.merchantId);
      const rows = await orders.listOrders(request.params.merchantId, {
        status: request.query.status,
        since: request.query.since ? new Date(request.query.since) : undefined,
        limit: request.query.limit ?? 100,
      });
      return rows.map((o) => ({
        id: o.id,
        displayId: o.display_id,
        type: o.type,
        status: o.status,
        lastEvent: o.last_event as never,
        orderAmount: Number(o.order_amount),
        customerName: o.document.customer.name,
        createdAt: o.created_at.toISOString(),
        updatedAt: o.updated_at.toISOString(),
      }));
    },
  );

  app.get(
    '/orders/:orderId',
    {
      schema: {
        tags,
        summary: 'An order with its delivery code, event timeline, tracking, logistics updates and webhooks',
        params: OrderIdParams,
        response: { 200: OperatorOrderDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const row = await orders.getAnyOrder(request.params.orderId);
      const [timeline, tracking, logisticsUpdates, webhookDeliveries] = await Promise.all([
        events.timeline(row.id),
        orders.listTracking(row.id),
        deps.logisticsUpdates ? deps.logisticsUpdates(row.id) : Promise.resolve([]),
        deps.webhookDeliveries ? deps.webhookDeliveries(row.id) : Promise.resolve([]),
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
      };
    },
  );

  app.post(
    '/orders/:orderId/customerCancellation',
    {
      schema: {
        tags,
        summary: 'The customer asks to cancel: emits ORDER_CANCELLATION_REQUEST',
        params: OrderIdParams,
        body: Type.Object({
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          code: Type.Optional(CANCELLATION_CODE),
        }),
        response: { 202: Accepted, ...errorResponses(400, 401, 404, 409) },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      await orders.customerCancellation(request.params.orderId, request.body);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/orders/:orderId/cancellationDecision',
    {
      schema: {
        tags,
        summary: "The platform answers the POS's requestCancellation: CANCELLED or CANCELLATION_REQUEST_DENIED",
        params: OrderIdParams,
        body: Type.Object({
          decision: Type.Enum(['accept', 'deny']),
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
        }),
        response: { 202: Accepted, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await orders.cancellationDecision(request.params.orderId, request.body);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/orders/:orderId/events',
    {
      schema: {
        tags,
        summary: 'Platform-side events: CONCLUDED, PICKUP_AREA_ASSIGNED (optional pickupArea), CANCELLED',
        params: OrderIdParams,
        body: Type.Object({
          eventType: Type.Enum(['CONCLUDED', 'PICKUP_AREA_ASSIGNED', 'CANCELLED']),
          pickupArea: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
          code: Type.Optional(CANCELLATION_CODE),
        }),
        response: { 202: Accepted, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await orders.platformEvent(request.params.orderId, request.body);
      return reply.code(202).send(null);
    },
  );
};
