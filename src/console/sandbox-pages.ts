// Sandbox (CLEAVER_ENV=sandbox only): place an order from a merchant's catalog as a customer
// would, then follow it live on the order page (customer cancellation, conclude, …).

import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { isUuid } from '../lib/ids.js';
import { Uuid } from '../lib/schemas.js';
import { CreateOrderBody } from '../modules/orders/index.js';
import { allow } from './console-access.js';
import { invalidInput } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { html, path } from './html.js';
import { money } from './i18n.js';
import { csrfField, page } from './layout.js';
import { orderStatusBadge } from './orders-pages.js';
import { statusBadge } from './widgets.js';

const RECENT = 10;
/** The fixed fields of the sandbox order form (the quantities, one field per product, are read below). */
const SandboxOrderForm = Type.Object({
  merchantId: Uuid(),
  type: CreateOrderBody.properties.type,
  customerName: CreateOrderBody.properties.customer.properties.name,
});
const QTY_PREFIX = 'qty_';

export const sandboxPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog, orders } = kit.services;

  app.get('/sandbox', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const s = t.sandbox;
    const all = (await merchants.listMerchants()).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'));
    const wanted = queryOf(request).merchantId;
    const merchant = all.find((m) => m.id === wanted) ?? (all.length === 1 ? all[0] : undefined);
    const picker = html`<form method="get" action="/console/sandbox" class="inline-form">
  <div class="field"><label for="s-merchant">${t.common.merchant}</label>
    <select id="s-merchant" name="merchantId" required><option value="">${s.chooseMerchant}</option>
    ${all.map((m) => html`<option value="${m.id}"${m.id === merchant?.id ? html` selected` : ''}>${m.name}${m.status === 'AVAILABLE' ? '' : ` (${t.codes.merchantStatus.UNAVAILABLE})`}</option>`)}
    </select></div>
  <button type="submit">${s.showCatalog}</button>
</form>`;
    let orderForm = html``;
    if (merchant) {
      const [record, recent] = await Promise.all([
        catalog.getMerchantRecord(merchant.id),
        orders.listOrders({ merchantId: merchant.id, limit: RECENT }),
      ]);
      const available = record.products.filter((p) => p.status === 'AVAILABLE');
      const products = available.length
        ? html`<table class="cards products">
  <caption class="visually-hidden">${s.productsOf(merchant.name)}</caption>
  <thead><tr><th scope="col">${s.product}</th><th scope="col" class="num">${s.price}</th><th scope="col">${s.quantity}</th></tr></thead>
  <tbody>${available.map(
    (
      p,
      i,
    ) => html`<tr><th scope="row" data-label="${s.product}">${p.name}</th><td data-label="${s.price}" class="num">${money(p.price, ctx.lang)} / ${p.unit}</td>
    <td data-label="${s.quantity}"><label class="visually-hidden" for="q-${i}">${s.quantityOf(p.name, p.unit)}</label>
      <input id="q-${i}" name="${QTY_PREFIX}${p.id}" type="number" min="0" step="${p.unit === 'KG' ? '0.001' : '1'}" value="0"> ${p.unit}</td></tr>`,
  )}</tbody></table>`
        : html`<p>${s.noProducts} <a href="${path`/console/merchants/${merchant.id}/catalog`}">${s.addByHand}</a> ${s.orUpload}</p>`;
      orderForm = html`${
        ctx.can('POST /console/sandbox/orders')
          ? html`<section aria-labelledby="order-h" class="panel">
  <h2 id="order-h">${s.placeAt(merchant.name)} ${statusBadge(t, merchant.status)}</h2>
  <form method="post" action="/console/sandbox/orders" class="stack">
    ${csrfField(ctx.csrfToken)}
    <input type="hidden" name="merchantId" value="${merchant.id}">
    ${products}
    <div class="inline-form">
      <div class="field"><label for="s-type">${s.orderType}</label>
        <select id="s-type" name="type"><option value="DELIVERY">${t.codes.orderType.DELIVERY}</option><option value="TAKEOUT">${t.codes.orderType.TAKEOUT}</option></select></div>
      <div class="field"><label for="s-customer">${s.customerName}</label>
        <input id="s-customer" name="customerName" maxlength="200" value="Cliente Sandbox" required></div>
      <button type="submit"${available.length ? '' : html` disabled`}>${s.place}</button>
    </div>
  </form>
</section>`
          : html`<p class="muted">${s.cannotPlace}</p>`
      }
<section aria-labelledby="recent-h" class="panel">
  <h2 id="recent-h">${s.recent}</h2>
  ${
    recent.length
      ? html`<ul>${recent.map(
          (o) =>
            html`<li><a href="${path`/console/orders/${o.id}`}">#${o.display_id}</a> ${orderStatusBadge(t, o.status)} <code>${o.last_event}</code> · ${money(o.order_amount, ctx.lang)}</li>`,
        )}</ul>`
      : html`<p>${s.noOrders}</p>`
  }
</section>`;
    }
    const intro = html`<p>${s.intro}</p>`;
    return kit.send(
      reply,
      page(ctx, { title: t.sections.sandbox, active: 'sandbox' }, html`${intro}${picker}${orderForm}`),
    );
  });

  app.post('/sandbox/orders', allow('support', 'order.create'), async (request, reply) => {
    const { merchantId, type, customerName } = readForm(request, SandboxOrderForm, {
      messages: { merchantId: (t) => t.errors.notAMerchant },
    });
    const form = formOf(request);
    const items: Array<{ productId: string; quantity: number }> = [];
    for (const [name, value] of Object.entries(form)) {
      if (!name.startsWith(QTY_PREFIX) || value.trim() === '') continue;
      const productId = name.slice(QTY_PREFIX.length);
      const text = value.trim().replace(',', '.');
      if (!isUuid(productId) || !/^\d{1,7}(\.\d{1,3})?$/.test(text)) throw invalidInput((t) => t.sandbox.badQuantity);
      const quantity = Number(text);
      if (quantity > 0) items.push({ productId, quantity });
    }
    if (items.length === 0) throw invalidInput((t) => t.sandbox.noQuantity);
    if (items.length > 200) throw invalidInput((t) => t.sandbox.tooManyItems);
    const order = await orders.createOrder(merchantId, { type, items, customer: { name: customerName } });
    return reply.redirect(`${path`/console/orders/${order.id}`}?done=placed`, 303);
  });
};
