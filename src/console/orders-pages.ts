// Orders: a filterable list, and an order page with items, totals and a live timeline of events
// (with each integration key's acknowledgment), POS tracking, logistics updates and webhook
// attempts. The platform's side of an order (customer cancellation, conclude, …) is a form each.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { page as cursorPage, encodeTimeCursor } from '../lib/cursor.js';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { ORDER_STATUSES } from '../modules/orders/index.js';
import { adjustmentRow, optionLines, quantityCell, weighingTimelineEntries } from './butchery-pages.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { badge, type Html, html, money, path, query, shortId, time } from './html.js';
import { csrfField, page } from './layout.js';
import { attemptsTable, deliveryBadge, deliveryRank } from './webhooks-pages.js';
import { choice, oneOf, pager, searchText } from './widgets.js';

type OrderRow = Awaited<ReturnType<ConsoleKit['services']['orders']['getAnyOrder']>>;
type TimelineEntry = { at: string; kind: string; body: Html };

const LIST_LIMIT = 100;

export const orderIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { orderId: string }).orderId;
  if (!isUuid(id)) throw notFound('Order not found');
  return id;
};

export function orderStatusBadge(status: string): Html {
  const tone = status === 'CANCELLED' ? 'bad' : status === 'CONCLUDED' || status === 'DELIVERED' ? 'ok' : 'info';
  return badge(status, tone);
}

/** Metadata of an event as `key: value` pairs (nested values as compact JSON). */
function metadataList(metadata: Record<string, unknown> | undefined): Html {
  if (!metadata || Object.keys(metadata).length === 0) return html``;
  return html`<dl class="meta">${Object.entries(metadata).map(
    ([k, v]) => html`<div><dt>${k}</dt><dd>${typeof v === 'string' ? v : JSON.stringify(v)}</dd></div>`,
  )}</dl>`;
}

const jsonBlock = (value: unknown) => html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;

export const ordersPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, orders, events, auth } = kit.services;

  app.get('/orders', async (request, reply) => {
    const q = queryOf(request);
    const merchantId = q.merchantId || undefined;
    if (merchantId && !isUuid(merchantId)) throw badRequest('merchantId must be a uuid');
    const status = oneOf('status', q.status, ORDER_STATUSES);
    const search = searchText(q.q);
    const found = await orders.listOrders({
      merchantId,
      status,
      q: search,
      cursor: q.cursor || undefined,
      limit: LIST_LIMIT + 1,
    });
    const { items: rows, next } = cursorPage(found, LIST_LIMIT, (o) => encodeTimeCursor(o.created_at, o.id));
    const names = await merchants.merchantNames([
      ...rows.map((o) => o.merchant_id),
      ...(merchantId ? [merchantId] : []),
    ]);
    const filter = html`<form method="get" action="/console/orders" class="inline-form filters" role="search" aria-label="Filter orders">
  <div class="field"><label for="f-q">Display id or order id</label>
    <input id="f-q" name="q" type="search" maxlength="200" value="${search ?? ''}"></div>
  <div class="field"><label for="f-merchant">Merchant id</label>
    <input id="f-merchant" name="merchantId" maxlength="36" value="${merchantId ?? ''}" placeholder="any merchant"></div>
  ${choice('f-status', 'status', 'Status', ORDER_STATUSES, status)}
  <button type="submit">Filter</button>
</form>
${merchantId ? html`<p>Orders of <a href="${path`/console/merchants/${merchantId}`}">${names.get(merchantId) ?? merchantId}</a> · <a href="/console/orders${query({ status, q: search })}">all merchants</a></p>` : ''}`;
    const table = rows.length
      ? html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Orders, newest first</caption>
  <thead><tr><th scope="col">Order</th><th scope="col">Merchant</th><th scope="col">Status</th>
    <th scope="col">Last event</th><th scope="col">Type</th><th scope="col" class="num">Amount</th>
    <th scope="col">Customer</th><th scope="col">Created</th></tr></thead>
  <tbody>${rows.map(
    (o) => html`<tr>
    <th scope="row"><a href="${path`/console/orders/${o.id}`}">#${o.display_id}</a></th>
    <td><a href="/console/orders${query({ merchantId: o.merchant_id, status })}">${names.get(o.merchant_id) ?? shortId(o.merchant_id)}</a></td>
    <td>${orderStatusBadge(o.status)}</td><td>${o.last_event}</td><td>${o.type}</td>
    <td class="num">${money(o.order_amount)}</td><td>${o.document.customer.name}</td><td>${time(o.created_at)}</td>
  </tr>`,
  )}</tbody></table></div>`
      : html`<p>No orders match.</p>`;
    return kit.send(
      reply,
      page(kit.ctx(request), { title: 'Orders', active: 'orders' }, html`${filter}${table}${pager(request, next)}`),
    );
  });

  /** Everything that happened to an order, oldest first. */
  async function timeline(order: OrderRow): Promise<Html> {
    const [entries, tracking, keys] = await Promise.all([
      events.timeline(order.id),
      orders.listTracking(order.id),
      auth.listIntegrationKeys(order.merchant_id),
    ]);
    const keyName = (id: string | null) =>
      id ? (keys.find((k) => k.id === id)?.name ?? html`${shortId(id)} (deleted)`) : 'platform';
    const items: TimelineEntry[] = [];
    for (const e of entries) {
      const acks = e.acknowledgments.length
        ? html`<ul class="acks" aria-label="Acknowledgments">${e.acknowledgments.map(
            (a) =>
              html`<li>${keyName(a.keyId)}: ${a.acknowledged ? html`${badge('acknowledged', 'ok')} ${time(a.acknowledgedAt)}` : badge('not acknowledged', 'warn')}</li>`,
          )}</ul>`
        : e.polled && !e.current
          ? html`<p class="muted small">Re-opened later: acknowledgments apply to the latest occurrence.</p>`
          : e.polled
            ? html`<p class="muted small">No integration key to acknowledge it.</p>`
            : html`<p class="muted small">Webhook only (not polled).</p>`;
      items.push({
        at: e.createdAt,
        kind: 'event',
        body: html`<strong>${e.eventType}</strong> ${metadataList(e.metadata as Record<string, unknown> | undefined)}${acks}`,
      });
    }
    for (const t of tracking) {
      items.push({
        at: t.received_at.toISOString(),
        kind: 'tracking',
        body: html`<strong>Tracking update</strong> from ${keyName(t.key_id)}
          <details><summary>Body</summary>${jsonBlock(t.body)}</details>`,
      });
    }
    items.push(...(await extraTimelineEntries(kit, order)));
    items.push(...(await weighingTimelineEntries(kit, order, keyName)));
    items.sort((a, b) => a.at.localeCompare(b.at));
    const kindLabel: Record<string, string> = {
      event: 'Event',
      tracking: 'POS',
      logistics: 'Logistics',
      webhook: 'Webhook',
      weighing: 'POS',
    };
    return html`<p class="now">Status ${orderStatusBadge(order.status)} · last event <strong>${order.last_event}</strong></p>
<ol class="timeline">${items.map(
      (
        i,
      ) => html`<li class="tl tl-${i.kind}"><div class="tl-head">${time(i.at)} ${badge(kindLabel[i.kind] ?? i.kind, 'muted')}</div>
  <div class="tl-body">${i.body}</div></li>`,
    )}</ol>`;
  }

  function actions(request: FastifyRequest, order: OrderRow): Html {
    const csrf = csrfField(kit.ctx(request).csrfToken);
    const base = path`/console/orders/${order.id}`;
    const finished = order.status === 'CANCELLED' || order.status === 'CONCLUDED';
    if (finished) return html`<p class="muted">The order is ${order.status}: nothing more can happen to it.</p>`;
    if (!kit.ctx(request).can('POST /console/orders/:orderId/events')) {
      return html`<p class="muted">Your role can read orders but not act on them.</p>`;
    }
    return html`<div class="actions">
  ${
    order.customer_cancellation
      ? html`<p>The customer's cancellation request is open, waiting for the POS.</p>`
      : html`<form method="post" action="${base}/customerCancellation" class="inline-form">${csrf}
    <div class="field"><label for="cc-reason">Customer's reason (optional)</label>
      <input id="cc-reason" name="reason" maxlength="1000"></div>
    <button type="submit">Request cancellation as the customer</button></form>`
  }
  ${
    order.pos_cancellation
      ? html`<form method="post" action="${base}/cancellationDecision" class="inline-form">${csrf}
    <p>The POS asked to cancel: ${order.pos_cancellation.reason} (${order.pos_cancellation.code}).</p>
    <div class="field"><label for="cd-decision">Decision</label>
      <select id="cd-decision" name="decision"><option value="accept">Accept: cancel the order</option><option value="deny">Deny</option></select></div>
    <button type="submit">Answer the POS</button></form>`
      : ''
  }
  <form method="post" action="${base}/events" class="inline-form">${csrf}
    <input type="hidden" name="eventType" value="CONCLUDED">
    <button type="submit">Conclude the order</button></form>
  ${
    order.type === 'TAKEOUT'
      ? html`<form method="post" action="${base}/events" class="inline-form">${csrf}
    <input type="hidden" name="eventType" value="PICKUP_AREA_ASSIGNED">
    <div class="field"><label for="pa-area">Pickup area</label><input id="pa-area" name="pickupArea" maxlength="200" required></div>
    <button type="submit">Assign pickup area</button></form>`
      : ''
  }
  <form method="post" action="${base}/events" class="inline-form" data-confirm="Cancel this order for the platform?">${csrf}
    <input type="hidden" name="eventType" value="CANCELLED">
    <div class="field"><label for="pc-reason">Platform's reason (optional)</label><input id="pc-reason" name="reason" maxlength="1000"></div>
    <button type="submit" class="danger">Cancel as the platform</button></form>
</div>`;
  }

  /**
   * The order and its timeline as of one version of the order: every transition bumps the order's
   * version in the transaction that records it, so when the version is the same before and
   * after reading the timeline, the summary, the actions and the timeline agree. An order that
   * changed meanwhile is read again (twice at most, then the newest reads are shown).
   */
  async function orderWithTimeline(id: string): Promise<{ order: OrderRow; timeline: Html }> {
    let order = await orders.getAnyOrder(id);
    for (let attempt = 0; ; attempt++) {
      const tl = await timeline(order);
      const after = await orders.getAnyOrder(id);
      if (after.version === order.version || attempt === 2) return { order, timeline: tl };
      order = after;
    }
  }

  app.get('/orders/:orderId', async (request, reply) => {
    const { order, timeline: orderTimeline } = await orderWithTimeline(orderIdOf(request));
    const merchant = await merchants.findMerchant(order.merchant_id);
    const doc = order.document;
    const q = queryOf(request);
    const body = html`<section aria-labelledby="sum-h" class="panel">
  <h2 id="sum-h">Summary</h2>
  <dl class="facts">
    <div><dt>Status</dt><dd>${orderStatusBadge(order.status)}</dd></div>
    <div><dt>Merchant</dt><dd><a href="${path`/console/merchants/${order.merchant_id}`}">${merchant?.name ?? order.merchant_id}</a></dd></div>
    <div><dt>Type</dt><dd>${order.type}</dd></div>
    <div><dt>Created</dt><dd>${time(order.created_at)}</dd></div>
    <div><dt>Customer</dt><dd>${doc.customer.name} · ${doc.customer.phone.number}</dd></div>
    <div><dt>Delivery code</dt><dd>${
      // A viewer never sees secrets (docs/security.md): the code proves a delivery.
      kit.ctx(request).can('POST /console/orders/:orderId/events')
        ? html`<code>${order.delivery_code}</code>`
        : html`<span class="muted">hidden for your role</span>`
    }</dd></div>
    <div><dt>POS reference</dt><dd>${order.order_external_code ?? '—'}</dd></div>
    <div><dt>Order id</dt><dd><code class="wrap">${order.id}</code></dd></div>
  </dl>
</section>
<section aria-labelledby="items-h" class="panel">
  <h2 id="items-h">Items and totals</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Total</th></tr></thead>
    <tbody>${doc.items.map(
      (
        i,
      ) => html`<tr><td>${i.name}${i.specialInstructions ? html`<br><span class="muted small">${i.specialInstructions}</span>` : ''}
        ${optionLines(i)}</td>
      <td class="num">${quantityCell(i)}</td><td class="num">${money(i.unitPrice.value)}</td>
      <td class="num">${money(i.totalPrice.value)}</td></tr>`,
    )}</tbody>
    <tfoot>
      <tr><th scope="row" colspan="3">Items</th><td class="num">${money(doc.total.itemsPrice.value)}</td></tr>
      <tr><th scope="row" colspan="3">Other fees</th><td class="num">${money(doc.total.otherFees.value)}</td></tr>
      <tr><th scope="row" colspan="3">Discount</th><td class="num">${money(doc.total.discount.value)}</td></tr>
      <tr class="grand"><th scope="row" colspan="3">Order amount</th><td class="num">${money(doc.total.orderAmount.value)}</td></tr>
      ${adjustmentRow(doc, 3)}
    </tfoot>
  </table></div>
</section>
<section aria-labelledby="act-h" class="panel">
  <h2 id="act-h">Platform actions</h2>
  ${actions(request, order)}
</section>
<section aria-labelledby="tl-h" class="panel">
  <h2 id="tl-h">Timeline <span class="muted small live-note">(updates live)</span></h2>
  <div id="timeline" data-refresh="${path`/console/orders/${order.id}/timeline`}" data-refresh-ms="2000" aria-live="polite">
    ${orderTimeline}
  </div>
</section>`;
    return kit.send(
      reply,
      page(
        kit.ctx(request),
        { title: `Order #${doc.displayId}`, active: 'orders', notice: q.done ? `Done: ${q.done}.` : '' },
        body,
      ),
    );
  });

  // The live part of the order page (fetched every 2 s by console.js).
  app.get('/orders/:orderId/timeline', async (request, reply) => {
    return kit.send(reply, (await orderWithTimeline(orderIdOf(request))).timeline);
  });

  const done = (orderId: string, what: string) => path`/console/orders/${orderId}` + query({ done: what });

  app.post('/orders/:orderId/customerCancellation', async (request, reply) => {
    const id = orderIdOf(request);
    const reason = (formOf(request).reason ?? '').trim();
    if (reason.length > 1000) throw badRequest('reason must be at most 1000 characters');
    await orders.customerCancellation(id, reason ? { reason } : {});
    return reply.redirect(done(id, 'customer cancellation requested'), 303);
  });

  app.post('/orders/:orderId/cancellationDecision', async (request, reply) => {
    const id = orderIdOf(request);
    const decision = formOf(request).decision;
    if (decision !== 'accept' && decision !== 'deny') throw badRequest('decision must be accept or deny');
    await orders.cancellationDecision(id, { decision });
    return reply.redirect(done(id, `cancellation request ${decision === 'accept' ? 'accepted' : 'denied'}`), 303);
  });

  app.post('/orders/:orderId/events', async (request, reply) => {
    const id = orderIdOf(request);
    const form = formOf(request);
    const eventType = form.eventType;
    if (eventType !== 'CONCLUDED' && eventType !== 'PICKUP_AREA_ASSIGNED' && eventType !== 'CANCELLED') {
      throw badRequest('eventType must be one of CONCLUDED, PICKUP_AREA_ASSIGNED, CANCELLED');
    }
    const text = (name: string, max: number) => {
      const v = (form[name] ?? '').trim();
      if (v.length > max) throw badRequest(`${name} must be at most ${max} characters`);
      return v || undefined;
    };
    await orders.platformEvent(id, { eventType, pickupArea: text('pickupArea', 200), reason: text('reason', 1000) });
    return reply.redirect(done(id, eventType), 303);
  });
};

/** Timeline entries other modules contribute (logistics updates, webhook attempts). */
async function extraTimelineEntries(kit: ConsoleKit, order: OrderRow): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  for (const u of await kit.services.logistics.listUpdates(order.id)) {
    const before = u.statusBefore as string | null;
    const after = u.statusAfter as string | null;
    entries.push({
      at: String(u.receivedAt),
      kind: 'logistics',
      body: html`<strong>Logistics ${String(u.eventType)}</strong>
        ${before && after && before !== after ? html` moved the order ${before} → ${after}` : ''}
        ${u.raisedEvent ? html` · raised ${String(u.raisedEvent)}` : ''}
        ${u.note ? html`<p class="muted small">${String(u.note)}</p>` : ''}
        <p class="muted small">app ${shortId(String(u.appId))} · delivery ${String(u.deliveryId ?? '—')}</p>
        <details><summary>Body</summary>${jsonBlock(u.body)}</details>`,
    });
  }
  for (const d of await kit.services.webhooks.listOrderDeliveries(order.id)) {
    entries.push({
      at: d.createdAt,
      kind: 'webhook',
      body: html`<strong>Webhook ${d.eventType}</strong> ${deliveryBadge(d)}
        ${d.target ? html`→ <code class="wrap">${d.target}</code>` : ''}
        <details${deliveryRank(d) <= 1 ? html` open` : ''}><summary>${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}</summary>${attemptsTable(d)}</details>
        ${deliveryRank(d) <= 1 ? html`<p class="small"><a href="/console/webhooks${query({ merchantId: order.merchant_id })}">Retry from the webhooks page</a></p>` : ''}`,
    });
  }
  return entries;
}
