import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, NoContent } from '../../lib/schemas.js';
import {
  ConfirmationCodeAnswer,
  ConfirmationCodeBody,
  DeliveryUpdateBody,
  LogisticsHeaders,
} from './logistics-schemas.js';
import type { LogisticsService } from './logistics-service.js';

const common = { tags: ['logistics'], security: [{ xAppSignature: [] }], headers: LogisticsHeaders };

/** Spec 4.14 and 4.15; registered under /v1/logistics behind useLogisticsAuth (spec 5.2). */
export const logisticsRoutes: FastifyPluginAsyncTypebox<{ logistics: LogisticsService }> = async (
  app,
  { logistics },
) => {
  app.post(
    '/deliveryUpdate',
    {
      schema: {
        ...common,
        summary: 'A delivery event from the logistics partner (spec 4.14); replays change nothing',
        body: DeliveryUpdateBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      await logistics.receiveDeliveryUpdate(request.logisticsCaller, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/confirmationCode',
    {
      schema: {
        ...common,
        summary: "Check the customer's delivery code (spec 4.15, same check as 4.11)",
        body: ConfirmationCodeBody,
        response: { 200: ConfirmationCodeAnswer, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request) => logistics.confirmCode(request.logisticsCaller, request.body),
  );
};
