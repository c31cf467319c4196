import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { emptyBodyAsObject, errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import { toOrderView } from './order-view.js';
import {
  ConfirmBody,
  DeliveryTrackingInfo,
  DenyCancellationBody,
  Order,
  OrderIdParams,
  RequestCancellationBody,
  TrackingBody,
  ValidateCodeBody,
} from './orders-schemas.js';
import type { OrdersService } from './orders-service.js';

const Accepted = Type.Null({ description: 'Accepted for processing; no body' });
const common = { tags: ['orders'], security: [{ bearer: [] }], params: OrderIdParams };
const actionErrors = errorResponses(400, 401, 404, 409, 413, 415, 429);

/** Spec 4.6–4.12 and D6: the POS reads and acts on its orders. */
export const ordersRoutes: FastifyPluginAsyncTypebox<{ orders: OrdersService }> = async (app, { orders }) => {
  app.get(
    '/v1/orders/:orderId',
    {
      config: { rateLimit: 'read' },
      schema: {
        ...common,
        summary: 'Read an order (spec 4.6)',
        response: { 200: Order, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => toOrderView(await orders.getOrder(request.principal, request.params.orderId)),
  );

  app.post(
    '/v1/orders/:orderId/confirm',
    {
      schema: {
        ...common,
        summary: 'Confirm an order (spec 4.7)',
        body: ConfirmBody,
        response: { 202: Accepted, ...actionErrors },
      },
    },
    async (request, reply) => {
      await orders.confirm(request.principal, request.params.orderId, request.body);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/requestCancellation',
    {
      schema: {
        ...common,
        summary: 'The POS asks to cancel an order (spec 4.8); watch for CANCELLED',
        body: RequestCancellationBody,
        response: { 202: Accepted, ...actionErrors },
      },
    },
    async (request, reply) => {
      await orders.requestCancellation(request.principal, request.params.orderId, request.body);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/acceptCancellation',
    {
      schema: {
        ...common,
        summary: "Accept the customer's cancellation request (spec 4.9)",
        response: { 204: NoContent, ...actionErrors },
      },
    },
    async (request, reply) => {
      await orders.acceptCancellation(request.principal, request.params.orderId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/denyCancellation',
    {
      schema: {
        ...common,
        summary: "Deny the customer's cancellation request (spec 4.10); the order stays active",
        body: DenyCancellationBody,
        response: { 204: NoContent, ...actionErrors },
      },
    },
    async (request, reply) => {
      await orders.denyCancellation(request.principal, request.params.orderId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/readyForPickup',
    { schema: { ...common, summary: 'The order is ready (D6)', response: { 202: Accepted, ...actionErrors } } },
    async (request, reply) => {
      await orders.readyForPickup(request.principal, request.params.orderId);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/dispatch',
    {
      schema: {
        ...common,
        summary: 'The order left the store (D6); optional tracking as in spec 4.12',
        body: Type.Object({ deliveryTrackingInfo: Type.Optional(DeliveryTrackingInfo) }),
        response: { 202: Accepted, ...actionErrors },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      await orders.dispatch(request.principal, request.params.orderId, request.body.deliveryTrackingInfo);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/delivered',
    { schema: { ...common, summary: 'The order was delivered (D6)', response: { 202: Accepted, ...actionErrors } } },
    async (request, reply) => {
      await orders.delivered(request.principal, request.params.orderId);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/v1/orders/:orderId/validateCode',
    {
      schema: {
        ...common,
        summary: "Check the customer's delivery code (spec 4.11)",
        querystring: Type.Object({ deliveryCode: Type.Optional(Type.String({ maxLength: 100 })) }),
        body: ValidateCodeBody,
        response: { 200: Type.Object({ orderId: Uuid(), deliveryCode: Type.String() }), ...actionErrors },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request) =>
      orders.validateCode(
        request.principal,
        request.params.orderId,
        request.body.deliveryCode ?? request.query.deliveryCode,
      ),
  );

  app.post(
    '/v1/orders/:orderId/tracking',
    {
      schema: {
        ...common,
        summary: 'Send a delivery tracking update (spec 4.12)',
        body: TrackingBody,
        response: { 202: Accepted, ...actionErrors },
      },
    },
    async (request, reply) => {
      await orders.track(request.principal, request.params.orderId, request.body);
      return reply.code(202).send(null);
    },
  );
};
