// D43: POST /v1/merchant/pause {reason, until} and DELETE /v1/merchant/pause: the store's timed
// pause, from the POS.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declareRoute, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { DateTime, described, errorResponses, Status } from '../../lib/schemas.js';
import type { MerchantRow } from './merchants-repository.js';
import type { MerchantsService } from './merchants-service.js';

export const PauseBody = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 200, description: 'Why the store is paused, as people read it.' }),
    until: DateTime({ description: 'When the store opens again by itself (in the future).' }),
  },
  { examples: [{ reason: 'Falta de energia', until: '2031-12-24T18:00:00.000Z' }] },
);

export const PauseView = Type.Union(
  [
    Type.Object({
      reason: Type.String({ description: 'Why the store is paused.' }),
      until: DateTime({ description: 'When it opens again by itself.' }),
    }),
    Type.Null(),
  ],
  { description: 'D43: the store’s timed pause while it holds; null when not paused.' },
);

export const MerchantPauseStatus = Type.Object({
  status: described(Status, 'Whether the merchant receives orders: AVAILABLE or UNAVAILABLE.'),
  pause: PauseView,
});

/** The answer of every pause route: the status and the pause as they are now. */
export const pauseStatus = (
  merchants: Pick<MerchantsService, 'currentPause'>,
  row: Pick<MerchantRow, 'status' | 'pause_reason' | 'paused_until'>,
) => ({ status: row.status, pause: merchants.currentPause(row) });

export const PAUSE_DESCRIPTION =
  'Pauses the store: it receives no orders (status UNAVAILABLE) until `until`, when it opens again by itself ' +
  '(AVAILABLE); DELETE ends the pause now. A status set by hand (an operator’s PATCH) also ends it. Each switch is ' +
  'in the merchant’s history and is a `merchant STATUS_CHANGED` feed item with the pause (D43). Errors: 400 naming ' +
  'the field (reason, until).';

export const pauseRoutes: FastifyPluginAsyncTypebox<{ merchants: MerchantsService }> = async (app, { merchants }) => {
  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchant/pause',
      access: MERCHANT_WRITE,
      summary: 'Pause the store until a time (D43)',
      description: PAUSE_DESCRIPTION,
      schema: {
        tags: ['merchant'],
        body: PauseBody,
        response: { 200: MerchantPauseStatus, ...errorResponses(400, 401, 413, 415, 429) },
      },
      handler: async (request) =>
        pauseStatus(merchants, await merchants.pause(request.principal.merchantId, request.body, 'pos')),
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/merchant/pause',
      access: MERCHANT_WRITE,
      summary: 'End the store’s pause now (D43)',
      description: 'Ends the store’s timed pause: AVAILABLE again. A store that is not paused is answered as it is.',
      schema: { tags: ['merchant'], response: { 200: MerchantPauseStatus, ...errorResponses(401, 429) } },
      handler: async (request) => {
        const ended = await merchants.resume(request.principal.merchantId, 'pos');
        return pauseStatus(merchants, ended ?? (await merchants.requireMerchant(request.principal.merchantId)));
      },
    }),
  );
};
