import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TSchema, Type } from 'typebox';
import { badRequest } from '../../lib/errors.js';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import {
  described,
  emptyBodyAsObject,
  errorResponses,
  NoContent,
  sendInDialect,
  sendNoBody,
  Uuid,
  withFieldDescriptions,
} from '../../lib/schemas.js';
import { isOpenDelivery, type Principal } from '../auth/index.js';
import { OD_DENY_CANCELLATION_CODES, OdCancellationError, OdOrder } from '../opendelivery/index.js';
import { toOpenDeliveryOrderView } from './od-order-view.js';
import { toOrderView } from './order-view.js';
import {
  CANCELLATION_CODES,
  ConfirmBody,
  DeliveryTrackingInfo,
  DenyCancellationBody,
  Order,
  OrderDetailsBody,
  OrderIdParams,
  RequestCancellationBody,
  TrackingBody,
  ValidateCodeBody,
} from './orders-schemas.js';
import type { OrdersService } from './orders-service.js';
import { weighingRoutes } from './weighing-routes.js';

const common = { tags: ['orders'], params: OrderIdParams };
const actionErrors = errorResponses(400, 401, 404, 409, 413, 415, 429);

/** What an action answers when done: 202 or 200 with no body (D35), 204. */
const ANSWERS = {
  202: Type.Null({ description: 'Accepted for processing; no body' }),
  200: Type.Null({ description: 'Updated; no body' }),
  204: NoContent,
};

/**
 * D28.5: Open Delivery's own codes of denyCancellation are an opendelivery key's; a cleaver key
 * gets the validation error it always got (the body schema takes both, for both profiles).
 */
const OD_ONLY_DENY_CODES = new Set<string>(OD_DENY_CANCELLATION_CODES);
function checkDenyCodeOfProfile(principal: Principal, code: string): void {
  if (OD_ONLY_DENY_CODES.has(code) && !isOpenDelivery(principal)) {
    throw badRequest(`code must be one of ${CANCELLATION_CODES.join(', ')}`);
  }
}

/**
 * A POS action on one of its orders (spec 4.7–4.12, D6, D29, D38). A refused one (the service's
 * Refusal) is 400 or 422 by profile, as `opendelivery.refusedAction` declares (D28.3).
 */
interface OrderAction<B extends TSchema> {
  method?: 'POST' | 'PATCH';
  action: string;
  summary: string;
  description: string;
  body?: B;
  answer: keyof typeof ANSWERS;
  /** Open Delivery's 422 body when it says more than {title, status}. */
  body422?: TSchema;
  preValidation?: typeof emptyBodyAsObject;
  run: (principal: Principal, orderId: string, body: Static<B>) => Promise<unknown>;
}

/** Spec 4.6–4.12, D6 and D29: the POS reads and acts on its orders. */
export const ordersRoutes: FastifyPluginAsyncTypebox<{ orders: OrdersService }> = async (app, { orders }) => {
  const orderAction = <B extends TSchema>(a: OrderAction<B>) =>
    app.route(
      declareRoute({
        method: a.method ?? 'POST',
        url: `/orders/:orderId/${a.action}`,
        access: MERCHANT_WRITE,
        summary: a.summary,
        description: a.description,
        schema: {
          ...common,
          ...(a.body ? { body: a.body } : {}),
          response: { [a.answer]: ANSWERS[a.answer], ...actionErrors },
        },
        opendelivery: { refusedAction: a.body422 ? { body422: a.body422 } : {} },
        ...(a.preValidation ? { preValidation: a.preValidation } : {}),
        handler: async (request, reply) => {
          await a.run(request.principal, request.params.orderId, request.body as Static<B>);
          return a.answer === 204 ? reply.code(204).send(null) : sendNoBody(reply, a.answer);
        },
      }),
    );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/orders/:orderId',
      access: MERCHANT_READ,
      summary: 'Read an order (spec 4.6)',
      description:
        'A `cleaver` key reads the order of spec 2.6 (D26); an `opendelivery` key reads Open Delivery’s Order ' +
        '(D28): no nulls, schedule only when scheduled, preparationStartDateTime defaulting to createdAt, ' +
        'items[].id the product uuid and items[].externalCode its POS code.',
      schema: {
        ...common,
        response: {
          200: withFieldDescriptions(Order, {
            type: 'DELIVERY (the courier takes it to the customer) or TAKEOUT (the customer picks it up).',
          }),
          ...errorResponses(400, 401, 404, 429),
        },
      },
      opendelivery: { answers: { 200: OdOrder } },
      handler: async (request, reply) => {
        const row = await orders.getOrder(request.principal, request.params.orderId);
        if (isOpenDelivery(request.principal)) return sendInDialect(reply, toOpenDeliveryOrderView(row));
        return toOrderView(row);
      },
    }),
  );

  orderAction({
    action: 'confirm',
    summary: 'Confirm an order (spec 4.7)',
    description:
      'Confirms a CREATED order after the POS reviewed it (spec 4.7): the order becomes CONFIRMED and a CONFIRMED ' +
      'event is raised. Optional orderExternalCode (the POS’s own code) and preparationTime.',
    body: ConfirmBody,
    answer: 202,
    run: (principal, orderId, body) => orders.confirm(principal, orderId, body),
  });

  orderAction({
    action: 'requestCancellation',
    summary: 'The POS asks to cancel an order (spec 4.8); watch for CANCELLED',
    description:
      'The POS asks to cancel an order it cannot fulfil (spec 4.8), with a reason, a code and a mode; records ' +
      'CANCELLATION_REQUESTED. The platform decides: CANCELLED ends the order, CANCELLATION_REQUEST_DENIED means it ' +
      'goes on. Asking twice is refused. For an opendelivery key the 422 adds cancellationStatus once an earlier ' +
      'request was answered.',
    body: RequestCancellationBody,
    answer: 202,
    body422: OdCancellationError,
    run: (principal, orderId, body) => orders.requestCancellation(principal, orderId, body),
  });

  orderAction({
    action: 'acceptCancellation',
    summary: "Accept the customer's cancellation request (spec 4.9)",
    description:
      'Accepts the customer’s cancellation request (spec 4.9): allowed only while the order’s last event is ' +
      'ORDER_CANCELLATION_REQUEST; the order becomes CANCELLED.',
    answer: 204,
    run: (principal, orderId) => orders.acceptCancellation(principal, orderId),
  });

  orderAction({
    action: 'denyCancellation',
    summary: "Deny the customer's cancellation request (spec 4.10); the order stays active",
    description:
      'Denies the customer’s cancellation request with a reason and a code (spec 4.10); the order stays active and ' +
      'continues. Polling gets CANCELLED_DENIED; a `cleaver` webhook URL gets two notifications (CANCELLED_DENIED, ' +
      'then CANCELLATION_REQUEST_DENIED) and an `opendelivery` one only the first (D8). An opendelivery key may also ' +
      'use Open Delivery’s codes DISH_ALREADY_DONE and OUT_FOR_DELIVERY.',
    body: DenyCancellationBody,
    answer: 204,
    run: (principal, orderId, body) => {
      checkDenyCodeOfProfile(principal, body.code);
      return orders.denyCancellation(principal, orderId, body);
    },
  });

  orderAction({
    action: 'readyForPickup',
    summary: 'The order is ready for pickup; raises READY_FOR_PICKUP (D6)',
    description: 'Tells the platform the order is ready to be picked up by the courier or the customer.',
    answer: 202,
    run: (principal, orderId) => orders.readyForPickup(principal, orderId),
  });

  orderAction({
    action: 'dispatch',
    summary: 'The order left the store; raises DISPATCHED, optionally with tracking (D6)',
    description:
      'The order is out for delivery. An optional deliveryTrackingInfo body is recorded as a first tracking update ' +
      '(as POST …/tracking, spec 4.12).',
    body: Type.Object({ deliveryTrackingInfo: Type.Optional(described(DeliveryTrackingInfo, 'The tracking update.')) }),
    answer: 202,
    preValidation: emptyBodyAsObject,
    run: (principal, orderId, body) => orders.dispatch(principal, orderId, body.deliveryTrackingInfo),
  });

  orderAction({
    action: 'delivered',
    summary: 'The order was delivered; raises DELIVERED (D6)',
    description: 'The order reached the customer. Check the customer’s delivery code first with POST …/validateCode.',
    answer: 202,
    run: (principal, orderId) => orders.delivered(principal, orderId),
  });

  orderAction({
    action: 'preparing',
    summary: 'Preparation has started (D29, Open Delivery); raises PREPARING',
    description:
      'Open Delivery’s optional progress event, for both profiles. Allowed on a CONFIRMED order; the status stays ' +
      'CONFIRMED and lastEvent becomes PREPARING.',
    answer: 202,
    run: (principal, orderId) => orders.preparing(principal, orderId),
  });

  orderAction({
    action: 'pickedUp',
    summary: 'The customer picked up a TAKEOUT order (D29, Open Delivery); raises PICKED_UP',
    description:
      'For both profiles. Allowed on a TAKEOUT order that is CONFIRMED or READY_FOR_PICKUP; the status stays and ' +
      'lastEvent becomes PICKED_UP.',
    answer: 202,
    run: (principal, orderId) => orders.pickedUp(principal, orderId),
  });

  orderAction({
    method: 'PATCH',
    action: 'details',
    summary: 'Change when preparation should start (D29, Open Delivery); no event',
    description:
      'Sets the order’s preparationStartDateTime, for both profiles; the order view shows the new value. Refused once ' +
      'the order is CANCELLED or CONCLUDED.',
    body: OrderDetailsBody,
    answer: 200,
    run: (principal, orderId, body) => orders.updateDetails(principal, orderId, body),
  });

  // D38, D41, D42: weighing, by kilograms or by label, with its own answer under ASK.
  await app.register(weighingRoutes, { orders });

  app.route(
    declareRoute({
      method: 'POST',
      url: '/orders/:orderId/validateCode',
      access: MERCHANT_WRITE,
      summary: "Check the customer's delivery code (spec 4.11)",
      description:
        'Checks the delivery code the customer gives at the door against the order’s (spec 4.11). 200 with the order id ' +
        'when it matches. Errors: 400 "Invalid code provided" when it does not (do not hand the order over); 404 when ' +
        'the order is not the merchant’s.',
      schema: {
        ...common,
        querystring: Type.Object({ deliveryCode: Type.Optional(Type.String({ maxLength: 100 })) }),
        body: ValidateCodeBody,
        response: {
          200: Type.Object({
            orderId: Uuid({ description: 'The order.' }),
            deliveryCode: Type.String({
              description: 'The code the customer gives at the door; check it with validateCode before handing over.',
            }),
          }),
          ...actionErrors,
        },
      },
      // D36: a wrong code is answered 400 and still reported to the platform feed
      // (DELIVERY_CODE_CHECKED {valid: false}).
      rejectedMayWrite: { append: ['feed_items'] },
      preValidation: emptyBodyAsObject,
      handler: async (request) =>
        orders.validateCode(
          request.principal,
          request.params.orderId,
          request.body.deliveryCode ?? request.query.deliveryCode,
        ),
    }),
  );

  orderAction({
    action: 'tracking',
    summary: 'Send a delivery tracking update (spec 4.12)',
    description:
      'A delivery tracking update from the POS’s own courier (spec 4.12): the courier, the vehicle, the position ' +
      'and the expected times; recorded for the order’s timeline, no event. Distances (distanceToPickup, ' +
      'distanceToDelivery) may be numbers or decimal strings, as Open Delivery sends them (D28).',
    body: TrackingBody,
    answer: 202,
    run: (principal, orderId, body) => orders.track(principal, orderId, body),
  });
};
