// Destructive actions are confirmed on the server, so they are confirmed without JavaScript too:
// a form posted without `confirm=yes` gets a page that says what will happen, with the same
// fields and a button that posts them again with `confirm=yes` (console.js adds it after its
// own dialog, so a browser with scripts sees one question, not two).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleKit, formOf } from './console-kit.js';
import { html } from './html.js';
import { csrfField, page } from './layout.js';

type Question = (form: Record<string, string>) => string | undefined;

/** Route → the question to ask (undefined: this submission destroys nothing, no question). */
const DESTRUCTIVE: Record<string, Question> = {
  '/console/merchants/:merchantId/keys/:keyId/delete': () =>
    'Delete this integration key? Its tokens stop working at once; this cannot be undone.',
  '/console/orders/:orderId/events': (f) =>
    f.eventType === 'CANCELLED' ? 'Cancel this order for the platform? The POS and the customer are told.' : undefined,
  '/console/operators/:id/totp/reset': () => "Remove this operator's one-time-code device?",
  '/console/operators/:id/revokeAccess': () => 'End every session and revoke every token of this operator?',
  '/console/operators/:id/tokens/:tokenId/revoke': () => 'Revoke this token? Anything using it stops working.',
  '/console/account/tokens/:tokenId/revoke': () => 'Revoke this token? Anything using it stops working.',
  '/console/account/sessions/revoke': () => 'Log out every session of yours, this one included?',
};

/** A preHandler: answers a confirmation page instead of running an unconfirmed destructive action. */
export function confirmStep(kit: ConsoleKit) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const question = DESTRUCTIVE[request.routeOptions.url ?? '']?.(formOf(request));
    const form = formOf(request);
    if (!question || form.confirm === 'yes') return;
    request.awaitingConfirmation = true;
    const fields = Object.entries(form).filter(([k]) => k !== '_csrf' && k !== 'confirm');
    const back = typeof request.headers.referer === 'string' ? new URL(request.headers.referer, 'http://x') : null;
    const cancel = back?.pathname.startsWith('/console/') ? `${back.pathname}${back.search}` : '/console/merchants';
    const body = html`<section class="panel" aria-labelledby="confirm-h">
  <h2 id="confirm-h">${question}</h2>
  <form method="post" action="${request.url}" class="inline-form">
    ${csrfField(kit.ctx(request).csrfToken)}
    ${fields.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">Yes, do it</button>
    <a href="${cancel}">No, go back</a>
  </form>
</section>`;
    return kit.send(reply, page(kit.ctx(request), { title: 'Please confirm' }, body));
  };
}
