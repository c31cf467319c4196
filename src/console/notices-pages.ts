// Notices: what operators should look at (modules/notices, as GET /admin/v1/notices lists them),
// newest first, by merchant and kind; above them, the webhook endpoints in trouble right now.
// A notice of a kind the console knows is written in the operator's language from its details;
// any other kind shows the message the module stored.

import type { FastifyPluginAsync } from 'fastify';
import { allow } from './console-access.js';
import type { ConsoleKit } from './console-kit.js';
import { badge, type Html, html, path, time } from './html.js';
import { page } from './layout.js';
import type { Messages } from './messages/en.js';
import { troubledEndpointsSection } from './webhooks-pages.js';
import { choice, filteredList, merchantFilterForm, oneOf, pager } from './widgets.js';

type Notice = Awaited<ReturnType<ConsoleKit['services']['notices']['list']>>['items'][number];

export const NOTICE_KINDS = ['webhook.failing', 'webhook.recovered', 'webhook.disabled'] as const;
const PAGE = 50;

const TONE: Record<string, 'bad' | 'ok' | 'warn'> = {
  'webhook.failing': 'bad',
  'webhook.disabled': 'bad',
  'webhook.recovered': 'ok',
};

/** A notice in the operator's words. */
export function noticeText(t: Messages, n: Notice): Html {
  const d = n.detail;
  const url = d.url ? html`<code class="wrap">${d.url}</code>` : t.notices.theEndpoint;
  switch (n.kind) {
    case 'webhook.failing':
      return html`${t.notices.failing(url)}${d.error ? html`: <span class="wrap" lang="en">${d.error}</span>` : ''}`;
    case 'webhook.recovered':
      return html`${t.notices.recovered(url)}`;
    case 'webhook.disabled':
      return html`${t.notices.disabled(url)}${d.reason ? html` (<span class="wrap" lang="en">${d.reason}</span>)` : ''}. ${t.notices.registerAgain}`;
    default:
      return html`<span class="wrap" lang="en">${n.message}</span>`;
  }
}

export function noticeBadge(t: Messages, kind: string): Html {
  return badge((t.codes.noticeKind as Record<string, string>)[kind] ?? kind, TONE[kind] ?? 'info', kind);
}

/** Notices as a list (the notices page, and the last few on a merchant's page). */
export function noticeList(t: Messages, items: Notice[], names?: Map<string, string>): Html {
  return html`<ol class="plain notices">${items.map(
    (n) => html`<li class="notice-item">
  <div class="notice-head">${noticeBadge(t, n.kind)} ${time(n.at)}${
    names && n.merchantId
      ? html` · <a href="${path`/console/merchants/${n.merchantId}`}">${names.get(n.merchantId) ?? n.merchantId}</a>`
      : ''
  }</div>
  <p class="notice-text">${noticeText(t, n)}</p>
</li>`,
  )}</ol>`;
}

export const noticesPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { notices, merchants } = kit.services;

  app.get('/notices', allow('viewer'), async (request, reply) => {
    const { ctx, t, q, filter } = await filteredList(kit, request);
    const kind = oneOf((m) => m.notices.kind, q.kind, NOTICE_KINDS);
    const cursor = q.cursor && /^[0-9]{1,18}$/.test(q.cursor) ? q.cursor : undefined;
    const found =
      filter.typed !== undefined
        ? { items: [], next: null }
        : await notices.list({ merchantId: filter.merchantId, kind, cursor, limit: PAGE });
    const names = await merchants.merchantNames(found.items.flatMap((n) => (n.merchantId ? [n.merchantId] : [])));
    const fields = choice(t, 'n-kind', 'kind', t.notices.kind, NOTICE_KINDS, kind, t.codes.noticeKind);
    const form = merchantFilterForm(
      ctx,
      { action: '/console/notices', label: t.notices.filterLabel, idPrefix: 'n', filter, fields },
      { kind },
    );
    const list = found.items.length
      ? noticeList(t, found.items, names)
      : html`<p class="muted">${kind || filter.merchantId ? t.notices.noneMatch : t.notices.none}</p>`;
    const body = html`${await troubledEndpointsSection(kit, ctx)}
<section aria-labelledby="history-h" class="panel">
  <h2 id="history-h">${t.notices.history}</h2>
  <p class="muted small">${t.notices.intro}</p>
  ${form}
  ${list}
  ${pager(t, request, found.next)}
</section>`;
    return kit.send(reply, page(ctx, { title: t.sections.notices, active: 'notices' }, body));
  });
};
