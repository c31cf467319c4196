// Operators: who can use the console and the operator API, with which role; an admin creates
// them, changes their role, disables them (their sessions and tokens end at once), resets a
// password or a lost one-time-code device, and revokes their tokens.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isUuid } from '../lib/ids.js';
import {
  CreateOperatorBody,
  PASSWORD_MIN,
  ROLES,
  type Role,
  SetPasswordBody,
  toTokenView,
  UpdateOperatorBody,
} from '../modules/operators/index.js';
import { allow } from './console-access.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, time } from './html.js';
import { csrfField, page } from './layout.js';
import type { Messages } from './messages/en.js';

const operatorIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { id: string }).id;
  if (!isUuid(id)) throw notFoundPage((t) => t.errors.operatorNotFound);
  return id;
};

const roleOptions = (t: Messages, selected?: Role) =>
  ROLES.map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${t.roles[r]}</option>`);

export const roleBadge = (t: Messages, role: Role) => badge(t.roles[role], role === 'admin' ? 'warn' : 'info', role);

const DONE_KEYS = ['created', 'updated', 'password', 'totp', 'revoked', 'token'] as const;
const doneOf = (t: Messages, key: string | undefined) => {
  const k = DONE_KEYS.find((d) => d === key);
  return k ? t.operators.done[k] : '';
};

/** The operators module's own floor, checked here too so the refusal reads in the operator's language. */
const MIN_PASSWORD = PASSWORD_MIN;
const tooShort = (password: string) => [...password].length < MIN_PASSWORD;
/** Any refusal of a password field reads as the floor the operator most likely missed. */
const passwordRules = { messages: { password: (t: Messages) => t.errors.passwordTooShort(MIN_PASSWORD) } };
const createRules = { messages: { ...passwordRules.messages, email: (t: Messages) => t.errors.known.badEmail } };

const LIST_LIMIT = 1000;

export const operatorsPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { operators, clock } = kit.services;

  app.get('/operators', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const op = t.operators;
    const rows = await operators.listOperators({ limit: LIST_LIMIT });
    const q = queryOf(request);
    const list = rows.length
      ? html`<table class="cards">
  <caption class="visually-hidden">${t.sections.operators}</caption>
  <thead><tr><th scope="col">${t.common.name}</th><th scope="col">${op.email}</th><th scope="col">${op.role}</th><th scope="col">${op.state}</th>
    <th scope="col">${op.totp}</th><th scope="col">${op.created}</th></tr></thead>
  <tbody>${rows.map(
    (
      o,
    ) => html`<tr><th scope="row" data-label="${t.common.name}"><a href="${path`/console/operators/${o.id}`}">${o.name}</a></th><td data-label="${op.email}" class="wrap">${o.email}</td>
    <td data-label="${op.role}">${roleBadge(t, o.role)}</td>
    <td data-label="${op.state}">${o.disabled_at ? badge(op.disabled, 'bad') : badge(op.active, 'ok')}</td>
    <td data-label="${op.totp}">${o.totp_secret_enc ? op.enabled : '—'}</td><td data-label="${op.created}">${time(o.created_at)}</td></tr>`,
  )}</tbody></table>`
      : html`<p>${op.none}</p>`;
    const create = ctx.can('POST /console/operators')
      ? html`<section aria-labelledby="create-h" class="panel">
  <h2 id="create-h">${op.createHeading}</h2>
  <form method="post" action="/console/operators" class="inline-form">
    ${csrfField(ctx.csrfToken)}
    <div class="field"><label for="o-email">${op.email}</label><input id="o-email" name="email" type="email" required maxlength="320" autocomplete="off"></div>
    <div class="field"><label for="o-name">${op.fullName}</label><input id="o-name" name="name" required maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="o-role">${op.role}</label><select id="o-role" name="role">${roleOptions(t, 'viewer')}</select></div>
    <div class="field"><label for="o-password">${op.initialPassword(MIN_PASSWORD)}</label>
      <input id="o-password" name="password" type="password" minlength="${MIN_PASSWORD}" maxlength="256" autocomplete="new-password"></div>
    <button type="submit">${op.create}</button>
  </form>
</section>`
      : '';
    return kit.send(
      reply,
      page(
        ctx,
        { title: t.sections.operators, active: 'operators', notice: doneOf(t, q.done) },
        html`${list}${create}`,
      ),
    );
  });

  app.post('/operators', allow('admin', 'operator.create'), async (request, reply) => {
    const form = readForm(request, CreateOperatorBody, createRules);
    if (form.password && tooShort(form.password)) {
      throw invalidInput((t) => t.errors.passwordTooShort(MIN_PASSWORD), 'password');
    }
    const row = await operators.createOperator(form);
    return reply.redirect(`${path`/console/operators/${row.id}`}?done=created`, 303);
  });

  app.get('/operators/:id', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const op = t.operators;
    const o = await operators.requireOperator(operatorIdOf(request));
    const [tokens, sessions] = await Promise.all([operators.listTokens(o.id), operators.activeSessions(o.id)]);
    const now = clock.now();
    const csrf = csrfField(ctx.csrfToken);
    const base = path`/console/operators/${o.id}`;
    const admin = ctx.can('POST /console/operators/:id');
    const tokenRows = tokens.map((t) => toTokenView(t, now));
    const body = html`<section aria-labelledby="summary-h" class="panel">
  <h2 id="summary-h">${op.summary}</h2>
  <dl class="facts">
    <div><dt>${op.email}</dt><dd>${o.email}</dd></div>
    <div><dt>${op.role}</dt><dd>${roleBadge(t, o.role)}</dd></div>
    <div><dt>${op.state}</dt><dd>${o.disabled_at ? html`${badge(op.disabled, 'bad')} ${op.since} ${time(o.disabled_at)}` : badge(op.active, 'ok')}</dd></div>
    <div><dt>${op.password}</dt><dd>${o.password_hash ? op.passwordSet : op.passwordNotSet}</dd></div>
    <div><dt>${op.totp}</dt><dd>${o.totp_secret_enc ? op.enabled : op.notEnabled}</dd></div>
    <div><dt>${op.sessions}</dt><dd>${sessions}</dd></div>
    <div><dt>${op.created}</dt><dd>${time(o.created_at)}</dd></div>
  </dl>
  ${
    admin
      ? html`<form method="post" action="${base}" class="inline-form">${csrf}
    <div class="field"><label for="o-role">${op.role}</label><select id="o-role" name="role">${roleOptions(t, o.role)}</select></div>
    <div class="field"><label for="o-state">${op.state}</label><select id="o-state" name="disabled">
      <option value="false"${o.disabled_at ? '' : html` selected`}>${op.active}</option>
      <option value="true"${o.disabled_at ? html` selected` : ''}>${op.disabled}</option></select></div>
    <button type="submit">${op.save}</button>
  </form>`
      : ''
  }
</section>
${
  admin
    ? html`<section aria-labelledby="access-h" class="panel">
  <h2 id="access-h">${op.access}</h2>
  <form method="post" action="${base}/password" class="inline-form">${csrf}
    <div class="field"><label for="o-password">${op.newPassword(MIN_PASSWORD)}</label>
      <input id="o-password" name="password" type="password" required minlength="${MIN_PASSWORD}" maxlength="256" autocomplete="new-password"></div>
    <button type="submit">${op.setPassword}</button>
  </form>
  ${o.totp_secret_enc ? html`<form method="post" action="${base}/totp/reset" class="inline-form" data-confirm="${t.confirm.resetTotp}">${csrf}<button type="submit">${op.resetTotp}</button></form>` : ''}
  <form method="post" action="${base}/revokeAccess" class="inline-form" data-confirm="${op.revokeConfirm(o.email)}">${csrf}
    <button type="submit" class="danger">${op.revokeAll}</button></form>
</section>`
    : ''
}
<section aria-labelledby="tokens-h" class="panel">
  <h2 id="tokens-h">${op.tokens}</h2>
  ${tokenTable(t, tokenRows, (tok) =>
    admin && tok.active
      ? html`<form method="post" action="${base}/tokens/${tok.id}/revoke">${csrf}<button type="submit" class="danger small">${op.revoke}<span class="visually-hidden"> ${op.tokenNamed(tok.name)}</span></button></form>`
      : '',
  )}
</section>`;
    return kit.send(
      reply,
      page(ctx, { title: o.name, active: 'operators', notice: doneOf(t, queryOf(request).done) }, body),
    );
  });

  app.post('/operators/:id', allow('admin', 'operator.update'), async (request, reply) => {
    const id = operatorIdOf(request);
    await operators.updateOperator(id, readForm(request, UpdateOperatorBody));
    return reply.redirect(`${path`/console/operators/${id}`}?done=updated`, 303);
  });

  app.post('/operators/:id/password', allow('admin', 'operator.setPassword'), async (request, reply) => {
    const id = operatorIdOf(request);
    const { password } = readForm(request, SetPasswordBody, passwordRules);
    if (tooShort(password)) throw invalidInput((t) => t.errors.passwordTooShort(MIN_PASSWORD), 'password');
    await operators.setPassword(id, password);
    return reply.redirect(`${path`/console/operators/${id}`}?done=password`, 303);
  });

  app.post('/operators/:id/totp/reset', allow('admin', 'operator.resetTotp'), async (request, reply) => {
    const id = operatorIdOf(request);
    await operators.resetTotp(id);
    return reply.redirect(`${path`/console/operators/${id}`}?done=totp`, 303);
  });

  app.post('/operators/:id/revokeAccess', allow('admin', 'operator.revokeAccess'), async (request, reply) => {
    const id = operatorIdOf(request);
    await operators.revokeAccess(id);
    return reply.redirect(`${path`/console/operators/${id}`}?done=revoked`, 303);
  });

  app.post('/operators/:id/tokens/:tokenId/revoke', allow('admin', 'operatorToken.revoke'), async (request, reply) => {
    const id = operatorIdOf(request);
    const tokenId = (request.params as { tokenId: string }).tokenId;
    if (!isUuid(tokenId)) throw notFoundPage((t) => t.errors.tokenNotFound);
    await operators.revokeToken(id, tokenId);
    return reply.redirect(`${path`/console/operators/${id}`}?done=token`, 303);
  });
};

type TokenView = ReturnType<typeof toTokenView>;

/** Personal tokens (never the token itself): name, role, expiry, last use, state. */
export function tokenTable(t: Messages, tokens: TokenView[], action: (tok: TokenView) => Html | string): Html {
  const op = t.operators;
  if (!tokens.length) return html`<p>${op.noTokens}</p>`;
  return html`<table class="cards tokens">
  <thead><tr><th scope="col">${t.common.name}</th><th scope="col">${op.tokenId}</th><th scope="col">${op.role}</th><th scope="col">${op.expires}</th>
    <th scope="col">${op.lastUsed}</th><th scope="col">${op.state}</th><th scope="col"><span class="visually-hidden">${t.common.actions}</span></th></tr></thead>
  <tbody>${tokens.map(
    (
      tok,
    ) => html`<tr><th scope="row" data-label="${t.common.name}">${tok.name}</th><td data-label="${op.tokenId}"><code class="wrap">${tok.id}</code></td>
    <td data-label="${op.role}">${roleBadge(t, tok.role)}</td><td data-label="${op.expires}">${time(tok.expiresAt)}</td>
    <td data-label="${op.lastUsed}">${time(tok.lastUsedAt, t.common.never)}</td>
    <td data-label="${op.state}">${tok.active ? badge(op.active, 'ok') : tok.revokedAt ? badge(op.revoked, 'muted') : badge(op.expired, 'muted')}</td>
    <td class="row-actions">${action(tok)}</td></tr>`,
  )}</tbody></table>`;
}
