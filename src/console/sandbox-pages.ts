// Sandbox (CLEAVER_ENV=sandbox only): place an order from a merchant's catalog as a customer
// would, then follow it live on the order page (customer cancellation, conclude, …).
import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { html, money, path } from './html.js';
import { csrfField, page } from './layout.js';
import { orderStatusBadge } from './orders-pages.js';
import { statusBadge } from './widgets.js';

const RECENT = 10;
const QTY_PREFIX = 'qty_';

export const sandboxPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog, orders } = kit.services;

  app.get('/sandbox', async (request, reply) => {
    const all = await merchants.listMerchants();
    const wanted = queryOf(request).merchantId;
    const merchant = all.find((m) => m.id === wanted) ?? (all.length === 1 ? all[0] : undefined);
    const picker = html`<form method="get" action="/console/sandbox" class="inline-form">
  <div class="field"><label for="s-merchant">Merchant</label>
    <select id="s-merchant" name="merchantId" required><option value="">Choose a merchant</option>
    ${all.map((m) => html`<option value="${m.id}"${m.id === merchant?.id ? html` selected` : ''}>${m.name}${m.status === 'AVAILABLE' ? '' : ' (UNAVAILABLE)'}</option>`)}
    </select></div>
  <button type="submit">Show catalog</button>
</form>`;
    let orderForm = html``;
    if (merchant) {
      const [record, recent] = await Promise.all([
        catalog.getMerchantRecord(merchant.id),
        orders.listOrders({ merchantId: merchant.id, limit: RECENT }),
      ]);
      const available = record.products.filter((p) => p.status === 'AVAILABLE');
      const products = available.length
        ? html`<div class="table-wrap"><table class="products">
  <caption class="visually-hidden">Products of ${merchant.name}</caption>
  <thead><tr><th scope="col">Product</th><th scope="col" class="num">Price</th><th scope="col">Quantity</th></tr></thead>
  <tbody>${available.map(
    (p, i) => html`<tr><td>${p.name}</td><td class="num">${money(p.price)} / ${p.unit}</td>
    <td><label class="visually-hidden" for="q-${i}">Quantity of ${p.name} (${p.unit})</label>
      <input id="q-${i}" name="${QTY_PREFIX}${p.id}" type="number" min="0" step="${p.unit === 'KG' ? '0.001' : '1'}" value="0"> ${p.unit}</td></tr>`,
  )}</tbody></table></div>`
        : html`<p>No available products. <a href="${path`/console/merchants/${merchant.id}/catalog`}">Add one by hand</a> or let the POS upload its catalog.</p>`;
      orderForm = html`${
        kit.ctx(request).can('POST /console/sandbox/orders')
          ? html`<section aria-labelledby="order-h" class="panel">
  <h2 id="order-h">Place an order at ${merchant.name} ${statusBadge(merchant.status)}</h2>
  <form method="post" action="/console/sandbox/orders" class="stack">
    ${csrfField(kit.ctx(request).csrfToken)}
    <input type="hidden" name="merchantId" value="${merchant.id}">
    ${products}
    <div class="inline-form">
      <div class="field"><label for="s-type">Order type</label>
        <select id="s-type" name="type"><option>DELIVERY</option><option>TAKEOUT</option></select></div>
      <div class="field"><label for="s-customer">Customer name</label>
        <input id="s-customer" name="customerName" maxlength="200" value="Cliente Sandbox" required></div>
      <button type="submit"${available.length ? '' : html` disabled`}>Place order</button>
    </div>
  </form>
</section>`
          : html`<p class="muted">Your role cannot place orders.</p>`
      }
<section aria-labelledby="recent-h" class="panel">
  <h2 id="recent-h">Recent orders</h2>
  ${
    recent.length
      ? html`<ul>${recent.map(
          (o) =>
            html`<li><a href="${path`/console/orders/${o.id}`}">#${o.display_id}</a> ${orderStatusBadge(o.status)} ${o.last_event} · ${money(o.order_amount)}</li>`,
        )}</ul>`
      : html`<p>No orders yet.</p>`
  }
</section>`;
    }
    const intro = html`<p>Orders placed here go to the merchant's POS like real ones (events, polling, webhooks).
Open an order to play the customer's and the platform's part and watch the events arrive.</p>`;
    return kit.send(
      reply,
      page(kit.ctx(request), { title: 'Sandbox', active: 'sandbox' }, html`${intro}${picker}${orderForm}`),
    );
  });

  app.post('/sandbox/orders', async (request, reply) => {
    const form = formOf(request);
    const merchantId = form.merchantId ?? '';
    if (!isUuid(merchantId)) throw badRequest('merchantId is required');
    const type = form.type;
    if (type !== 'DELIVERY' && type !== 'TAKEOUT') throw badRequest('type must be DELIVERY or TAKEOUT');
    const customerName = (form.customerName ?? '').trim();
    if (!customerName || customerName.length > 200) throw badRequest('customer name must be 1 to 200 characters');
    const items: Array<{ productId: string; quantity: number }> = [];
    for (const [name, value] of Object.entries(form)) {
      if (!name.startsWith(QTY_PREFIX) || value.trim() === '') continue;
      const productId = name.slice(QTY_PREFIX.length);
      const text = value.trim().replace(',', '.');
      if (!isUuid(productId) || !/^\d{1,7}(\.\d{1,3})?$/.test(text)) {
        throw badRequest('quantities must be numbers such as 2 or 1.5');
      }
      const quantity = Number(text);
      if (quantity > 0) items.push({ productId, quantity });
    }
    if (items.length === 0) throw badRequest('choose a quantity for at least one product');
    if (items.length > 200) throw badRequest('an order holds at most 200 items');
    const order = await orders.createOrder(merchantId, { type, items, customer: { name: customerName } });
    return reply.redirect(path`/console/orders/${order.id}` + '?done=order+placed', 303);
  });
};
