// D42: the platform answers for the customer when a weighing is out of tolerance and the
// merchant asks (roles platform and admin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses, Uuid } from '../../lib/schemas.js';
import { OperatorOrder, type OrdersService, toOperatorOrderView, WeighingDecisionBody } from '../orders/index.js';

export const adminWeighingRoutes: FastifyPluginAsyncTypebox<{ orders: OrdersService }> = async (app, { orders }) => {
  app.route(
    declareRoute({
      method: 'POST',
      url: '/orders/:orderId/weighings/:weighingId/decision',
      access: { role: 'admin', platform: true, auditAction: 'order.weighingDecision' },
      summary: 'Decide for the customer on a weighing out of tolerance (D42): ACCEPT, REJECT or REMOVE_LINES',
      description:
        'When a merchant asks the customer (weighingOutOfTolerance ASK), a weighing out of tolerance waits for this ' +
        'decision until its deadline (the order’s `weighing`). ACCEPT applies it as a weighing does (line prices, ' +
        'totals, a PENDING payment, weighingAdjustment); REJECT leaves the order as it was, and the butcher weighs ' +
        'again; REMOVE_LINES takes the named lines (default: those out of tolerance) out of the order and applies ' +
        'the rest. The order shows the decision in `weighing`, and the feed has `order WEIGHING_DECIDED` (so do the keys that opted in, as an event). On an ' +
        'order that has moved on (no longer CONFIRMED) the decision is recorded and changes nothing else. Answers ' +
        '200 with the order. Errors: 400 naming `lines`; 404 for an unknown order or weighing; 409 when the ' +
        'weighing was already decided (by the platform or by the deadline).',
      schema: {
        tags: ['operator'],
        params: Type.Object({
          orderId: Uuid(),
          weighingId: Uuid({
            description: 'The weighing waiting for the decision (the order’s `weighing.weighingId`).',
          }),
        }),
        body: WeighingDecisionBody,
        response: { 200: OperatorOrder, ...errorResponses(400, 401, 404, 409) },
      },
      handler: async (request) => {
        const { orderId, weighingId } = request.params;
        await orders.decideWeighing(orderId, weighingId, request.body);
        return toOperatorOrderView(await orders.getAnyOrder(orderId));
      },
    }),
  );
};
