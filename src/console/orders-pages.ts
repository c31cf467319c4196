// Orders: a filterable list, and an order page with items, totals and a live timeline of events
// (with each integration key's acknowledgment), POS tracking, logistics updates and webhook
// attempts. The platform's side of an order (customer cancellation, conclude, …) is a form each,
// offered only when the order's state allows it (platformActions, modules/orders); an action
// refused anyway (the order moved meanwhile) brings the order page back with a plain message.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { page as cursorPage, encodeTimeCursor } from '../lib/cursor.js';
import { AppError } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { CancellationDecisionBody, CustomerCancellationBody, PlatformEventBody } from '../modules/admin-api/index.js';
import { ORDER_STATUSES, type PlatformAction, platformActions } from '../modules/orders/index.js';
import { adjustmentRow, optionLines, quantityCell, weighingTimelineEntries } from './butchery-pages.js';
import { allow } from './console-access.js';
import { ConsoleError, notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, shortId, time } from './html.js';
import { money } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import type { Messages } from './messages/en.js';
import { traceLink } from './trace-link.js';
import { attemptsTable, deliveryBadge, deliveryRank } from './webhooks-pages.js';
import { weighingApprovalPanel } from './weighing-approval-pages.js';
import { choice, codeBadge, filteredList, merchantFilterForm, oneOf, pager, searchText } from './widgets.js';

type OrderRow = Awaited<ReturnType<ConsoleKit['services']['orders']['getAnyOrder']>>;
type TimelineEntry = { at: string; kind: string; body: Html };

const LIST_LIMIT = 100;

export const orderIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { orderId: string }).orderId;
  if (!isUuid(id)) throw notFoundPage((t) => t.errors.orderNotFound);
  return id;
};

export function orderStatusBadge(t: Messages, status: string): Html {
  const tone = status === 'CANCELLED' ? 'bad' : status === 'CONCLUDED' || status === 'DELIVERED' ? 'ok' : 'info';
  return codeBadge(t.codes.orderStatus, status, tone);
}

const isMoney = (v: unknown): v is { value: number | string; currency: string } =>
  typeof v === 'object' && v !== null && 'value' in v && (v as { currency?: unknown }).currency === 'BRL';

/**
 * Metadata of an event as `name: value` pairs: the fields the console knows in the operator's
 * words (the field's name in a tooltip), others by their name as the event spells it; amounts in
 * reais as money, other nested values as JSON.
 */
function metadataList(ctx: PageContext, metadata: Record<string, unknown> | undefined): Html {
  if (!metadata || Object.keys(metadata).length === 0) return html``;
  const names = ctx.t.orders.metadata as Record<string, string>;
  const show = (v: unknown) => (typeof v === 'string' ? v : isMoney(v) ? money(v.value, ctx.lang) : JSON.stringify(v));
  const name = (k: string) =>
    Object.hasOwn(names, k) ? html`<dt title="${k}">${names[k]}</dt>` : html`<dt><code>${k}</code></dt>`;
  return html`<dl class="meta">${Object.entries(metadata).map(([k, v]) => html`<div>${name(k)}<dd>${show(v)}</dd></div>`)}</dl>`;
}

const jsonBlock = (value: unknown) => html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;

/** What the `done` parameter of an order page may say (after an action): one message each. */
const DONE_KEYS = [
  'placed',
  'customerCancellation',
  'acceptCancellation',
  'denyCancellation',
  'conclude',
  'pickupArea',
  'cancel',
  'retried',
] as const;
type Done = (typeof DONE_KEYS)[number];

/** The order actions' forms: the operator API's bodies of the same actions, without the cancellation code. */
const CancellationForm = Type.Pick(CustomerCancellationBody, ['reason']);
const DecisionForm = Type.Pick(CancellationDecisionBody, ['decision']);
const EventForm = Type.Pick(PlatformEventBody, ['eventType', 'pickupArea', 'reason']);

export const ordersPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, orders, events, auth } = kit.services;

  app.get('/orders', allow('viewer'), async (request, reply) => {
    const { ctx, t, q, filter } = await filteredList(kit, request);
    const o = t.orders;
    const merchantId = filter.merchantId;
    const status = oneOf((m) => m.common.status, q.status, ORDER_STATUSES);
    const search = searchText(q.q);
    const found =
      filter.typed !== undefined
        ? []
        : await orders.listOrders({
            merchantId,
            status,
            q: search,
            cursor: q.cursor || undefined,
            limit: LIST_LIMIT + 1,
          });
    const { items: rows, next } = cursorPage(found, LIST_LIMIT, (r) => encodeTimeCursor(r.created_at, r.id));
    const names = await merchants.merchantNames(rows.map((r) => r.merchant_id));
    const fields = html`${choice(t, 'f-status', 'status', t.common.status, ORDER_STATUSES, status, t.codes.orderStatus)}
  <div class="field"><label for="f-q">${o.searchLabel}</label>
    <input id="f-q" name="q" type="search" maxlength="200" value="${search ?? ''}"></div>`;
    const form = html`${merchantFilterForm(
      ctx,
      { action: '/console/orders', label: o.filterLabel, idPrefix: 'f', filter, fields },
      { status, q: search },
    )}
${merchantId ? html`<p>${o.ordersOf} <a href="${path`/console/merchants/${merchantId}`}">${filter.name ?? merchantId}</a> · <a href="/console/orders${query({ status, q: search })}">${o.allMerchants}</a></p>` : ''}`;
    const table = rows.length
      ? html`<table class="cards orders">
  <caption class="visually-hidden">${o.listCaption}</caption>
  <thead><tr><th scope="col">${o.order}</th><th scope="col">${t.common.merchant}</th><th scope="col">${t.common.status}</th>
    <th scope="col">${o.lastEvent}</th><th scope="col">${o.type}</th><th scope="col" class="num">${o.amount}</th>
    <th scope="col">${o.customer}</th><th scope="col">${o.created}</th></tr></thead>
  <tbody>${rows.map(
    (r) => html`<tr>
    <th scope="row" data-label="${o.order}"><a href="${path`/console/orders/${r.id}`}">#${r.display_id}</a></th>
    <td data-label="${t.common.merchant}"><a href="/console/orders${query({ merchantId: r.merchant_id, status })}">${names.get(r.merchant_id) ?? shortId(r.merchant_id)}</a></td>
    <td data-label="${t.common.status}">${orderStatusBadge(t, r.status)}</td><td data-label="${o.lastEvent}"><code>${r.last_event}</code></td>
    <td data-label="${o.type}">${t.codes.orderType[r.type]}</td>
    <td data-label="${o.amount}" class="num">${money(r.order_amount, ctx.lang)}</td><td data-label="${o.customer}">${r.document.customer.name}</td>
    <td data-label="${o.created}">${time(r.created_at)}</td>
  </tr>`,
  )}</tbody></table>`
      : html`<p>${o.noneMatch}</p>`;
    return kit.send(
      reply,
      page(ctx, { title: t.sections.orders, active: 'orders' }, html`${form}${table}${pager(t, request, next)}`),
    );
  });

  /** Everything that happened to an order, oldest first. */
  async function timeline(ctx: PageContext, order: OrderRow): Promise<Html> {
    const t = ctx.t;
    const o = t.orders;
    const [entries, tracking, keys] = await Promise.all([
      events.timeline(order.id),
      orders.listTracking(order.id),
      auth.listIntegrationKeys(order.merchant_id),
    ]);
    const keyName = (id: string | null) =>
      id ? (keys.find((k) => k.id === id)?.name ?? html`${shortId(id)} (${o.deletedKey})`) : o.platform;
    const items: TimelineEntry[] = [];
    for (const e of entries) {
      const acks = e.acknowledgments.length
        ? html`<ul class="acks" aria-label="${o.acknowledgments}">${e.acknowledgments.map(
            (a) =>
              html`<li>${keyName(a.keyId)}: ${a.acknowledged ? html`${badge(o.acknowledged, 'ok')} ${time(a.acknowledgedAt)}` : badge(o.notAcknowledged, 'warn')}</li>`,
          )}</ul>`
        : e.polled && !e.current
          ? html`<p class="muted small">${o.reopened}</p>`
          : e.polled
            ? html`<p class="muted small">${o.noKeyToAck}</p>`
            : html`<p class="muted small">${o.webhookOnly}</p>`;
      items.push({
        at: e.createdAt,
        kind: 'event',
        body: html`<strong>${e.eventType}</strong> ${metadataList(ctx, e.metadata as Record<string, unknown> | undefined)}${acks}${traceLink(o.trace, e.traceparent, kit.services.config.traceUrlTemplate)}`,
      });
    }
    for (const tr of tracking) {
      items.push({
        at: tr.received_at.toISOString(),
        kind: 'tracking',
        body: html`<strong>${o.trackingUpdate}</strong> ${o.from} ${keyName(tr.key_id)}
          <details><summary>${o.body}</summary>${jsonBlock(tr.body)}</details>`,
      });
    }
    items.push(...(await extraTimelineEntries(kit, ctx, order)));
    items.push(...(await weighingTimelineEntries(kit, ctx, order, keyName)));
    items.sort((a, b) => a.at.localeCompare(b.at));
    const kindLabel = o.timelineKinds as Record<string, string>;
    return html`<p class="now">${t.common.status} ${orderStatusBadge(t, order.status)} · ${o.lastEvent} <strong>${order.last_event}</strong></p>
<ol class="timeline">${items.map(
      (
        i,
      ) => html`<li class="tl tl-${i.kind}"><div class="tl-head">${time(i.at)} ${badge(kindLabel[i.kind] ?? i.kind, 'muted')}</div>
  <div class="tl-body">${i.body}</div></li>`,
    )}</ol>`;
  }

  /** The platform's actions this order allows now: one form each, nothing it would refuse. */
  function actions(ctx: PageContext, order: OrderRow): Html {
    const t = ctx.t;
    const a = t.orders.actions;
    const csrf = csrfField(ctx.csrfToken);
    const base = path`/console/orders/${order.id}`;
    const allowed = new Set(
      platformActions({
        status: order.status,
        type: order.type,
        customerCancellationOpen: order.customer_cancellation !== null,
        posCancellationOpen: order.pos_cancellation !== null,
      }),
    );
    // A pickup area is where a takeout customer collects the order: offered on takeout orders.
    if (order.type !== 'TAKEOUT') allowed.delete('pickupArea');
    const status = t.codes.orderStatus[order.status];
    if (allowed.size === 0) return html`<p class="muted">${a.none(status)}</p>`;
    if (!ctx.can('POST /console/orders/:orderId/events')) return html`<p class="muted">${a.readOnly}</p>`;
    return html`<div class="actions">
  ${order.customer_cancellation ? html`<p>${a.customerRequestOpen}</p>` : ''}
  ${
    allowed.has('customerCancellation')
      ? html`<form method="post" action="${base}/customerCancellation" class="inline-form">${csrf}
    <div class="field"><label for="cc-reason">${a.customerReason}</label>
      <input id="cc-reason" name="reason" maxlength="1000"></div>
    <button type="submit">${a.customerCancellation}</button></form>`
      : ''
  }
  ${
    order.pos_cancellation && (allowed.has('acceptCancellation') || allowed.has('denyCancellation'))
      ? html`<p class="grow">${a.posAsked(order.pos_cancellation.reason, order.pos_cancellation.code)}</p>
    ${allowed.has('acceptCancellation') ? html`<form method="post" action="${base}/cancellationDecision" class="inline-form" data-confirm="${t.confirm.acceptCancellation}">${csrf}<input type="hidden" name="decision" value="accept"><button type="submit">${a.acceptCancellation}</button></form>` : ''}
    <form method="post" action="${base}/cancellationDecision" class="inline-form">${csrf}<input type="hidden" name="decision" value="deny"><button type="submit" class="secondary">${a.denyCancellation}</button></form>`
      : ''
  }
  ${
    allowed.has('conclude')
      ? html`<form method="post" action="${base}/events" class="inline-form" data-confirm="${t.confirm.concludeOrder}">${csrf}
    <input type="hidden" name="eventType" value="CONCLUDED">
    <button type="submit">${a.conclude}</button></form>`
      : ''
  }
  ${
    allowed.has('pickupArea')
      ? html`<form method="post" action="${base}/events" class="inline-form">${csrf}
    <input type="hidden" name="eventType" value="PICKUP_AREA_ASSIGNED">
    <div class="field"><label for="pa-area">${a.pickupAreaField}</label><input id="pa-area" name="pickupArea" maxlength="200" required></div>
    <button type="submit">${a.pickupArea}</button></form>`
      : ''
  }
  ${
    allowed.has('cancel')
      ? html`<form method="post" action="${base}/events" class="inline-form" data-confirm="${t.confirm.cancelOrder}">${csrf}
    <input type="hidden" name="eventType" value="CANCELLED">
    <div class="field"><label for="pc-reason">${a.platformReason}</label><input id="pc-reason" name="reason" maxlength="1000"></div>
    <button type="submit" class="danger">${a.cancel}</button></form>`
      : ''
  }
</div>`;
  }

  /**
   * The order and its timeline as of one version of the order: every transition bumps the order's
   * version in the transaction that records it, so when the version is the same before and
   * after reading the timeline, the summary, the actions and the timeline agree. An order that
   * changed meanwhile is read again (twice at most, then the newest reads are shown).
   */
  async function orderWithTimeline(ctx: PageContext, id: string): Promise<{ order: OrderRow; timeline: Html }> {
    let order = await orders.getAnyOrder(id);
    for (let attempt = 0; ; attempt++) {
      const tl = await timeline(ctx, order);
      const after = await orders.getAnyOrder(id);
      if (after.version === order.version || attempt === 2) return { order, timeline: tl };
      order = after;
    }
  }

  /** The order page; `refused` is the plain message of an action the order did not allow. */
  async function orderPage(request: FastifyRequest, refused?: Html): Promise<Html> {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const o = t.orders;
    const { order, timeline: orderTimeline } = await orderWithTimeline(ctx, orderIdOf(request));
    const merchant = await merchants.findMerchant(order.merchant_id);
    const doc = order.document;
    const q = queryOf(request);
    const done = DONE_KEYS.find((k) => k === q.done) as Done | undefined;
    const body = html`<section aria-labelledby="sum-h" class="panel">
  <h2 id="sum-h">${o.summary}</h2>
  <dl class="facts">
    <div><dt>${t.common.status}</dt><dd>${orderStatusBadge(t, order.status)}</dd></div>
    <div><dt>${t.common.merchant}</dt><dd><a href="${path`/console/merchants/${order.merchant_id}`}">${merchant?.name ?? order.merchant_id}</a></dd></div>
    <div><dt>${o.type}</dt><dd>${t.codes.orderType[order.type]}</dd></div>
    <div><dt>${o.created}</dt><dd>${time(order.created_at)}</dd></div>
    <div><dt>${o.customer}</dt><dd>${doc.customer.name} · ${doc.customer.phone.number}</dd></div>
    <div><dt>${o.deliveryCode}</dt><dd>${
      // A viewer never sees secrets (docs/security.md): the code proves a delivery.
      ctx.can('POST /console/orders/:orderId/events')
        ? html`<code>${order.delivery_code}</code>`
        : html`<span class="muted">${o.hiddenForRole}</span>`
    }</dd></div>
    <div><dt>${o.posReference}</dt><dd>${order.order_external_code ?? '—'}</dd></div>
    <div class="wide"><dt>${o.orderId}</dt><dd><code class="wrap">${order.id}</code></dd></div>
  </dl>
</section>
<section aria-labelledby="items-h" class="panel">
  <h2 id="items-h">${o.itemsHeading}</h2>
  <table class="cards items">
    <caption class="visually-hidden">${o.itemsHeading}</caption>
    <thead><tr><th scope="col">${o.item}</th><th scope="col" class="num">${o.quantity}</th><th scope="col" class="num">${o.unitPrice}</th><th scope="col" class="num">${o.total}</th></tr></thead>
    <tbody>${doc.items.map(
      (
        i,
      ) => html`<tr><th scope="row" data-label="${o.item}">${i.name}${i.specialInstructions ? html`<br><span class="muted small">${i.specialInstructions}</span>` : ''}
        ${optionLines(ctx, i)}</th>
      <td data-label="${o.quantity}" class="num">${quantityCell(ctx, i)}</td><td data-label="${o.unitPrice}" class="num">${money(i.unitPrice.value, ctx.lang)}</td>
      <td data-label="${o.total}" class="num">${money(i.totalPrice.value, ctx.lang)}</td></tr>`,
    )}</tbody>
  </table>
  <dl class="totals">
    <div><dt>${o.itemsPrice}</dt><dd>${money(doc.total.itemsPrice.value, ctx.lang)}</dd></div>
    <div><dt>${o.otherFees}</dt><dd>${money(doc.total.otherFees.value, ctx.lang)}</dd></div>
    <div><dt>${o.discount}</dt><dd>${money(doc.total.discount.value, ctx.lang)}</dd></div>
    <div class="grand"><dt>${o.orderAmount}</dt><dd>${money(doc.total.orderAmount.value, ctx.lang)}</dd></div>
    ${adjustmentRow(ctx, doc)}
  </dl>
</section>
${weighingApprovalPanel(ctx, doc)}
<section aria-labelledby="act-h" class="panel" id="actions">
  <h2 id="act-h">${o.actionsHeading}</h2>
  ${actions(ctx, order)}
</section>
<section aria-labelledby="tl-h" class="panel">
  <h2 id="tl-h">${o.timelineHeading} <span class="muted small live-note">${o.live}</span></h2>
  <div id="timeline" data-refresh="${path`/console/orders/${order.id}/timeline`}" data-refresh-ms="2000" aria-live="polite">
    ${orderTimeline}
  </div>
</section>`;
    return page(
      ctx,
      { title: o.title(doc.displayId), active: 'orders', notice: done ? o.done[done] : '', error: refused },
      body,
    );
  }

  app.get('/orders/:orderId', allow('viewer'), async (request, reply) => kit.send(reply, await orderPage(request)));

  // The live part of the order page (fetched every 2 s by console.js).
  app.get('/orders/:orderId/timeline', allow('viewer'), async (request, reply) => {
    return kit.send(reply, (await orderWithTimeline(kit.ctx(request), orderIdOf(request))).timeline);
  });

  /**
   * Runs one platform action. The page offered it because the order allowed it; if the order
   * moved meanwhile (the POS, a courier or another operator acted first) the service refuses, and
   * the operator gets the order page as it is now, saying in plain words that the action no
   * longer applies (the audit entry keeps the service's title as the reason).
   */
  async function act(
    request: FastifyRequest,
    reply: FastifyReply,
    action: PlatformAction,
    run: () => Promise<unknown>,
  ) {
    const id = orderIdOf(request);
    try {
      await run();
    } catch (error) {
      if (error instanceof ConsoleError || !(error instanceof AppError) || ![400, 409].includes(error.status))
        throw error;
      request.auditReason = error.title;
      const t = kit.ctx(request).t;
      const now = await orders.getAnyOrder(id);
      const message =
        error.status === 409
          ? t.orders.changedMeanwhile
          : t.orders.refused(t.orders.actionNames[action], t.codes.orderStatus[now.status]);
      reply.header('cache-control', 'no-store');
      return kit.send(reply, await orderPage(request, html`<p>${message}</p>`), error.status);
    }
    return reply.redirect(`${path`/console/orders/${id}`}${query({ done: action })}`, 303);
  }

  // An action the page offers no button for reads as one (a forged or outdated form).
  const unknownAction = { messages: { decision: (t: Messages) => t.orders.unknownAction } };
  const unknownEvent = { messages: { eventType: (t: Messages) => t.orders.unknownAction } };

  app.post(
    '/orders/:orderId/customerCancellation',
    allow('support', 'order.customerCancellation'),
    async (request, reply) => {
      const { reason } = readForm(request, CancellationForm);
      return act(request, reply, 'customerCancellation', () =>
        orders.customerCancellation(orderIdOf(request), reason ? { reason } : {}),
      );
    },
  );

  app.post(
    '/orders/:orderId/cancellationDecision',
    allow('support', 'order.cancellationDecision'),
    async (request, reply) => {
      const { decision } = readForm(request, DecisionForm, unknownAction);
      return act(request, reply, decision === 'accept' ? 'acceptCancellation' : 'denyCancellation', () =>
        orders.cancellationDecision(orderIdOf(request), { decision }),
      );
    },
  );

  const EVENT_ACTIONS = { CONCLUDED: 'conclude', PICKUP_AREA_ASSIGNED: 'pickupArea', CANCELLED: 'cancel' } as const;

  app.post('/orders/:orderId/events', allow('support', 'order.platformEvent'), async (request, reply) => {
    const { eventType, pickupArea, reason } = readForm(request, EventForm, unknownEvent);
    return act(request, reply, EVENT_ACTIONS[eventType], () =>
      orders.platformEvent(orderIdOf(request), { eventType, pickupArea, reason }),
    );
  });
};

/** Timeline entries other modules contribute (logistics updates, webhook attempts). */
async function extraTimelineEntries(kit: ConsoleKit, ctx: PageContext, order: OrderRow): Promise<TimelineEntry[]> {
  const t = ctx.t;
  const o = t.orders;
  const entries: TimelineEntry[] = [];
  for (const u of await kit.services.logistics.listUpdates(order.id)) {
    const before = u.statusBefore as string | null;
    const after = u.statusAfter as string | null;
    entries.push({
      at: String(u.receivedAt),
      kind: 'logistics',
      body: html`<strong>${o.logistics} ${String(u.eventType)}</strong>
        ${before && after && before !== after ? html` ${o.moved(before, after)}` : ''}
        ${u.raisedEvent ? html` · ${o.raised} ${String(u.raisedEvent)}` : ''}
        ${u.note ? html`<p class="muted small">${String(u.note)}</p>` : ''}
        <p class="muted small">${o.app} ${shortId(String(u.appId))} · ${o.delivery} ${String(u.deliveryId ?? '—')}</p>
        <details><summary>${o.body}</summary>${jsonBlock(u.body)}</details>`,
    });
  }
  // D36: the feed is where a check of the delivery code, right or wrong, is recorded.
  for (const c of await kit.services.feed.codeChecks(order.id)) {
    entries.push({
      at: c.at,
      kind: 'code',
      body: html`<strong>${o.codeChecked(c.valid, c.source)}</strong> ${badge(c.valid ? '✓' : '✗', c.valid ? 'ok' : 'warn')}`,
    });
  }
  const [deliveries, traces] = await Promise.all([
    kit.services.webhooks.listOrderDeliveries(order.id),
    kit.services.webhooks.orderDeliveryTraces(order.id),
  ]);
  for (const d of deliveries) {
    entries.push({
      at: d.createdAt,
      kind: 'webhook',
      body: html`<strong>Webhook ${d.eventType}</strong> ${deliveryBadge(t, d)}
        ${d.target ? html`→ <code class="wrap">${d.target}</code>` : ''}
        <details${deliveryRank(d) <= 1 ? html` open` : ''}><summary>${o.attempts(d.attemptCount)}</summary>${attemptsTable(t, d)}</details>
        ${deliveryRank(d) <= 1 ? html`<p class="small"><a href="/console/webhooks${query({ merchantId: order.merchant_id })}">${o.retryFromWebhooks}</a></p>` : ''}
        ${traceLink(o.trace, traces.get(d.id), kit.services.config.traceUrlTemplate)}`,
    });
  }
  return entries;
}
