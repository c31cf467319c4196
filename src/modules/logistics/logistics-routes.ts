import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerNoContent } from '../../lib/answers.js';
import { declareRoute, SIGNED_BY_PARTNER } from '../../lib/route-declaration.js';
import { errorResponses, NoContent } from '../../lib/schemas.js';
import {
  ConfirmationCodeAnswer,
  ConfirmationCodeBody,
  DeliveryUpdateBody,
  LogisticsHeaders,
} from './logistics-schemas.js';
import type { LogisticsService } from './logistics-service.js';

const common = { tags: ['logistics'], headers: LogisticsHeaders };

/** Spec 4.14 and 4.15; registered under /v1/logistics behind useLogisticsAuth (spec 5.2). */
export const logisticsRoutes: FastifyPluginAsyncTypebox<{ logistics: LogisticsService }> = async (
  app,
  { logistics },
) => {
  app.route(
    declareRoute({
      method: 'POST',
      access: SIGNED_BY_PARTNER,
      url: '/deliveryUpdate',
      summary: 'A delivery event from the logistics partner (spec 4.14); replays change nothing',
      description:
        'A delivery event from the logistics partner (spec 4.14), signed with X-App-Signature (hex HMAC-SHA256 of the ' +
        'body with the app’s secret) and identified by X-App-Id and X-App-MerchantId. DELIVERY_ONGOING marks the order ' +
        'dispatched, DELIVERY_FINISHED delivered; other types are recorded for tracking only. The same update sent ' +
        'twice changes nothing. Errors: 401 for a bad signature or an unknown app; 404 when the order is not the ' +
        'merchant’s or the app does not serve it; 409 when the update conflicts with the order’s state.',
      schema: {
        ...common,
        body: DeliveryUpdateBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
      handler: answerNoContent((request) => logistics.receiveDeliveryUpdate(request.logisticsCaller, request.body)),
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      access: SIGNED_BY_PARTNER,
      url: '/confirmationCode',
      summary: "Check the customer's delivery code (spec 4.15, same check as 4.11)",
      description:
        'The logistics partner checks the customer’s delivery code (spec 4.15), with the same check as the POS’s ' +
        'validateCode. Signed like deliveryUpdate. Errors: 400 "Invalid code provided"; 401 for a bad signature; 404 ' +
        'for an order the app does not serve.',
      schema: {
        ...common,
        body: ConfirmationCodeBody,
        response: { 200: ConfirmationCodeAnswer, ...errorResponses(400, 401, 404, 413, 415) },
      },
      // D36: a wrong code is answered 400 and still reported to the platform feed.
      rejectedMayWrite: { append: ['feed_items'] },
      handler: async (request) => logistics.confirmCode(request.logisticsCaller, request.body),
    }),
  );
};
