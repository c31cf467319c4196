// The logged-in operator's own account: password, one-time codes (enrol with an authenticator
// app, confirm with a first code, turn off), personal API tokens (shown once), and "sign out
// everywhere". A bootstrap-token session has no account.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isUuid } from '../lib/ids.js';
import {
  CreateTokenBody,
  mayGrant,
  PASSWORD_MIN,
  ROLES,
  SetPasswordBody,
  selfOf,
  TOKEN_DEFAULT_DAYS,
  TOKEN_MAX_DAYS,
  toTokenView,
} from '../modules/operators/index.js';
import { allow } from './console-access.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { type Html, html } from './html.js';
import { csrfField, page } from './layout.js';
import { roleBadge, tokenTable } from './operators-pages.js';

const DONE_KEYS = ['password', 'totp', 'totp-off', 'token'] as const;

const DAY_MS = 86_400_000;

/** Own password: the new one as POST …/operators/{id}/password takes it; its floor is checked in code points below. */
const PasswordForm = Type.Object({
  currentPassword: Type.Optional(SetPasswordBody.properties.password),
  newPassword: SetPasswordBody.properties.password,
});
/** The first one-time code of an enrolment (the service says whether it is right). */
const CodeForm = Type.Object({ code: Type.Optional(Type.String({ maxLength: 100 })) });
const TotpOffForm = Type.Object({ password: Type.Optional(SetPasswordBody.properties.password) });
/** A personal token: the name and role of POST …/tokens, and days instead of an expiry instant. */
const TokenForm = Type.Object({
  name: CreateTokenBody.properties.name,
  role: CreateTokenBody.properties.role,
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: TOKEN_MAX_DAYS })),
});

export const accountPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { operators, operatorSessions, clock } = kit.services;

  async function accountPage(request: FastifyRequest, reply: FastifyReply, shown?: Html, status = 200) {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const a = t.account;
    const actor = request.actor;
    if (!actor.operatorId) {
      const body = html`<p>${a.bootstrap(html`<code>CLEAVER_ADMIN_TOKEN</code>`, html`<a href="/console/operators">${t.sections.operators}</a>`)}</p>`;
      return kit.send(reply, page(ctx, { title: t.sections.account, active: 'account' }, body), status);
    }
    const o = await operators.requireOperator(actor.operatorId);
    const tokens = (await operators.listTokens(o.id)).map((t) => toTokenView(t, clock.now()));
    const csrf = csrfField(ctx.csrfToken);
    const body = html`${shown ?? ''}
<section aria-labelledby="pw-h" class="panel">
  <h2 id="pw-h">${a.password}</h2>
  <form method="post" action="/console/account/password" class="inline-form">${csrf}
    <div class="field"><label for="pw-current">${a.currentPassword}</label><input id="pw-current" name="currentPassword" type="password" required autocomplete="current-password"></div>
    <div class="field"><label for="pw-new">${t.operators.newPassword(PASSWORD_MIN)}</label><input id="pw-new" name="newPassword" type="password" required minlength="${PASSWORD_MIN}" maxlength="256" autocomplete="new-password"></div>
    <button type="submit">${a.changePassword}</button>
  </form>
</section>
<section aria-labelledby="totp-h" class="panel">
  <h2 id="totp-h">${t.operators.totp}</h2>
  ${
    o.totp_secret_enc
      ? html`<p>${a.totpOn}</p>
  <form method="post" action="/console/account/totp/disable" class="inline-form">${csrf}
    <div class="field"><label for="totp-off-pw">${a.password}</label><input id="totp-off-pw" name="password" type="password" required autocomplete="current-password"></div>
    <button type="submit" class="danger">${a.totpTurnOff}</button></form>`
      : html`<p>${a.totpOff}</p>
  <form method="post" action="/console/account/totp" class="inline-form">${csrf}<button type="submit">${a.totpSetUp}</button></form>`
  }
</section>
<section aria-labelledby="tok-h" class="panel">
  <h2 id="tok-h">${t.operators.tokens}</h2>
  <p class="muted small">${a.tokensHelp(html`<code>cleaver</code>`, html`<code>--admin-token</code>`)}</p>
  ${tokenTable(t, tokens, (tok) =>
    tok.active
      ? html`<form method="post" action="/console/account/tokens/${tok.id}/revoke">${csrf}<button type="submit" class="danger small">${t.operators.revoke}<span class="visually-hidden"> ${t.operators.tokenNamed(tok.name)}</span></button></form>`
      : '',
  )}
  <form method="post" action="/console/account/tokens" class="inline-form">${csrf}
    <div class="field"><label for="tok-name">${a.tokenName}</label><input id="tok-name" name="name" maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="tok-role">${a.tokenRole}</label><select id="tok-role" name="role">
      ${ROLES.filter((r) => mayGrant(o.role, r)).map((r) => html`<option value="${r}"${r === o.role ? html` selected` : ''}>${t.roles[r]}</option>`)}</select></div>
    <div class="field"><label for="tok-days">${a.validDays}</label><input id="tok-days" name="days" type="number" min="1" max="${TOKEN_MAX_DAYS}" value="${TOKEN_DEFAULT_DAYS}"></div>
    <button type="submit">${a.createToken}</button>
  </form>
</section>
<section aria-labelledby="sess-h" class="panel">
  <h2 id="sess-h">${a.sessions}</h2>
  <form method="post" action="/console/account/sessions/revoke" class="inline-form">${csrf}
    <button type="submit">${a.signOutEverywhere}</button></form>
</section>`;
    const done = DONE_KEYS.find((k) => k === queryOf(request).done);
    return kit.send(
      reply,
      page(ctx, { title: t.sections.account, active: 'account', notice: done ? a.done[done] : '' }, body),
      status,
    );
  }

  app.get('/account', allow('viewer'), (request, reply) => accountPage(request, reply));

  app.post('/account/password', allow('viewer', 'account.changePassword'), async (request, reply) => {
    const form = readForm(request, PasswordForm, {
      labels: { currentPassword: (t) => t.account.currentPassword },
      messages: { newPassword: (t) => t.errors.passwordTooShort(PASSWORD_MIN) },
    });
    const self = selfOf(request.actor);
    if ([...form.newPassword].length < PASSWORD_MIN) {
      throw invalidInput((t) => t.errors.passwordTooShort(PASSWORD_MIN), 'newPassword');
    }
    await operators.changeOwnPassword(self, form.currentPassword ?? '', form.newPassword);
    return reply.redirect('/console/account?done=password', 303);
  });

  app.post('/account/totp', allow('viewer', 'account.startTotp'), async (request, reply) => {
    const { secret, uri } = await operators.startTotp(selfOf(request.actor));
    const ctx = kit.ctx(request);
    const a = ctx.t.account;
    const csrf = csrfField(ctx.csrfToken);
    // Shown in this answer only; the secret is stored sealed until a first code confirms it.
    const shown = html`<section aria-labelledby="enrol-h" class="panel secret">
  <h2 id="enrol-h">${a.enrolHeading}</h2>
  <p>${a.enrolHelp}</p>
  <dl class="facts">
    <div class="wide"><dt>${a.enrolKey}</dt><dd><code id="totp-secret" class="wrap">${secret}</code></dd></div>
    <div class="wide"><dt>${a.enrolLink}</dt><dd><code id="totp-uri" class="wrap">${uri}</code></dd></div>
  </dl>
  <form method="post" action="/console/account/totp/confirm" class="inline-form">${csrf}
    <div class="field"><label for="totp-code">${a.enrolCode}</label><input id="totp-code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="8"></div>
    <button type="submit">${a.totpTurnOn}</button>
  </form>
</section>`;
    reply.header('cache-control', 'no-store');
    return accountPage(request, reply, shown);
  });

  app.post('/account/totp/confirm', allow('viewer', 'account.enableTotp'), async (request, reply) => {
    const { code } = readForm(request, CodeForm, { labels: { code: (t) => t.account.enrolCode } });
    await operators.confirmTotp(selfOf(request.actor), code ?? '');
    return reply.redirect('/console/account?done=totp', 303);
  });

  app.post('/account/totp/disable', allow('viewer', 'account.disableTotp'), async (request, reply) => {
    const { password } = readForm(request, TotpOffForm, { labels: { password: (t) => t.account.password } });
    await operators.disableTotp(selfOf(request.actor), password ?? '');
    return reply.redirect('/console/account?done=totp-off', 303);
  });

  app.post('/account/tokens', allow('viewer', 'operatorToken.create'), async (request, reply) => {
    const {
      name,
      role,
      days = TOKEN_DEFAULT_DAYS,
    } = readForm(request, TokenForm, {
      messages: { days: (t) => t.errors.wholeNumber(t.fields.days, 1, TOKEN_MAX_DAYS) },
    });
    const created = await operators.createToken(
      selfOf(request.actor),
      {
        name,
        role,
        expiresAt: new Date(clock.now().getTime() + days * DAY_MS).toISOString(),
      },
      request.actor.role,
    );
    const t = kit.ctx(request).t;
    const shown = html`<section aria-labelledby="new-tok-h" class="panel secret">
  <h2 id="new-tok-h">${t.account.newTokenHeading}</h2>
  <p>${t.account.newTokenHelp}</p>
  <dl class="facts">
    <div class="wide"><dt>${t.account.token}</dt><dd><code id="new-token" class="wrap">${created.token}</code>
      <button type="button" class="small" data-copy="new-token">${t.common.copy}</button></dd></div>
    <div><dt>${t.operators.role}</dt><dd>${roleBadge(t, created.role)}</dd></div>
  </dl>
</section>`;
    reply.header('cache-control', 'no-store');
    return accountPage(request, reply, shown, 201);
  });

  app.post('/account/tokens/:tokenId/revoke', allow('viewer', 'operatorToken.revoke'), async (request, reply) => {
    const tokenId = (request.params as { tokenId: string }).tokenId;
    if (!isUuid(tokenId)) throw notFoundPage((t) => t.errors.tokenNotFound);
    await operators.revokeToken(selfOf(request.actor), tokenId);
    return reply.redirect('/console/account?done=token', 303);
  });

  app.post('/account/sessions/revoke', allow('viewer', 'account.revokeSessions'), async (request, reply) => {
    const id = selfOf(request.actor);
    await operatorSessions.closeAll(id);
    return reply.redirect('/console/login', 303);
  });
};
