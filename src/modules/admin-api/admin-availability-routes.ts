// D43: the operator's twins of the POS's availability and pause routes, for a merchant named in
// the path (support staff act for a butcher on the phone); D44: a merchant's slots.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import {
  AVAILABILITY_DESCRIPTION,
  AvailabilityAnswer,
  AvailabilityBody,
  type CatalogService,
} from '../catalog/index.js';
import {
  MerchantPauseStatus,
  type MerchantsService,
  PAUSE_DESCRIPTION,
  PauseBody,
  pauseStatus,
} from '../merchants/index.js';
import type { OrdersService } from '../orders/index.js';
import { SlotList, SlotsQuery } from './admin-scheduling-schemas.js';
import { MerchantIdParams } from './admin-schemas.js';

export const adminAvailabilityRoutes: FastifyPluginAsyncTypebox<{
  merchants: MerchantsService;
  catalog: CatalogService;
  orders: OrdersService;
}> = async (app, { merchants, catalog, orders }) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/slots',
      access: { role: 'support', platform: true },
      summary: "A merchant's encomenda slots with the places left (D44)",
      description:
        'The slots cut from the store’s hours (scheduling settings, local time of America/Sao_Paulo) from `from` ' +
        '(default now) to `to` (default the horizon’s end; at most 31 days), never before now nor beyond the ' +
        'horizon, each with its capacity and the places left; a slot before the end of a store pause has none. ' +
        'Errors: 400 naming from or to; 404.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        querystring: SlotsQuery,
        response: { 200: SlotList, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => orders.listSlots(request.params.merchantId, request.query),
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/availability',
      access: { role: 'support', auditAction: 'merchant.availability' },
      summary: "Pause, resume and count a merchant's products (D43)",
      description: `${AVAILABILITY_DESCRIPTION} Audited. 404 when the merchant does not exist.`,
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        body: AvailabilityBody,
        response: { 200: AvailabilityAnswer, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        await merchants.requireMerchant(request.params.merchantId);
        return { items: await catalog.availability.setAvailability(request.params.merchantId, request.body.items) };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/pause',
      access: { role: 'support', auditAction: 'merchant.pause' },
      summary: "Pause a merchant's store until a time (D43)",
      description: `${PAUSE_DESCRIPTION} Audited. 404 when the merchant does not exist.`,
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        body: PauseBody,
        response: { 200: MerchantPauseStatus, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) =>
        pauseStatus(merchants, await merchants.pause(request.params.merchantId, request.body, 'operator')),
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/merchants/:merchantId/pause',
      access: { role: 'support', auditAction: 'merchant.resume' },
      summary: "End a merchant's store pause now (D43)",
      description:
        'Ends the store’s timed pause: AVAILABLE again; a store that is not paused is answered as it is. Audited. Errors: 404.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        response: { 200: MerchantPauseStatus, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        const merchant = await merchants.requireMerchant(request.params.merchantId);
        return pauseStatus(merchants, (await merchants.resume(merchant.id, 'operator')) ?? merchant);
      },
    }),
  );
};
