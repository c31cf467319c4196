// Webhooks: the endpoints in trouble now (failing or disabled, as GET …/webhookHealth says), then
// deliveries with failing ones first, every attempt with its HTTP status and error, and a retry
// button (same webhook-id, a new attempt now).

import type { FastifyPluginAsync } from 'fastify';
import { isUuid } from '../lib/ids.js';
import type { DeliveryView } from '../modules/webhooks/index.js';
import { allow } from './console-access.js';
import { notFoundPage } from './console-errors.js';
import { type ConsoleKit, formOf } from './console-kit.js';
import { badge, type Html, html, path, query, shortId, time } from './html.js';
import { number } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import type { Messages } from './messages/en.js';
import { choice, codeBadge, filteredList, merchantFilterForm, oneOf, pager } from './widgets.js';

const STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
/** Deliveries per page: each is a card with its attempts. */
const PAGE = 25;
/** Per-status counts on the page stop here: an exact count of millions of rows per view would read them all. */
const COUNT_CAP = 10_000;
/** Endpoints in trouble listed on one page (the banner counts them all). */
const TROUBLED_SHOWN = 100;

export type EndpointHealth = Awaited<ReturnType<ConsoleKit['services']['webhooks']['endpointHealth']>>[number];

/** FAILED, then PENDING that already failed an attempt (retrying), then PENDING, then DELIVERED. */
export function deliveryRank(d: DeliveryView): number {
  if (d.status === 'FAILED') return 0;
  if (d.status === 'PENDING' && d.attemptCount > 0) return 1;
  if (d.status === 'PENDING') return 2;
  return 3;
}

export function deliveryBadge(t: Messages, d: DeliveryView): Html {
  if (d.status === 'FAILED') return codeBadge(t.codes.deliveryStatus, 'FAILED', 'bad');
  if (d.status === 'DELIVERED') return codeBadge(t.codes.deliveryStatus, 'DELIVERED', 'ok');
  return d.attemptCount > 0
    ? codeBadge(t.codes.deliveryStatus, 'RETRYING', 'warn')
    : codeBadge(t.codes.deliveryStatus, 'PENDING', 'info');
}

/**
 * The state of a merchant's webhook endpoint in one badge and, when it is in trouble, since when:
 * what GET /admin/v1/merchants/{id}/webhookHealth says, never merely "registered".
 */
export function endpointBadge(t: Messages, registered: boolean, health: EndpointHealth | undefined): Html {
  const w = t.webhooks;
  if (!registered) return badge(w.state.notRegistered, 'muted');
  switch (health?.state) {
    case 'disabled':
      return html`${badge(w.state.disabled, 'bad', 'disabled')} <span class="small">${w.since} ${time(health.disabledAt)}</span>`;
    case 'failing':
      return html`${badge(w.state.failing, 'bad', 'failing')} <span class="small">${w.since} ${time(health.failingSince)}</span>`;
    case 'healthy':
      return badge(w.state.healthy, 'ok', 'healthy');
    default:
      return badge(w.state.unknown, 'info', 'unknown');
  }
}

/** Everything known about one endpoint's health, as facts (merchant page, filtered webhooks page). */
export function endpointFacts(t: Messages, health: EndpointHealth, registered: boolean): Html {
  const w = t.webhooks;
  return html`<dl class="facts">
  <div><dt>${w.endpoint}</dt><dd>${endpointBadge(t, registered, health)}</dd></div>
  ${health.lastError ? html`<div class="wide"><dt>${w.lastError}</dt><dd class="wrap" lang="en">${health.lastError}</dd></div>` : ''}
  ${health.disabledReason ? html`<div class="wide"><dt>${w.disabledReason}</dt><dd class="wrap" lang="en">${health.disabledReason}</dd></div>` : ''}
  <div><dt>${w.lastAttempt}</dt><dd>${time(health.lastAttemptAt, t.common.never)}</dd></div>
  <div><dt>${w.lastSuccess}</dt><dd>${time(health.lastSuccessAt, t.common.never)}</dd></div>
</dl>`;
}

/** What to do about an endpoint in trouble, in one sentence. */
export function endpointAdvice(t: Messages, health: EndpointHealth): Html {
  if (health.state === 'disabled') return html`<p class="callout callout-bad">${t.webhooks.adviceDisabled}</p>`;
  if (health.state === 'failing') return html`<p class="callout callout-bad">${t.webhooks.adviceFailing}</p>`;
  return html``;
}

/** Every endpoint failing or disabled now, failing the longest first (webhooks and notices pages). */
/**
 * D36: the NATS relay of the platform feed, from its row in feed_relays (any process's console
 * shows it, whichever worker runs the relay): items stamped and not yet published, and the time
 * of its last acknowledged publication. As /metrics' cleaver_feed_relay_lag_items and
 * cleaver_feed_relay_last_publish_seconds, and /health/ready in the worker that runs it.
 */
export async function feedRelaySection(kit: ConsoleKit, ctx: PageContext): Promise<Html> {
  const r = ctx.t.webhooks.feedRelay;
  const [relays, head] = await Promise.all([kit.services.feed.relayRows(), kit.services.feed.headPosition()]);
  const lines = relays.length
    ? html`<ul class="plain">${relays.map((relay) => {
        const lag = Math.max(0, head - relay.position);
        const state = lag ? badge(r.behind(number(lag, ctx.lang)), 'warn') : badge(r.upToDate, 'ok');
        return html`<li><code>${relay.name}</code> ${state} · ${r.lastPublish} ${time(relay.published_at, ctx.t.common.never)}</li>`;
      })}</ul>`
    : html`<p class="muted">${r.none}</p>`;
  return html`<section aria-labelledby="feed-relay-h" class="panel" id="feed-relay">
  <h2 id="feed-relay-h">${r.heading}</h2>
  ${lines}
</section>`;
}

export async function troubledEndpointsSection(kit: ConsoleKit, ctx: PageContext): Promise<Html> {
  const t = ctx.t;
  const { items, total } = await kit.services.webhooks.troubledEndpoints(TROUBLED_SHOWN);
  const names = await kit.services.merchants.merchantNames(items.map((i) => i.merchantId));
  const list = items.length
    ? html`<table class="cards">
  <caption class="visually-hidden">${t.webhooks.troubledHeading}</caption>
  <thead><tr><th scope="col">${t.common.merchant}</th><th scope="col">${t.webhooks.endpoint}</th>
    <th scope="col">${t.webhooks.lastError}</th><th scope="col">${t.webhooks.lastAttempt}</th><th scope="col"><span class="visually-hidden">${t.common.links}</span></th></tr></thead>
  <tbody>${items.map(
    (h) => html`<tr>
    <th scope="row" data-label="${t.common.merchant}"><a href="${path`/console/merchants/${h.merchantId}`}">${names.get(h.merchantId) ?? h.merchantId}</a></th>
    <td data-label="${t.webhooks.endpoint}">${endpointBadge(t, true, h)}</td>
    <td data-label="${t.webhooks.lastError}" class="wrap" lang="en">${h.disabledReason ?? h.lastError ?? '—'}</td>
    <td data-label="${t.webhooks.lastAttempt}">${time(h.lastAttemptAt, t.common.never)}</td>
    <td><a href="/console/webhooks${query({ merchantId: h.merchantId, status: 'FAILED' })}">${t.webhooks.failedDeliveries}</a></td>
  </tr>`,
  )}</tbody></table>
  ${total > items.length ? html`<p class="muted">${t.webhooks.troubledMore(total - items.length)}</p>` : ''}`
    : html`<p>${badge(t.webhooks.allHealthy, 'ok')}</p>`;
  return html`<section aria-labelledby="endpoints-h" class="panel" id="endpoints">
  <h2 id="endpoints-h">${t.webhooks.troubledHeading}${total ? html` ${badge(number(total, ctx.lang), 'bad')}` : ''}</h2>
  ${list}
</section>`;
}

export function attemptsTable(t: Messages, d: DeliveryView): Html {
  const w = t.webhooks;
  if (!d.attempts.length) return html`<p class="muted small">${w.noAttempt}</p>`;
  return html`<table class="cards attempts">
  <caption class="visually-hidden">${w.attemptsOf(d.eventType)}</caption>
  <thead><tr><th scope="col">#</th><th scope="col">${w.at}</th><th scope="col">HTTP</th><th scope="col">${w.error}</th>
    <th scope="col" class="num">${w.duration}</th><th scope="col">${w.response}</th></tr></thead>
  <tbody>${d.attempts.map(
    (a) => html`<tr><td data-label="#">${a.attemptNo}</td><td data-label="${w.at}">${time(a.at)}</td>
    <td data-label="HTTP">${a.statusCode === null ? '—' : badge(String(a.statusCode), a.statusCode < 300 ? 'ok' : 'bad')}</td>
    <td data-label="${w.error}" class="wrap">${a.error ?? ''}</td><td data-label="${w.duration}" class="num">${a.durationMs} ms</td>
    <td data-label="${w.response}">${a.responseSnippet ? html`<code class="wrap">${a.responseSnippet}</code>` : ''}</td></tr>`,
  )}</tbody></table>`;
}

/** `HTTP 500 · <error>`, without saying HTTP 500 twice. */
function lastResult(d: DeliveryView): string {
  const status = d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : '';
  if (!d.lastError || d.lastError === status) return status;
  return status ? `${status} · ${d.lastError}` : d.lastError;
}

export function retryForm(t: Messages, csrfToken: string, d: DeliveryView, back: string): Html {
  return html`<form method="post" action="${path`/console/webhookDeliveries/${d.id}/retry`}" class="inline-form">
  ${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}">
  <button type="submit">${t.webhooks.retryNow}<span class="visually-hidden"> ${t.webhooks.retryWhat(d.eventType, d.orderId)}</span></button>
</form>`;
}

export const webhooksPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { webhooks } = kit.services;

  app.get('/webhooks', allow('viewer'), async (request, reply) => {
    const { ctx, t, q, filter } = await filteredList(kit, request);
    const w = t.webhooks;
    const merchantId = filter.merchantId;
    const status = oneOf((m) => m.common.status, q.status, STATUSES);
    const [{ items: found, next }, ...counts] = await Promise.all([
      filter.typed !== undefined
        ? Promise.resolve({ items: [] as DeliveryView[], next: null })
        : webhooks.listMerchantDeliveries(merchantId, { status, cursor: q.cursor || undefined, limit: PAGE }),
      ...STATUSES.map((s) => webhooks.countDeliveries(merchantId, s, COUNT_CAP)),
    ]);
    const names = await kit.services.merchants.merchantNames([
      ...found.map((d) => d.merchantId),
      ...(merchantId ? [merchantId] : []),
    ]);
    const back = `/console/webhooks${query({ merchantId, status })}`;
    const fields = choice(t, 'w-status', 'status', t.common.status, STATUSES, status, t.codes.deliveryStatus);
    const form = merchantFilterForm(
      ctx,
      { action: '/console/webhooks', label: w.filterLabel, idPrefix: 'w', filter, fields },
      { status },
    );
    // Each status's count links to its filter; counts stop at COUNT_CAP (shown as "10.000+").
    const tally = STATUSES.map((s, i) => {
      const n = counts[i] ?? 0;
      const text = w.count(`${number(n, ctx.lang)}${n >= COUNT_CAP ? '+' : ''}`, s);
      return s === status
        ? html`<strong>${text}</strong>`
        : html`<a href="/console/webhooks${query({ merchantId, status: s })}">${text}</a>`;
    });
    const summary = html`<p>${merchantId ? html`${w.deliveriesOf} <a href="${path`/console/merchants/${merchantId}`}">${names.get(merchantId) ?? merchantId}</a>, ${w.newestFirst}:` : `${w.newestFirstAll}:`}
  ${tally.map((x, i) => html`${i ? ' · ' : ''}${x}`)}${status ? html` · <a href="/console/webhooks${query({ merchantId })}">${w.all}</a>` : ''}</p>`;
    const canRetry = ctx.can('POST /console/webhookDeliveries/:deliveryId/retry');
    const list = found.length
      ? html`<ol class="plain">${found.map(
          (d) => html`<li class="panel delivery-card">
  <h3 class="h3">${deliveryBadge(t, d)} ${d.eventType} · <a href="${path`/console/orders/${d.orderId}`}">${w.order} ${shortId(d.orderId)}</a>
    · ${names.get(d.merchantId) ?? shortId(d.merchantId)}</h3>
  <dl class="facts">
    <div class="wide"><dt>${w.target}</dt><dd>${d.target ? html`<code class="wrap">${d.target}</code>` : '—'}</dd></div>
    <div><dt>${w.attempts}</dt><dd>${d.attemptCount}</dd></div>
    <div><dt>${w.created}</dt><dd>${time(d.createdAt)}</dd></div>
    <div><dt>${d.status === 'DELIVERED' ? w.delivered : w.nextAttempt}</dt>
      <dd>${d.status === 'DELIVERED' ? time(d.deliveredAt) : time(d.nextAttemptAt, w.none)}</dd></div>
    ${d.lastError || d.lastStatusCode ? html`<div class="wide"><dt>${w.lastResult}</dt><dd class="wrap">${lastResult(d)}</dd></div>` : ''}
    <div class="wide"><dt>webhook-id</dt><dd><code class="wrap">${d.webhookId}</code></dd></div>
  </dl>
  <details${deliveryRank(d) <= 1 ? html` open` : ''}><summary>${w.attempts}</summary>${attemptsTable(t, d)}</details>
  ${canRetry ? retryForm(t, ctx.csrfToken, d, back) : ''}
</li>`,
        )}</ol>`
      : html`<p>${w.noneMatch}</p>`;
    let health = html``;
    if (merchantId) {
      const [h] = await webhooks.endpointHealth([merchantId]);
      if (h) {
        health = html`<section aria-labelledby="health-h" class="panel">
  <h2 id="health-h">${w.endpointOf(names.get(merchantId) ?? merchantId)}</h2>
  ${h.url ? html`<p><code class="wrap">${h.url}</code></p>` : ''}
  ${endpointFacts(t, h, h.url !== null)}
  ${endpointAdvice(t, h)}
</section>`;
      }
    }
    const doneText = q.done ? (w.done as Record<string, string>)[q.done] : undefined;
    const body = html`${merchantId ? health : html`${await troubledEndpointsSection(kit, ctx)}${await feedRelaySection(kit, ctx)}`}
<section aria-labelledby="deliveries-h">
  <h2 id="deliveries-h">${w.deliveries}</h2>
  ${form}${summary}${list}${pager(t, request, next)}
</section>`;
    return kit.send(reply, page(ctx, { title: t.sections.webhooks, active: 'webhooks', notice: doneText ?? '' }, body));
  });

  app.post(
    '/webhookDeliveries/:deliveryId/retry',
    allow('support', 'webhookDelivery.retry'),
    async (request, reply) => {
      const id = (request.params as { deliveryId: string }).deliveryId;
      if (!isUuid(id)) throw notFoundPage((t) => t.errors.deliveryNotFound);
      const view = await webhooks.retryDelivery(id);
      const raw = formOf(request).back;
      const back =
        typeof raw === 'string' && /^\/console\/(webhooks|orders\/[0-9a-f-]{36})(\?[\w=&%.-]*)?$/.test(raw)
          ? raw
          : `/console/webhooks${query({ merchantId: view.merchantId })}`;
      const sep = back.includes('?') ? '&' : '?';
      return reply.redirect(`${back}${sep}done=retried`, 303);
    },
  );
};
