// Butchery in the console (D37, D38): a product's page with its cuts and spices (add, remove),
// and the parts of the order page that show a chosen cut, a weighed line and the weighings in the
// timeline. Kept apart from catalog-pages.ts and orders-pages.ts, which call the helpers below.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { badge, type Html, html, money, path, query, shortId } from './html.js';
import { csrfField, page } from './layout.js';
import { merchantIdOf, statusBadge } from './widgets.js';

type OrderRow = Awaited<ReturnType<ConsoleKit['services']['orders']['getAnyOrder']>>;
type OrderItem = OrderRow['document']['items'][number];

const productIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { productId: string }).productId;
  if (!isUuid(id)) throw notFound('Product not found');
  return id;
};

/** The link from a catalog row to its product page. */
export const productHref = (merchantId: string, productId: string) =>
  path`/console/merchants/${merchantId}/products/${productId}`;

/** D38: "0.94 KG (ordered 1 KG)" once the line is weighed, else the quantity ordered. */
export function quantityCell(item: OrderItem): Html {
  return item.orderedQuantity !== undefined
    ? html`${item.quantity} ${item.unit} ${badge('weighed', 'ok')}<br><span class="muted small">ordered ${item.orderedQuantity} ${item.unit}</span>`
    : html`${item.quantity} ${item.unit}`;
}

/** D37: the chosen cut is the item's first option, free of charge; shown as such. */
export function optionLines(item: OrderItem): Html {
  return html`${item.options.map((o) =>
    o.unitPrice.value === 0 && o.quantity === 1
      ? html`<br><span class="small">${badge('cut', 'muted')} ${o.name}</span>`
      : html`<br><span class="small">+ ${o.quantity} × ${o.name}</span>`,
  )}`;
}

/** D38: the row under the totals of a weighed prepaid order. */
export function adjustmentRow(doc: OrderRow['document'], columns: number): Html {
  const adjustment = doc.weighingAdjustment;
  if (!adjustment) return html``;
  const what = adjustment.value > 0 ? 'to charge' : adjustment.value < 0 ? 'to refund' : 'nothing to settle';
  return html`<tr><th scope="row" colspan="${String(columns)}">Weighing adjustment (${what})</th><td class="num">${money(adjustment.value)}</td></tr>`;
}

/** D38: each weighing as a timeline entry of the order page. */
export async function weighingTimelineEntries(
  kit: ConsoleKit,
  order: OrderRow,
  keyName: (id: string | null) => Html | string,
): Promise<Array<{ at: string; kind: string; body: Html }>> {
  const items = order.document.items;
  return (await kit.services.orders.listWeighings(order.id)).map((w) => ({
    at: w.weighedAt,
    kind: 'weighing',
    body: html`<strong>Weighed</strong> by ${keyName(w.keyId)}
      <ul class="plain small">${w.lines.map(
        (l) =>
          html`<li>line ${l.index} ${items[l.index]?.name ?? ''}: ${l.quantity} kg (ordered ${l.orderedQuantity} kg)</li>`,
      )}</ul>
      <p class="small">Items ${money(w.itemsPriceBefore.value)} → ${money(w.itemsPriceAfter.value)} · order amount ${money(w.orderAmountAfter.value)}${
        w.weighingAdjustment ? html` · adjustment ${money(w.weighingAdjustment.value)}` : ''
      }</p>`,
  }));
}

export const butcheryPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog } = kit.services;

  app.get('/merchants/:merchantId/products/:productId', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const product = await catalog.requireProduct(m.id, productIdOf(request));
    const cuts = await catalog.listCuts(m.id, product.id);
    const ctx = kit.ctx(request);
    const csrf = csrfField(ctx.csrfToken);
    const here = productHref(m.id, product.id);
    const canEdit = ctx.can('POST /console/merchants/:merchantId/products/:productId/cuts');
    const cutList = cuts.length
      ? html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Cuts of ${product.name}</caption>
  <thead><tr><th scope="col">Cut</th><th scope="col">Spice</th><th scope="col">Cut id</th>${canEdit ? html`<th scope="col"><span class="visually-hidden">Remove</span></th>` : ''}</tr></thead>
  <tbody>${cuts.map(
    (
      c,
    ) => html`<tr><td>${c.name}</td><td>${c.spice ? html`${c.spice.name} <code class="small">${c.spice.id}</code>` : '—'}</td>
    <td><code>${c.id}</code></td>${
      canEdit
        ? html`<td><form method="post" action="${here}/cuts/remove" class="inline-form" data-confirm="Remove the cut ${c.name}?">${csrf}
      <input type="hidden" name="cutId" value="${c.id}">
      <button type="submit" class="danger">Remove</button></form></td>`
        : ''
    }</tr>`,
  )}</tbody></table></div>`
      : html`<p class="muted">No cuts: customers order this product as it is.</p>`;
    const form = canEdit
      ? html`<form method="post" action="${here}/cuts" class="inline-form">${csrf}
  <div class="field"><label for="cut-name">Cut name</label><input id="cut-name" name="name" required maxlength="200" placeholder="Bife"></div>
  <div class="field"><label for="cut-spice">Spice (optional)</label><input id="cut-spice" name="spice" maxlength="200" placeholder="Alho"></div>
  <div class="field"><label for="cut-id">Cut id (optional)</label><input id="cut-id" name="id" maxlength="100"></div>
  <button type="submit">Add cut</button>
</form>`
      : '';
    const body = html`<p><a href="${path`/console/merchants/${m.id}/catalog`}">← Catalog of ${m.name}</a></p>
<section aria-labelledby="prod-h" class="panel">
  <h2 id="prod-h">${product.name}</h2>
  <dl class="facts">
    <div><dt>Price</dt><dd>${money(product.price)} per ${product.unit}</dd></div>
    <div><dt>Status</dt><dd>${statusBadge(product.status)}</dd></div>
    <div><dt>Origin</dt><dd>${product.pdv_external_id === null ? badge('hand-made', 'muted') : html`${badge('POS', 'info')} <code>${product.pdv_external_id}</code>`}</dd></div>
    <div><dt>Code</dt><dd><code>${product.external_code}</code></dd></div>
    <div><dt>Product id</dt><dd>${shortId(product.id)}</dd></div>
  </dl>
  ${product.description ? html`<p>${product.description}</p>` : ''}
</section>
<section aria-labelledby="cuts-h" class="panel">
  <h2 id="cuts-h">Cuts and spices</h2>
  <p class="muted small">The customer chooses one cut when ordering; the POS sees it as the item's first option. A POS catalog upload never changes cuts, but removing the product from the POS removes its cuts.</p>
  ${cutList}
  ${form}
</section>`;
    const q = queryOf(request);
    return kit.send(
      reply,
      page(
        ctx,
        { title: `${product.name} · ${m.name}`, active: 'merchants', notice: q.done ? `Done: ${q.done}.` : '' },
        body,
      ),
    );
  });

  const back = (merchantId: string, productId: string, done: string) =>
    productHref(merchantId, productId) + query({ done });
  const field = (form: Record<string, string | undefined>, name: string, max: number) => {
    const value = (form[name] ?? '').trim();
    if (value.length > max) throw badRequest(`${name} must be at most ${max} characters`);
    return value || undefined;
  };

  app.post('/merchants/:merchantId/products/:productId/cuts', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const productId = productIdOf(request);
    const form = formOf(request);
    const name = field(form, 'name', 200);
    if (!name) throw badRequest('name must not be empty');
    const spice = field(form, 'spice', 200);
    const id = field(form, 'id', 100);
    const cut = await catalog.addCut(m.id, productId, {
      name,
      ...(id ? { id } : {}),
      ...(spice ? { spice: { name: spice } } : {}),
    });
    return reply.redirect(back(m.id, productId, `cut ${cut.name} added`), 303);
  });

  // The cut's id travels in the form (ids are the operator's text, not always URL-friendly).
  app.post('/merchants/:merchantId/products/:productId/cuts/remove', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const productId = productIdOf(request);
    const cutId = field(formOf(request), 'cutId', 100);
    if (!cutId) throw badRequest('cutId is required');
    await catalog.removeCut(m.id, productId, cutId);
    return reply.redirect(back(m.id, productId, 'cut removed'), 303);
  });
};
