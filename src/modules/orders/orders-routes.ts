import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorRef,
  emptyBodyAsObject,
  errorResponses,
  NoContent,
  sendInDialect,
  sendNoBody,
  Uuid,
} from '../../lib/schemas.js';
import { isOpenDelivery, type Principal } from '../auth/index.js';
import { OdCancellationError, OdOrder } from '../opendelivery/index.js';
import { toOpenDeliveryOrderView } from './od-order-view.js';
import { toOrderView } from './order-view.js';
import {
  ConfirmBody,
  DeliveryTrackingInfo,
  DenyCancellationBody,
  Order,
  OrderDetailsBody,
  OrderIdParams,
  RequestCancellationBody,
  TrackingBody,
  ValidateCodeBody,
  WeighingBody,
} from './orders-schemas.js';
import type { OrdersService } from './orders-service.js';

const Accepted = Type.Null({ description: 'Accepted for processing; no body' });
const common = { tags: ['orders'], security: [{ bearer: [] }], params: OrderIdParams };
const actionErrors = errorResponses(400, 401, 404, 409, 413, 415, 429);
/**
 * D28.3: an action the order already has, or one its state does not allow, is 400 for a cleaver
 * key (D7) and 422 for an opendelivery key; both carry {title, status}.
 */
const refusedErrors = {
  400: { ...ErrorRef, description: 'Invalid body; for a cleaver key also a refused action (D7)' },
  422: {
    ...ErrorRef,
    description: 'opendelivery key (D28): the order already has this event, or its state does not allow it',
  },
};
const OdProfileNote =
  'A refused action is 400 for a `cleaver` key (D7) and 422 for an `opendelivery` key (D28), whose error ' +
  'bodies are application/problem+json.';

/** Spec 4.6–4.12, D6 and D29: the POS reads and acts on its orders. */
export const ordersRoutes: FastifyPluginAsyncTypebox<{ orders: OrdersService }> = async (app, { orders }) => {
  /** A POS action without a body (D6, D29): 202 with no body, or its dialect's refusal. */
  const bodilessAction = (
    action: string,
    summary: string,
    description: string,
    run: (principal: Principal, orderId: string) => Promise<unknown>,
  ) =>
    app.post(
      `/orders/:orderId/${action}`,
      { schema: { ...common, summary, description, response: { 202: Accepted, ...actionErrors, ...refusedErrors } } },
      async (request, reply) => {
        await run(request.principal, request.params.orderId);
        return sendNoBody(reply, 202);
      },
    );

  app.get(
    '/orders/:orderId',
    {
      config: { rateLimit: 'read' },
      schema: {
        ...common,
        summary: 'Read an order (spec 4.6)',
        description:
          'A `cleaver` key reads the order of spec 2.6 (D26); an `opendelivery` key reads Open Delivery’s Order ' +
          '(D28): no nulls, schedule only when scheduled, preparationStartDateTime defaulting to createdAt, ' +
          'items[].id the product uuid and items[].externalCode its POS code.',
        response: { 200: Order, ...errorResponses(400, 401, 404, 429) },
        dialectResponses: { 200: OdOrder },
      },
    },
    async (request, reply) => {
      const row = await orders.getOrder(request.principal, request.params.orderId);
      if (isOpenDelivery(request.principal)) return sendInDialect(reply, toOpenDeliveryOrderView(row));
      return toOrderView(row);
    },
  );

  app.post(
    '/orders/:orderId/confirm',
    {
      schema: {
        ...common,
        summary: 'Confirm an order (spec 4.7)',
        description: OdProfileNote,
        body: ConfirmBody,
        response: { 202: Accepted, ...actionErrors, ...refusedErrors },
      },
    },
    async (request, reply) => {
      await orders.confirm(request.principal, request.params.orderId, request.body);
      return sendNoBody(reply, 202);
    },
  );

  app.post(
    '/orders/:orderId/requestCancellation',
    {
      schema: {
        ...common,
        summary: 'The POS asks to cancel an order (spec 4.8); watch for CANCELLED',
        description: `${OdProfileNote} For an opendelivery key the 422 adds cancellationStatus once an earlier request was answered (cancelled, or denied by the platform).`,
        body: RequestCancellationBody,
        response: {
          202: Accepted,
          ...actionErrors,
          400: refusedErrors[400],
          422: { ...OdCancellationError, description: refusedErrors[422].description },
        },
      },
    },
    async (request, reply) => {
      await orders.requestCancellation(request.principal, request.params.orderId, request.body);
      return sendNoBody(reply, 202);
    },
  );

  app.post(
    '/orders/:orderId/acceptCancellation',
    {
      schema: {
        ...common,
        summary: "Accept the customer's cancellation request (spec 4.9)",
        description: OdProfileNote,
        response: { 204: NoContent, ...actionErrors, ...refusedErrors },
      },
    },
    async (request, reply) => {
      await orders.acceptCancellation(request.principal, request.params.orderId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/orders/:orderId/denyCancellation',
    {
      schema: {
        ...common,
        summary: "Deny the customer's cancellation request (spec 4.10); the order stays active",
        description:
          `${OdProfileNote} An opendelivery key may also use Open Delivery’s codes DISH_ALREADY_DONE and ` +
          'OUT_FOR_DELIVERY, and its webhook URL gets one notification (CANCELLED_DENIED) instead of two (D8).',
        body: DenyCancellationBody,
        response: { 204: NoContent, ...actionErrors, ...refusedErrors },
      },
    },
    async (request, reply) => {
      await orders.denyCancellation(request.principal, request.params.orderId, request.body);
      return reply.code(204).send(null);
    },
  );

  bodilessAction('readyForPickup', 'The order is ready (D6)', OdProfileNote, (principal, orderId) =>
    orders.readyForPickup(principal, orderId),
  );

  app.post(
    '/orders/:orderId/dispatch',
    {
      schema: {
        ...common,
        summary: 'The order left the store (D6); optional tracking as in spec 4.12',
        description: OdProfileNote,
        body: Type.Object({ deliveryTrackingInfo: Type.Optional(DeliveryTrackingInfo) }),
        response: { 202: Accepted, ...actionErrors, ...refusedErrors },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      await orders.dispatch(request.principal, request.params.orderId, request.body.deliveryTrackingInfo);
      return sendNoBody(reply, 202);
    },
  );

  bodilessAction('delivered', 'The order was delivered (D6)', OdProfileNote, (principal, orderId) =>
    orders.delivered(principal, orderId),
  );

  bodilessAction(
    'preparing',
    'Preparation has started (D29, Open Delivery); raises PREPARING, both profiles',
    `Allowed on a CONFIRMED order; the status stays CONFIRMED and lastEvent becomes PREPARING. ${OdProfileNote}`,
    (principal, orderId) => orders.preparing(principal, orderId),
  );

  bodilessAction(
    'pickedUp',
    'The customer picked up a TAKEOUT order (D29, Open Delivery); raises PICKED_UP, both profiles',
    `Allowed on a TAKEOUT order that is CONFIRMED or READY_FOR_PICKUP; the status stays, lastEvent becomes PICKED_UP. ${OdProfileNote}`,
    (principal, orderId) => orders.pickedUp(principal, orderId),
  );

  app.patch(
    '/orders/:orderId/details',
    {
      schema: {
        ...common,
        summary: 'Change when preparation should start (D29, Open Delivery); no event, both profiles',
        description: `The order view shows the new preparationStartDateTime. Refused once the order is CANCELLED or CONCLUDED. ${OdProfileNote}`,
        body: OrderDetailsBody,
        response: { 200: Type.Null({ description: 'Updated; no body' }), ...actionErrors, ...refusedErrors },
      },
    },
    async (request, reply) => {
      await orders.updateDetails(request.principal, request.params.orderId, request.body);
      return sendNoBody(reply, 200);
    },
  );

  app.post(
    '/orders/:orderId/weighing',
    {
      schema: {
        ...common,
        summary: 'The weighed kilograms of KG lines (D38); the prices follow the real weight',
        description:
          'Allowed from CONFIRMED until READY_FOR_PICKUP or DISPATCHED, and repeatable until then (the last ' +
          'weighing of a line counts). A UN line, an index out of range or a weight outside the merchant’s ' +
          'tolerance (±20 % of the ordered quantity unless the platform set another) is a 400 naming ' +
          '`items[i].quantity` with the allowed range, and nothing of the request is applied. The order then ' +
          'shows the weight as `quantity`, the ordered one as `orderedQuantity`, the recomputed totals, and ' +
          `for a prepaid order the platform’s \`weighingAdjustment\`. ${OdProfileNote}`,
        body: WeighingBody,
        response: { 202: Accepted, ...actionErrors, ...refusedErrors },
      },
    },
    async (request, reply) => {
      await orders.weigh(request.principal, request.params.orderId, request.body);
      return sendNoBody(reply, 202);
    },
  );

  app.post(
    '/orders/:orderId/validateCode',
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
    '/orders/:orderId/tracking',
    {
      schema: {
        ...common,
        summary: 'Send a delivery tracking update (spec 4.12)',
        description: `Distances (distanceToPickup, distanceToDelivery) may be numbers or decimal strings, as Open Delivery sends them (D28). ${OdProfileNote}`,
        body: TrackingBody,
        response: { 202: Accepted, ...actionErrors, ...refusedErrors },
      },
    },
    async (request, reply) => {
      await orders.track(request.principal, request.params.orderId, request.body);
      return sendNoBody(reply, 202);
    },
  );
};
