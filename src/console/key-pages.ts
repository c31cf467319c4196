// An integration key's page: what the key is, and its recent requests as its POS reads
// them with GET /v1/developer/requests (the last 1,000 of the last 24 hours, newest first; failed
// ones with their error title and, folded, their body with secrets redacted).

import type { FastifyPluginAsync } from 'fastify';
import { isUuid } from '../lib/ids.js';
import { allow } from './console-access.js';
import { notFoundPage } from './console-errors.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, time } from './html.js';
import { number } from './i18n.js';
import { type PageContext, page } from './layout.js';
import { merchantIdOf, pager } from './widgets.js';

/** Requests per page. */
const PAGE = 50;

type Entry = Awaited<ReturnType<ConsoleKit['services']['requestLog']['list']>>['items'][number];

function statusBadge(status: number): Html {
  return badge(String(status), status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok');
}

function requestsTable(ctx: PageContext, items: Entry[]): Html {
  const k = ctx.t.keys;
  return html`<table class="cards requests">
  <caption class="visually-hidden">${k.requestsHeading}</caption>
  <thead><tr><th scope="col">${k.time}</th><th scope="col">${k.request}</th><th scope="col">${ctx.t.common.status}</th>
    <th scope="col" class="num">${k.duration}</th><th scope="col">${k.error}</th><th scope="col">${k.requestId}</th></tr></thead>
  <tbody>${items.map(
    (r) => html`<tr>
    <td data-label="${k.time}">${time(r.at)}</td>
    <th scope="row" data-label="${k.request}"><code class="wrap">${r.method} ${r.path}</code></th>
    <td data-label="${ctx.t.common.status}">${statusBadge(r.status)}</td>
    <td data-label="${k.duration}" class="num">${number(r.durationMs, ctx.lang)}</td>
    <td data-label="${k.error}">${
      r.errorTitle
        ? html`<span lang="en">${r.errorTitle}</span>${
            r.requestBody
              ? html`<details><summary>${k.body}${r.requestBodyTruncated ? html` (${k.bodyCut})` : ''}</summary><pre class="wrap">${r.requestBody}</pre></details>`
              : ''
          }`
        : html`<span class="muted">—</span>`
    }</td>
    <td data-label="${k.requestId}"><code class="wrap">${r.requestId}</code></td>
  </tr>`,
  )}</tbody>
</table>`;
}

export const keyPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, auth, requestLog } = kit.services;

  app.get('/merchants/:merchantId/keys/:keyId', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const k = t.keys;
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const keyId = (request.params as { keyId: string }).keyId;
    const key = isUuid(keyId) ? (await auth.listIntegrationKeys(m.id)).find((x) => x.id === keyId) : undefined;
    if (!key) throw notFoundPage((x) => x.errors.keyNotFound);
    const q = queryOf(request);
    const failed = q.failed === '1';
    const cursor = q.cursor && /^[0-9]{1,18}$/.test(q.cursor) ? q.cursor : undefined;
    const log = await requestLog.list(key.id, { limit: PAGE, before: cursor, failed: failed || undefined });
    const self = path`/console/merchants/${m.id}/keys/${key.id}`;
    const body = html`<p class="links"><a href="${path`/console/merchants/${m.id}`}">${k.backTo(m.name)}</a></p>
<section aria-labelledby="key-h" class="panel">
  <h2 id="key-h">${k.keyHeading}</h2>
  <dl class="facts">
    <div><dt>${t.common.name}</dt><dd>${key.name}</dd></div>
    <div class="wide"><dt>${t.merchants.keyId}</dt><dd><code class="wrap">${key.id}</code></dd></div>
    <div><dt>${t.merchants.profile}</dt><dd><code>${key.profile}</code></dd></div>
    <div><dt>${t.merchants.created}</dt><dd>${time(key.created_at)}</dd></div>
    <div><dt>${t.merchants.lastToken}</dt><dd>${time(key.last_used_at, t.common.never)}</dd></div>
  </dl>
</section>
<section aria-labelledby="requests-h" class="panel">
  <h2 id="requests-h">${k.requestsHeading}</h2>
  <p class="muted small">${k.requestsHelp}</p>
  <p class="links">${
    failed
      ? html`<a href="${self}">${k.allRequests}</a> · <strong>${k.failedOnly}</strong>`
      : html`<strong>${k.allRequests}</strong> · <a href="${self}${query({ failed: '1' })}">${k.failedOnly}</a>`
  }</p>
  ${log.items.length ? requestsTable(ctx, log.items) : html`<p class="muted">${failed ? k.noFailedRequests : k.noRequests}</p>`}
  ${pager(t, request, log.next)}
</section>`;
    return kit.send(reply, page(ctx, { title: k.title(key.name), active: 'merchants' }, body));
  });
};
