// Destructive actions are confirmed on the server, so they are confirmed without JavaScript too:
// a form posted without `confirm=yes` gets a page that says what will happen, with the same
// fields and a button that posts them again with `confirm=yes` (console.js adds it after its
// own dialog, so a browser with scripts sees one question, not two).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleKit, formOf } from './console-kit.js';
import { html } from './html.js';
import { csrfField, page } from './layout.js';
import type { Messages } from './messages/en.js';

type Question = (form: Record<string, string>, t: Messages) => string | undefined;

/** Route → the question to ask (undefined: this submission destroys nothing, no question). */
const DESTRUCTIVE: Record<string, Question> = {
  '/console/merchants/:merchantId/keys/:keyId/delete': (_f, t) => t.confirm.deleteKey,
  // Every final step of an order (CANCELLED and CONCLUDED end it: order-state.ts FINAL_STATUSES).
  '/console/orders/:orderId/events': (f, t) =>
    f.eventType === 'CANCELLED'
      ? t.confirm.cancelOrder
      : f.eventType === 'CONCLUDED'
        ? t.confirm.concludeOrder
        : undefined,
  '/console/orders/:orderId/cancellationDecision': (f, t) =>
    f.decision === 'accept' ? t.confirm.acceptCancellation : undefined,
  '/console/merchants/:merchantId/products/:productId/cuts/remove': (_f, t) => t.confirm.removeCut,
  '/console/operators/:id/totp/reset': (_f, t) => t.confirm.resetTotp,
  '/console/operators/:id/revokeAccess': (_f, t) => t.confirm.revokeAccess,
  '/console/operators/:id/tokens/:tokenId/revoke': (_f, t) => t.confirm.revokeToken,
  '/console/account/tokens/:tokenId/revoke': (_f, t) => t.confirm.revokeToken,
  '/console/account/sessions/revoke': (_f, t) => t.confirm.signOutEverywhere,
};

/** A preHandler: answers a confirmation page instead of running an unconfirmed destructive action. */
export function confirmStep(kit: ConsoleKit) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const ctx = kit.ctx(request);
    const question = DESTRUCTIVE[request.routeOptions.url ?? '']?.(formOf(request), ctx.t);
    const form = formOf(request);
    if (!question || form.confirm === 'yes') return;
    request.awaitingConfirmation = true;
    const fields = Object.entries(form).filter(([k]) => k !== '_csrf' && k !== 'confirm');
    const back = typeof request.headers.referer === 'string' ? new URL(request.headers.referer, 'http://x') : null;
    const cancel = back?.pathname.startsWith('/console/') ? `${back.pathname}${back.search}` : '/console/merchants';
    const body = html`<section class="panel" aria-labelledby="confirm-h">
  <h2 id="confirm-h">${question}</h2>
  <form method="post" action="${request.url}" class="inline-form">
    ${csrfField(ctx.csrfToken)}
    ${fields.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">${ctx.t.confirm.yes}</button>
    <a href="${cancel}">${ctx.t.confirm.no}</a>
  </form>
</section>`;
    return kit.send(reply, page(ctx, { title: ctx.t.confirm.title }, body));
  };
}
