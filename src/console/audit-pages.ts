// The audit log in the console: filter by actor, action and days; page through; export the
// filtered entries as JSON lines (the same export as GET /admin/v1/audit/export).
import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../lib/errors.js';
import { type AuditQuery, type AuditView, ndjson } from '../modules/operators/index.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, query, shortId, time } from './html.js';
import { page } from './layout.js';

const PAGE = 50;
const DAY_MS = 86_400_000;

/** Form values (days, as <input type=date> sends them) → an audit query; `until` includes its day. */
function auditQueryOf(q: Record<string, string>): AuditQuery {
  const day = (value: string | undefined, field: string, plusDays = 0) => {
    if (!value) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw badRequest(`${field} must be a day (YYYY-MM-DD)`);
    const d = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(d.getTime())) throw badRequest(`${field} must be a day (YYYY-MM-DD)`);
    return new Date(d.getTime() + plusDays * DAY_MS).toISOString();
  };
  if (q.action && !/^[A-Za-z][A-Za-z0-9.]*$/.test(q.action)) throw badRequest('action must look like merchant.create');
  return {
    actor: q.actor || undefined,
    action: q.action || undefined,
    since: day(q.since, 'since'),
    until: day(q.until, 'until', 1),
    cursor: q.cursor || undefined,
    limit: PAGE,
  };
}

function targetOf(e: AuditView): Html {
  const entries = Object.entries(e.target);
  if (!entries.length) return html`<span class="muted">—</span>`;
  return html`${entries.map(([k, v]) => html`<span class="nowrap">${k} ${shortId(v)}</span> `)}`;
}

function resultOf(e: AuditView): Html {
  const tone = e.result.outcome === 'success' ? 'ok' : 'bad';
  return html`${badge(String(e.result.status), tone)} ${e.result.reason ? html`<span class="wrap">${e.result.reason}</span>` : ''}`;
}

export const auditPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { audit } = kit.services;

  app.get('/audit', async (request, reply) => {
    const q = queryOf(request);
    const { entries, next } = await audit.list(auditQueryOf(q));
    const filters = { actor: q.actor, action: q.action, since: q.since, until: q.until };
    const form = html`<form method="get" action="/console/audit" class="inline-form filters" role="search" aria-label="Filter the audit log">
  <div class="field"><label for="a-actor">Actor (email, operator or token id)</label><input id="a-actor" name="actor" value="${q.actor ?? ''}" maxlength="320"></div>
  <div class="field"><label for="a-action">Action</label><input id="a-action" name="action" value="${q.action ?? ''}" maxlength="100" placeholder="integrationKey.create"></div>
  <div class="field"><label for="a-since">From (day)</label><input id="a-since" name="since" type="date" value="${q.since ?? ''}"></div>
  <div class="field"><label for="a-until">To (day)</label><input id="a-until" name="until" type="date" value="${q.until ?? ''}"></div>
  <button type="submit">Filter</button>
  <a href="/console/audit/export${query(filters)}" download>Export as JSON lines</a>
</form>`;
    const list = entries.length
      ? html`<div class="table-wrap"><table id="audit">
  <caption class="visually-hidden">Audit entries, newest first</caption>
  <thead><tr><th scope="col">When</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Target</th>
    <th scope="col">Result</th><th scope="col">From</th></tr></thead>
  <tbody>${entries.map(
    (e) => html`<tr><td>${time(e.at)}</td>
    <td>${e.actor}${e.tokenId ? html` <span class="muted small">token ${shortId(e.tokenId)}</span>` : ''}${e.role ? html` ${badge(e.role, 'muted')}` : ''}</td>
    <td><code>${e.action}</code></td><td>${targetOf(e)}</td><td>${resultOf(e)}</td>
    <td><span class="small">${e.channel} · ${e.ip ?? '—'}</span></td></tr>`,
  )}</tbody></table></div>`
      : html`<p>No audit entries match.</p>`;
    const more = next
      ? html`<p><a href="/console/audit${query({ ...filters, cursor: next })}">Older entries</a></p>`
      : '';
    return kit.send(
      reply,
      page(kit.ctx(request), { title: 'Audit log', active: 'audit' }, html`${form}${list}${more}`),
    );
  });

  app.get('/audit/export', async (request, reply) => {
    const { cursor: _c, limit: _l, ...filter } = auditQueryOf(queryOf(request));
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', 'attachment; filename="cleaver-audit.ndjson"')
      .send(ndjson(audit.export(filter)));
  });
};
