// The audit log in the console: filter by actor, action and days; page through; export the
// filtered entries as JSON lines (the same export as GET /admin/v1/audit/export).

import type { FastifyPluginAsync } from 'fastify';
import { type AuditQuery, type AuditView, ndjson } from '../modules/operators/index.js';
import { allow } from './console-access.js';
import { invalidInput } from './console-errors.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, query, shortId, time } from './html.js';
import { page } from './layout.js';
import type { Messages } from './messages/en.js';

const PAGE = 50;
const DAY_MS = 86_400_000;

/** Form values (days, as <input type=date> sends them) → an audit query; `until` includes its day. */
function auditQueryOf(q: Record<string, string>): AuditQuery {
  const day = (value: string | undefined, field: 'since' | 'until', plusDays = 0) => {
    if (!value) return undefined;
    const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(Number.NaN);
    if (Number.isNaN(d.getTime())) throw invalidInput((t) => t.audit.badDay(t.audit[field]), field);
    return new Date(d.getTime() + plusDays * DAY_MS).toISOString();
  };
  if (q.action && !/^[A-Za-z][A-Za-z0-9.]*$/.test(q.action)) throw invalidInput((t) => t.audit.badAction, 'action');
  return {
    actor: q.actor || undefined,
    action: q.action || undefined,
    since: day(q.since, 'since'),
    until: day(q.until, 'until', 1),
    cursor: q.cursor || undefined,
    limit: PAGE,
  };
}

/** What an entry acted on: each id under its name in the operator's words (the field's in a tooltip). */
function targetOf(t: Messages, e: AuditView): Html {
  const entries = Object.entries(e.target);
  if (!entries.length) return html`<span class="muted">—</span>`;
  const names = t.audit.targets as Record<string, string>;
  const name = (k: string) =>
    Object.hasOwn(names, k) ? html`<span title="${k}">${names[k]}</span>` : html`<code>${k}</code>`;
  return html`${entries.map(([k, v]) => html`<span class="nowrap">${name(k)} ${shortId(v)}</span> `)}`;
}

function resultOf(e: AuditView): Html {
  const tone = e.result.outcome === 'success' ? 'ok' : 'bad';
  return html`${badge(String(e.result.status), tone)} ${e.result.reason ? html`<span class="wrap" lang="en">${e.result.reason}</span>` : ''}`;
}

export const auditPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { audit } = kit.services;

  app.get('/audit', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t: Messages = ctx.t;
    const a = t.audit;
    const q = queryOf(request);
    const { entries, next } = await audit.list(auditQueryOf(q));
    const filters = { actor: q.actor, action: q.action, since: q.since, until: q.until };
    const form = html`<form method="get" action="/console/audit" class="inline-form filters" role="search" aria-label="${a.filterLabel}">
  <div class="field"><label for="a-actor">${a.actorField}</label><input id="a-actor" name="actor" value="${q.actor ?? ''}" maxlength="320"></div>
  <div class="field"><label for="a-action">${a.action}</label><input id="a-action" name="action" value="${q.action ?? ''}" maxlength="100" placeholder="integrationKey.create"></div>
  <div class="field"><label for="a-since">${a.since}</label><input id="a-since" name="since" type="date" value="${q.since ?? ''}"></div>
  <div class="field"><label for="a-until">${a.until}</label><input id="a-until" name="until" type="date" value="${q.until ?? ''}"></div>
  <button type="submit">${t.common.filter}</button>
  <a href="/console/audit/export${query(filters)}" download>${a.export}</a>
</form>`;
    const list = entries.length
      ? html`<table id="audit" class="cards">
  <caption class="visually-hidden">${a.caption}</caption>
  <thead><tr><th scope="col">${a.when}</th><th scope="col">${a.actor}</th><th scope="col">${a.action}</th><th scope="col">${a.target}</th>
    <th scope="col">${a.result}</th><th scope="col">${a.from}</th></tr></thead>
  <tbody>${entries.map(
    (e) => html`<tr><td data-label="${a.when}">${time(e.at)}</td>
    <td data-label="${a.actor}" class="wrap">${e.actor}${e.tokenId ? html` <span class="muted small">${a.token} ${shortId(e.tokenId)}</span>` : ''}${e.role ? html` ${badge((t.roles as Record<string, string>)[e.role] ?? e.role, 'muted', e.role)}` : ''}</td>
    <td data-label="${a.action}"><code class="wrap">${e.action}</code></td><td data-label="${a.target}">${targetOf(t, e)}</td><td data-label="${a.result}">${resultOf(e)}</td>
    <td data-label="${a.from}"><span class="small">${(a.channels as Record<string, string>)[e.channel] ?? e.channel} · ${e.ip ?? '—'}</span></td></tr>`,
  )}</tbody></table>`
      : html`<p>${a.none}</p>`;
    const more = next ? html`<p><a href="/console/audit${query({ ...filters, cursor: next })}">${a.older}</a></p>` : '';
    return kit.send(reply, page(ctx, { title: a.title, active: 'audit' }, html`${form}${list}${more}`));
  });

  app.get('/audit/export', allow('viewer'), async (request, reply) => {
    const { cursor: _c, limit: _l, ...filter } = auditQueryOf(queryOf(request));
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', 'attachment; filename="cleaver-audit.ndjson"')
      .send(ndjson(audit.export(filter)));
  });
};
