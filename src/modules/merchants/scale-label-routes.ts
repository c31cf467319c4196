// D41: the POS declares how its counter scales lay out their labels; operators do the same under
// /admin/v1 (admin-api/admin-scale-label-routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { ScaleLabelLayouts } from '../scale-labels/index.js';
import type { MerchantsService } from './merchants-service.js';

const tags = ['merchant'];

export const LAYOUTS_DESCRIPTION =
  'The layouts are tried in order; the first whose prefix begins a label reads it. Each is `{prefix, codeDigits, ' +
  'value: WEIGHT | PRICE, valueDigits, decimals}`: prefix 1–2 digits beginning with 2, codeDigits 4–6, valueDigits ' +
  '5–7, prefix + code + value digits = 12 (the thirteenth is the EAN-13 check digit), decimals 3 for a WEIGHT (kg) ' +
  'and 2 for a PRICE (BRL). The body replaces the whole list; [] removes them. Errors: 400 naming the field ' +
  '(`[1].valueDigits`), nothing written.';

export const scaleLabelRoutes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService }> = async (
  app,
  { merchants },
) => {
  app.route(
    declareRoute({
      method: 'PUT',
      url: '/merchant/scaleLabelLayouts',
      access: MERCHANT_WRITE,
      summary: 'Declare how the shop’s scales lay out their EAN-13 labels (D41)',
      description: LAYOUTS_DESCRIPTION,
      schema: {
        tags,
        body: ScaleLabelLayouts,
        response: { 200: ScaleLabelLayouts, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
      handler: (request) => merchants.setScaleLabelLayouts(request.principal.merchantId, request.body),
    }),
  );
  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchant/scaleLabelLayouts',
      access: MERCHANT_READ,
      summary: 'The shop’s scale label layouts (D41)',
      description: 'The layouts as declared, in the order they are tried ([] when none).',
      schema: { tags, response: { 200: ScaleLabelLayouts, ...errorResponses(401, 404, 429) } },
      handler: (request) => merchants.scaleLabelLayouts(request.principal.merchantId),
    }),
  );
};
