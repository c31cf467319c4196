// Operators: who can use the console and the operator API, with which role; an admin creates
// them, changes their role, disables them (their sessions and tokens end at once), resets a
// password or a lost one-time-code device, and revokes their tokens.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { isRole, ROLES, type Role, toTokenView } from '../modules/operators/index.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { badge, type Html, html, path, shortId, time } from './html.js';
import { csrfField, page } from './layout.js';

const operatorIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { id: string }).id;
  if (!isUuid(id)) throw notFound('Operator not found');
  return id;
};

const roleOf = (value: string | undefined): Role => {
  if (!isRole(value)) throw badRequest(`role must be one of ${ROLES.join(', ')}`);
  return value;
};

const roleOptions = (selected?: Role) =>
  ROLES.map((r) => html`<option${r === selected ? html` selected` : ''}>${r}</option>`);

const NOTICES: Record<string, string> = {
  created: 'Operator created.',
  updated: 'Operator updated.',
  password: 'Password set; the operator’s console sessions were ended.',
  totp: 'One-time-code device removed.',
  revoked: 'Every session and token of the operator was revoked.',
  token: 'Token revoked.',
};

const LIST_LIMIT = 1000;

export const operatorsPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { operators, clock } = kit.services;

  app.get('/operators', async (request, reply) => {
    const ctx = kit.ctx(request);
    const rows = await operators.listOperators({ limit: LIST_LIMIT });
    const q = queryOf(request);
    const list = rows.length
      ? html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Operators</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">State</th>
    <th scope="col">One-time codes</th><th scope="col">Created</th></tr></thead>
  <tbody>${rows.map(
    (o) => html`<tr><th scope="row"><a href="${path`/console/operators/${o.id}`}">${o.name}</a></th><td>${o.email}</td>
    <td>${badge(o.role, o.role === 'admin' ? 'warn' : 'info')}</td>
    <td>${o.disabled_at ? badge('disabled', 'bad') : badge('active', 'ok')}</td>
    <td>${o.totp_secret_enc ? 'enabled' : '—'}</td><td>${time(o.created_at)}</td></tr>`,
  )}</tbody></table></div>`
      : html`<p>No operator accounts yet: only the bootstrap token can log in.</p>`;
    const create = ctx.can('POST /console/operators')
      ? html`<section aria-labelledby="create-h" class="panel">
  <h2 id="create-h">Create an operator</h2>
  <form method="post" action="/console/operators" class="inline-form">
    ${csrfField(ctx.csrfToken)}
    <div class="field"><label for="o-email">Email</label><input id="o-email" name="email" type="email" required maxlength="320" autocomplete="off"></div>
    <div class="field"><label for="o-name">Full name</label><input id="o-name" name="name" required maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="o-role">Role</label><select id="o-role" name="role">${roleOptions('viewer')}</select></div>
    <div class="field"><label for="o-password">Initial password (12+ characters)</label>
      <input id="o-password" name="password" type="password" minlength="12" maxlength="256" autocomplete="new-password"></div>
    <button type="submit">Create operator</button>
  </form>
</section>`
      : '';
    return kit.send(
      reply,
      page(
        ctx,
        { title: 'Operators', active: 'operators', notice: NOTICES[q.done ?? ''] ?? '' },
        html`${list}${create}`,
      ),
    );
  });

  app.post('/operators', async (request, reply) => {
    const form = formOf(request);
    const row = await operators.createOperator({
      email: form.email ?? '',
      name: form.name ?? '',
      role: roleOf(form.role),
      password: form.password ? form.password : undefined,
    });
    return reply.redirect(`${path`/console/operators/${row.id}`}?done=created`, 303);
  });

  app.get('/operators/:id', async (request, reply) => {
    const ctx = kit.ctx(request);
    const o = await operators.requireOperator(operatorIdOf(request));
    const [tokens, sessions] = await Promise.all([operators.listTokens(o.id), operators.activeSessions(o.id)]);
    const now = clock.now();
    const csrf = csrfField(ctx.csrfToken);
    const base = path`/console/operators/${o.id}`;
    const admin = ctx.can('POST /console/operators/:id');
    const tokenRows = tokens.map((t) => toTokenView(t, now));
    const body = html`<section aria-labelledby="summary-h" class="panel">
  <h2 id="summary-h">Summary</h2>
  <dl class="facts">
    <div><dt>Email</dt><dd>${o.email}</dd></div>
    <div><dt>Role</dt><dd>${badge(o.role, o.role === 'admin' ? 'warn' : 'info')}</dd></div>
    <div><dt>State</dt><dd>${o.disabled_at ? html`${badge('disabled', 'bad')} since ${time(o.disabled_at)}` : badge('active', 'ok')}</dd></div>
    <div><dt>Password</dt><dd>${o.password_hash ? 'set' : 'not set (tokens only)'}</dd></div>
    <div><dt>One-time codes</dt><dd>${o.totp_secret_enc ? 'enabled' : 'not enabled'}</dd></div>
    <div><dt>Open console sessions</dt><dd>${sessions}</dd></div>
    <div><dt>Created</dt><dd>${time(o.created_at)}</dd></div>
  </dl>
  ${
    admin
      ? html`<form method="post" action="${base}" class="inline-form">${csrf}
    <div class="field"><label for="o-role">Role</label><select id="o-role" name="role">${roleOptions(o.role)}</select></div>
    <div class="field"><label for="o-state">State</label><select id="o-state" name="disabled">
      <option value="false"${o.disabled_at ? '' : html` selected`}>active</option>
      <option value="true"${o.disabled_at ? html` selected` : ''}>disabled</option></select></div>
    <button type="submit">Save operator</button>
  </form>`
      : ''
  }
</section>
${
  admin
    ? html`<section aria-labelledby="access-h" class="panel">
  <h2 id="access-h">Access</h2>
  <form method="post" action="${base}/password" class="inline-form">${csrf}
    <div class="field"><label for="o-password">New password (12+ characters)</label>
      <input id="o-password" name="password" type="password" required minlength="12" maxlength="256" autocomplete="new-password"></div>
    <button type="submit">Set password</button>
  </form>
  ${o.totp_secret_enc ? html`<form method="post" action="${base}/totp/reset" class="inline-form" data-confirm="Remove this operator's one-time-code device?">${csrf}<button type="submit">Reset one-time codes</button></form>` : ''}
  <form method="post" action="${base}/revokeAccess" class="inline-form" data-confirm="End every session and revoke every token of ${o.email}?">${csrf}
    <button type="submit" class="danger">Revoke all sessions and tokens</button></form>
</section>`
    : ''
}
<section aria-labelledby="tokens-h" class="panel">
  <h2 id="tokens-h">Personal API tokens</h2>
  ${tokenTable(tokenRows, (t) =>
    admin && t.active
      ? html`<form method="post" action="${base}/tokens/${t.id}/revoke">${csrf}<button type="submit" class="danger small">Revoke<span class="visually-hidden"> token ${t.name}</span></button></form>`
      : '',
  )}
</section>`;
    const notice = NOTICES[queryOf(request).done ?? ''] ?? '';
    return kit.send(reply, page(ctx, { title: o.name, active: 'operators', notice }, body));
  });

  app.post('/operators/:id', async (request, reply) => {
    const id = operatorIdOf(request);
    const form = formOf(request);
    if (form.disabled !== undefined && form.disabled !== 'true' && form.disabled !== 'false') {
      throw badRequest('disabled must be true or false');
    }
    await operators.updateOperator(id, {
      role: form.role === undefined ? undefined : roleOf(form.role),
      disabled: form.disabled === undefined ? undefined : form.disabled === 'true',
    });
    return reply.redirect(`${path`/console/operators/${id}`}?done=updated`, 303);
  });

  app.post('/operators/:id/password', async (request, reply) => {
    const id = operatorIdOf(request);
    await operators.setPassword(id, formOf(request).password ?? '');
    return reply.redirect(`${path`/console/operators/${id}`}?done=password`, 303);
  });

  app.post('/operators/:id/totp/reset', async (request, reply) => {
    const id = operatorIdOf(request);
    await operators.resetTotp(id);
    return reply.redirect(`${path`/console/operators/${id}`}?done=totp`, 303);
  });

  app.post('/operators/:id/revokeAccess', async (request, reply) => {
    const id = operatorIdOf(request);
    await operators.revokeAccess(id);
    return reply.redirect(`${path`/console/operators/${id}`}?done=revoked`, 303);
  });

  app.post('/operators/:id/tokens/:tokenId/revoke', async (request, reply) => {
    const id = operatorIdOf(request);
    const tokenId = (request.params as { tokenId: string }).tokenId;
    if (!isUuid(tokenId)) throw notFound('Token not found');
    await operators.revokeToken(id, tokenId);
    return reply.redirect(`${path`/console/operators/${id}`}?done=token`, 303);
  });
};

type TokenView = ReturnType<typeof toTokenView>;

/** Personal tokens (never the token itself): name, role, expiry, last use, state. */
export function tokenTable(tokens: TokenView[], action: (t: TokenView) => Html | string): Html {
  if (!tokens.length) return html`<p>No personal tokens.</p>`;
  return html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Role</th><th scope="col">Expires</th>
    <th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${tokens.map(
    (t) => html`<tr><td>${t.name}</td><td>${shortId(t.id)}</td><td>${t.role}</td><td>${time(t.expiresAt)}</td>
    <td>${time(t.lastUsedAt, 'never')}</td>
    <td>${t.active ? badge('active', 'ok') : t.revokedAt ? badge('revoked', 'muted') : badge('expired', 'muted')}</td>
    <td>${action(t)}</td></tr>`,
  )}</tbody></table></div>`;
}
