// D41: operators read and set a merchant's scale label layouts (the POS does the same at
// /v1/merchant/scaleLabelLayouts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { LAYOUTS_DESCRIPTION, type MerchantsService } from '../merchants/index.js';
import { ScaleLabelLayouts } from '../scale-labels/index.js';
import { MerchantIdParams } from './admin-schemas.js';

export const adminScaleLabelRoutes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService }> = async (
  app,
  { merchants },
) => {
  app.route(
    declareRoute({
      method: 'PUT',
      url: '/merchants/:merchantId/scaleLabelLayouts',
      access: { role: 'admin', auditAction: 'merchant.scaleLabelLayouts' },
      summary: 'Set how a merchant’s scales lay out their EAN-13 labels (D41)',
      description: `${LAYOUTS_DESCRIPTION} Audited. 404 for an unknown merchant.`,
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        body: ScaleLabelLayouts,
        response: { 200: ScaleLabelLayouts, ...errorResponses(400, 401, 404) },
      },
      handler: (request) => merchants.setScaleLabelLayouts(request.params.merchantId, request.body),
    }),
  );
  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/scaleLabelLayouts',
      access: READ_WITH_PLATFORM,
      summary: 'A merchant’s scale label layouts (D41)',
      description: 'The layouts as declared, in the order they are tried ([] when none). 404 for an unknown merchant.',
      schema: {
        tags: ['operator'],
        params: MerchantIdParams,
        response: { 200: ScaleLabelLayouts, ...errorResponses(400, 401, 404) },
      },
      handler: (request) => merchants.scaleLabelLayouts(request.params.merchantId),
    }),
  );
};
