// The logged-in operator's own account: password, one-time codes (enrol with an authenticator
// app, confirm with a first code, turn off), personal API tokens (shown once), and "sign out
// everywhere". A bootstrap-token session has no account.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import {
  allows,
  isRole,
  ROLES,
  selfOf,
  TOKEN_DEFAULT_DAYS,
  TOKEN_MAX_DAYS,
  toTokenView,
} from '../modules/operators/index.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { type Html, html } from './html.js';
import { csrfField, page } from './layout.js';
import { tokenTable } from './operators-pages.js';

const NOTICES: Record<string, string> = {
  password: 'Password changed.',
  totp: 'One-time codes are on: you will be asked for a code at every login.',
  'totp-off': 'One-time codes are off.',
  token: 'Token revoked.',
};

const DAY_MS = 86_400_000;

export const accountPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { operators, operatorSessions, clock } = kit.services;

  async function accountPage(request: FastifyRequest, reply: FastifyReply, shown?: Html, status = 200) {
    const ctx = kit.ctx(request);
    const actor = request.actor;
    if (!actor.operatorId) {
      const body = html`<p>You are logged in with the bootstrap token (<code>CLEAVER_ADMIN_TOKEN</code>): it has every
right but no account. Create an operator for yourself on the <a href="/console/operators">Operators</a> page and log in with it.</p>`;
      return kit.send(reply, page(ctx, { title: 'Account', active: 'account' }, body), status);
    }
    const o = await operators.requireOperator(actor.operatorId);
    const tokens = (await operators.listTokens(o.id)).map((t) => toTokenView(t, clock.now()));
    const csrf = csrfField(ctx.csrfToken);
    const body = html`${shown ?? ''}
<section aria-labelledby="pw-h" class="panel">
  <h2 id="pw-h">Password</h2>
  <form method="post" action="/console/account/password" class="inline-form">${csrf}
    <div class="field"><label for="pw-current">Current password</label><input id="pw-current" name="currentPassword" type="password" required autocomplete="current-password"></div>
    <div class="field"><label for="pw-new">New password (12+ characters)</label><input id="pw-new" name="newPassword" type="password" required minlength="12" maxlength="256" autocomplete="new-password"></div>
    <button type="submit">Change password</button>
  </form>
</section>
<section aria-labelledby="totp-h" class="panel">
  <h2 id="totp-h">One-time codes</h2>
  ${
    o.totp_secret_enc
      ? html`<p>On: every login asks for a code from your authenticator app.</p>
  <form method="post" action="/console/account/totp/disable" class="inline-form">${csrf}
    <div class="field"><label for="totp-off-pw">Password</label><input id="totp-off-pw" name="password" type="password" required autocomplete="current-password"></div>
    <button type="submit" class="danger">Turn off one-time codes</button></form>`
      : html`<p>Off. Add a second factor: an authenticator app (RFC 6238) gives a new code every 30 seconds.</p>
  <form method="post" action="/console/account/totp" class="inline-form">${csrf}<button type="submit">Set up one-time codes</button></form>`
  }
</section>
<section aria-labelledby="tok-h" class="panel">
  <h2 id="tok-h">Personal API tokens</h2>
  <p class="muted small">For the operator API and the <code>cleaver</code> CLI (<code>--admin-token</code>); a token's role is at most yours.</p>
  ${tokenTable(tokens, (t) =>
    t.active
      ? html`<form method="post" action="/console/account/tokens/${t.id}/revoke">${csrf}<button type="submit" class="danger small">Revoke<span class="visually-hidden"> token ${t.name}</span></button></form>`
      : '',
  )}
  <form method="post" action="/console/account/tokens" class="inline-form">${csrf}
    <div class="field"><label for="tok-name">Token name</label><input id="tok-name" name="name" maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="tok-role">Token role</label><select id="tok-role" name="role">
      ${ROLES.filter((r) => allows(o.role, r)).map((r) => html`<option${r === o.role ? html` selected` : ''}>${r}</option>`)}</select></div>
    <div class="field"><label for="tok-days">Valid for (days)</label><input id="tok-days" name="days" type="number" min="1" max="${TOKEN_MAX_DAYS}" value="${TOKEN_DEFAULT_DAYS}"></div>
    <button type="submit">Create token</button>
  </form>
</section>
<section aria-labelledby="sess-h" class="panel">
  <h2 id="sess-h">Sessions</h2>
  <form method="post" action="/console/account/sessions/revoke" class="inline-form">${csrf}
    <button type="submit">Sign out everywhere</button></form>
</section>`;
    const notice = NOTICES[queryOf(request).done ?? ''] ?? '';
    return kit.send(reply, page(ctx, { title: 'Account', active: 'account', notice }, body), status);
  }

  app.get('/account', (request, reply) => accountPage(request, reply));

  app.post('/account/password', async (request, reply) => {
    const form = formOf(request);
    await operators.changeOwnPassword(selfOf(request.actor), form.currentPassword ?? '', form.newPassword ?? '');
    return reply.redirect('/console/account?done=password', 303);
  });

  app.post('/account/totp', async (request, reply) => {
    const { secret, uri } = await operators.startTotp(selfOf(request.actor));
    const csrf = csrfField(kit.ctx(request).csrfToken);
    // Shown in this answer only; the secret is stored sealed until a first code confirms it.
    const shown = html`<section aria-labelledby="enrol-h" class="panel secret">
  <h2 id="enrol-h">Add Cleaver to your authenticator app</h2>
  <p>Type this key into the app (or open the link on the phone), then enter the code it shows.</p>
  <dl class="facts">
    <div><dt>Key</dt><dd><code id="totp-secret" class="wrap">${secret}</code></dd></div>
    <div><dt>Link</dt><dd><code id="totp-uri" class="wrap">${uri}</code></dd></div>
  </dl>
  <form method="post" action="/console/account/totp/confirm" class="inline-form">${csrf}
    <div class="field"><label for="totp-code">Code from the app</label><input id="totp-code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="8"></div>
    <button type="submit">Turn on one-time codes</button>
  </form>
</section>`;
    reply.header('cache-control', 'no-store');
    return accountPage(request, reply, shown);
  });

  app.post('/account/totp/confirm', async (request, reply) => {
    await operators.confirmTotp(selfOf(request.actor), formOf(request).code ?? '');
    return reply.redirect('/console/account?done=totp', 303);
  });

  app.post('/account/totp/disable', async (request, reply) => {
    await operators.disableTotp(selfOf(request.actor), formOf(request).password ?? '');
    return reply.redirect('/console/account?done=totp-off', 303);
  });

  app.post('/account/tokens', async (request, reply) => {
    const form = formOf(request);
    if (form.role && !isRole(form.role)) throw badRequest('role must be viewer, support or admin');
    const days = form.days ? Number(form.days) : TOKEN_DEFAULT_DAYS;
    if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS) {
      throw badRequest(`days must be a whole number from 1 to ${TOKEN_MAX_DAYS}`);
    }
    const created = await operators.createToken(
      selfOf(request.actor),
      {
        name: form.name || undefined,
        role: isRole(form.role) ? form.role : undefined,
        expiresAt: new Date(clock.now().getTime() + days * DAY_MS).toISOString(),
      },
      request.actor.role,
    );
    const shown = html`<section aria-labelledby="new-tok-h" class="panel secret">
  <h2 id="new-tok-h">New token: copy it now</h2>
  <p>The token is shown only this once; only a hash of it is kept.</p>
  <dl class="facts">
    <div><dt>Token</dt><dd><code id="new-token" class="wrap">${created.token}</code>
      <button type="button" class="small" data-copy="new-token">Copy</button></dd></div>
    <div><dt>Role</dt><dd>${created.role}</dd></div>
  </dl>
</section>`;
    reply.header('cache-control', 'no-store');
    return accountPage(request, reply, shown, 201);
  });

  app.post('/account/tokens/:tokenId/revoke', async (request, reply) => {
    const tokenId = (request.params as { tokenId: string }).tokenId;
    if (!isUuid(tokenId)) throw notFound('Token not found');
    await operators.revokeToken(selfOf(request.actor), tokenId);
    return reply.redirect('/console/account?done=token', 303);
  });

  app.post('/account/sessions/revoke', async (request, reply) => {
    const id = selfOf(request.actor);
    await operatorSessions.closeAll(id);
    return reply.redirect('/console/login', 303);
  });
};
