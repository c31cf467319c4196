// POST /v1/orders/{orderId}/weighing (D38, D41, D42): the weighed kilograms of KG lines, or the
// scale's labels; 202 with the weighing's id and APPLIED, or PENDING_APPROVAL and its deadline when
// a line is out of tolerance and the merchant asks the customer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { declareRoute, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { OrderIdParams, PendingWeighingAnswer, WeighingBody } from './orders-schemas.js';
import type { OrdersService } from './orders-service.js';

export const weighingRoutes: FastifyPluginAsyncTypebox<{ orders: OrdersService }> = async (app, { orders }) => {
  app.route(
    declareRoute({
      method: 'POST',
      url: '/orders/:orderId/weighing',
      access: MERCHANT_WRITE,
      summary: 'The weighed kilograms of KG lines, or the scale’s labels (D38, D41, D42); prices follow the weight',
      description:
        'A product sold by KG is ordered by an estimated weight; the butcher weighs the cut and sends, for each line ' +
        'by its index in the order’s items, the real weight (`quantity`: kilograms, more than 0, at most 3 decimals) ' +
        'or the scale’s EAN-13 `label` of the pack (D41: read with the merchant’s scale label layouts; it must carry ' +
        'the line’s product’s scaleCode; a WEIGHT label gives the kilograms, a PRICE label the line’s price exactly ' +
        'and the kilograms it stands for, price ÷ unit price to the gram; the line then shows `scaleLabel`). Allowed ' +
        'once the order is CONFIRMED and until it is READY_FOR_PICKUP or DISPATCHED; it may be repeated until then, ' +
        'the last weighing of a line counting. The order then shows the weight as the line’s `quantity` and the ' +
        'ordered one as `orderedQuantity`; the line’s `totalPrice` is its unit price × the weight rounded half up to ' +
        'cents (plus its options); `itemsPrice` and `orderAmount` (itemsPrice + otherFees − discount) are recomputed; ' +
        'a PENDING payment follows the new amount, and what no PENDING payment takes (a prepaid order) shows as ' +
        '`weighingAdjustment` (positive: the platform charges it; negative: it refunds it). No event is raised. A ' +
        'weight outside the merchant’s tolerance (±20 % of the ordered quantity unless the platform set another) is ' +
        'a 400 by default; when the merchant asks the customer (D42, `weighingOutOfTolerance` ASK) the answer is 202 ' +
        '`{weighingId, state: PENDING_APPROVAL, deadline}` (otherwise `{weighingId, state: APPLIED}`), nothing changes yet, and the order shows `weighing` ' +
        'until the platform decides (or the deadline applies the merchant’s default): read the order to learn the ' +
        'decision. Errors: 400 naming `items[i].quantity` or `items[i].label` and the rule it breaks (a UN line, ' +
        'an index that is not a line of the order, the tolerance with its range, a label’s digits, check digit, ' +
        'layout or scale code); 400 while a weighing waits for a decision; nothing of the request is applied then.',
      schema: {
        tags: ['orders'],
        params: OrderIdParams,
        body: WeighingBody,
        response: { 202: PendingWeighingAnswer, ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
      },
      opendelivery: { refusedAction: {} },
      handler: async (request, reply) => {
        return reply.code(202).send(await orders.weigh(request.principal, request.params.orderId, request.body));
      },
    }),
  );
};
