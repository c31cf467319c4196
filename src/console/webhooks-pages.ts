// Webhooks: failing deliveries first, every attempt with its HTTP status and error, and a retry
// button (same webhook-id, a new attempt now).
import type { FastifyPluginAsync } from 'fastify';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import type { DeliveryView } from '../modules/webhooks/index.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, shortId, time } from './html.js';
import { csrfField, page } from './layout.js';
import { choice, oneOf, pager } from './widgets.js';

const STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
/** Deliveries per page: each is a card with its attempts. */
const PAGE = 25;
/** Per-status counts on the page stop here: an exact count of millions of rows per view would read them all. */
const COUNT_CAP = 10_000;

/** FAILED, then PENDING that already failed an attempt (retrying), then PENDING, then DELIVERED. */
export function deliveryRank(d: DeliveryView): number {
  if (d.status === 'FAILED') return 0;
  if (d.status === 'PENDING' && d.attemptCount > 0) return 1;
  if (d.status === 'PENDING') return 2;
  return 3;
}

export function deliveryBadge(d: DeliveryView): Html {
  if (d.status === 'FAILED') return badge('FAILED', 'bad');
  if (d.status === 'DELIVERED') return badge('DELIVERED', 'ok');
  return d.attemptCount > 0 ? badge('RETRYING', 'warn') : badge('PENDING', 'info');
}

export function attemptsTable(d: DeliveryView): Html {
  if (!d.attempts.length) return html`<p class="muted small">No attempt yet.</p>`;
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Attempts of delivery ${d.id}</caption>
  <thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">HTTP</th><th scope="col">Error</th>
    <th scope="col" class="num">Time</th><th scope="col">Response</th></tr></thead>
  <tbody>${d.attempts.map(
    (a) => html`<tr><td>${a.attemptNo}</td><td>${time(a.at)}</td>
    <td>${a.statusCode === null ? '—' : badge(String(a.statusCode), a.statusCode < 300 ? 'ok' : 'bad')}</td>
    <td class="wrap">${a.error ?? ''}</td><td class="num">${a.durationMs} ms</td>
    <td>${a.responseSnippet ? html`<code class="wrap">${a.responseSnippet}</code>` : ''}</td></tr>`,
  )}</tbody></table></div>`;
}

/** `HTTP 500 · <error>`, without saying HTTP 500 twice. */
function lastResult(d: DeliveryView): string {
  const status = d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : '';
  if (!d.lastError || d.lastError === status) return status;
  return status ? `${status} · ${d.lastError}` : d.lastError;
}

export function retryForm(csrfToken: string, d: DeliveryView, back: string): Html {
  return html`<form method="post" action="${path`/console/webhookDeliveries/${d.id}/retry`}" class="inline-form">
  ${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}">
  <button type="submit">Retry now<span class="visually-hidden"> ${d.eventType} of order ${d.orderId}</span></button>
</form>`;
}

export const webhooksPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, webhooks } = kit.services;

  app.get('/webhooks', async (request, reply) => {
    const q = queryOf(request);
    const merchantId = q.merchantId || undefined;
    if (merchantId && !isUuid(merchantId)) throw badRequest('merchantId must be a uuid');
    const status = oneOf('status', q.status, STATUSES);
    const [{ items: found, next }, ...counts] = await Promise.all([
      webhooks.listMerchantDeliveries(merchantId, { status, cursor: q.cursor || undefined, limit: PAGE }),
      ...STATUSES.map((s) => webhooks.countDeliveries(merchantId, s, COUNT_CAP)),
    ]);
    const names = await merchants.merchantNames([
      ...found.map((d) => d.merchantId),
      ...(merchantId ? [merchantId] : []),
    ]);
    const back = `/console/webhooks${query({ merchantId, status })}`;
    const csrf = kit.ctx(request).csrfToken;
    const filter = html`<form method="get" action="/console/webhooks" class="inline-form filters" role="search" aria-label="Filter deliveries">
  <div class="field"><label for="w-merchant">Merchant id</label>
    <input id="w-merchant" name="merchantId" maxlength="36" value="${merchantId ?? ''}" placeholder="any merchant"></div>
  ${choice('w-status', 'status', 'Status', STATUSES, status)}
  <button type="submit">Filter</button>
</form>`;
    // Each status's count links to its filter; counts stop at COUNT_CAP (shown as "10,000+").
    const tally = STATUSES.map((s, i) => {
      const n = counts[i] ?? 0;
      const text = `${n.toLocaleString('en-US')}${n >= COUNT_CAP ? '+' : ''} ${s.toLowerCase()}`;
      return s === status
        ? html`<strong>${text}</strong>`
        : html`<a href="/console/webhooks${query({ merchantId, status: s })}">${text}</a>`;
    });
    const summary = html`<p>${merchantId ? html`Deliveries of <a href="${path`/console/merchants/${merchantId}`}">${names.get(merchantId) ?? merchantId}</a>, newest first:` : 'Newest first:'}
  ${tally.map((t, i) => html`${i ? ' · ' : ''}${t}`)}${status ? html` · <a href="/console/webhooks${query({ merchantId })}">all</a>` : ''}</p>`;
    const list = found.length
      ? html`<ol class="plain">${found.map(
          (d) => html`<li class="panel delivery-card">
  <h2 class="h3">${deliveryBadge(d)} ${d.eventType} · <a href="${path`/console/orders/${d.orderId}`}">order ${shortId(d.orderId)}</a>
    · ${names.get(d.merchantId) ?? shortId(d.merchantId)}</h2>
  <dl class="facts">
    <div><dt>Target</dt><dd>${d.target ? html`<code>${d.target}</code>` : '—'}</dd></div>
    <div><dt>Attempts</dt><dd>${d.attemptCount}</dd></div>
    <div><dt>Created</dt><dd>${time(d.createdAt)}</dd></div>
    <div><dt>${d.status === 'DELIVERED' ? 'Delivered' : 'Next attempt'}</dt>
      <dd>${d.status === 'DELIVERED' ? time(d.deliveredAt) : time(d.nextAttemptAt, 'none')}</dd></div>
    ${d.lastError || d.lastStatusCode ? html`<div><dt>Last result</dt><dd class="wrap">${lastResult(d)}</dd></div>` : ''}
    <div><dt>webhook-id</dt><dd><code class="wrap">${d.webhookId}</code></dd></div>
  </dl>
  <details${deliveryRank(d) <= 1 ? html` open` : ''}><summary>Attempts</summary>${attemptsTable(d)}</details>
  ${kit.ctx(request).can('POST /console/webhookDeliveries/:deliveryId/retry') ? retryForm(csrf, d, back) : ''}
</li>`,
        )}</ol>`
      : html`<p>No webhook deliveries match.</p>`;
    return kit.send(
      reply,
      page(
        kit.ctx(request),
        { title: 'Webhooks', active: 'webhooks', notice: q.done ? `Done: ${q.done}.` : '' },
        html`${filter}${summary}${list}${pager(request, next)}`,
      ),
    );
  });

  app.post('/webhookDeliveries/:deliveryId/retry', async (request, reply) => {
    const id = (request.params as { deliveryId: string }).deliveryId;
    if (!isUuid(id)) throw notFound('Webhook delivery not found');
    const view = await webhooks.retryDelivery(id);
    const raw = ((request.body ?? {}) as Record<string, unknown>).back;
    const back =
      typeof raw === 'string' && /^\/console\/(webhooks|orders\/[0-9a-f-]{36})(\?[\w=&%.-]*)?$/.test(raw)
        ? raw
        : `/console/webhooks${query({ merchantId: view.merchantId })}`;
    const sep = back.includes('?') ? '&' : '?';
    return reply.redirect(`${back}${sep}done=${encodeURIComponent(`${view.eventType} queued again`)}`, 303);
  });
};
