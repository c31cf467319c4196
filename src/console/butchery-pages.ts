// Butchery in the console (D37, D38): a product's page with its cuts and spices (add, remove),
// and the parts of the order page that show a chosen cut, a weighed line and the weighings in the
// timeline. Kept apart from catalog-pages.ts and orders-pages.ts, which call the helpers below.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isUuid } from '../lib/ids.js';
import { CutBody, SpiceName } from '../modules/admin-api/index.js';
import { allow } from './console-access.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, shortId } from './html.js';
import { money, quantity } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import type { Messages } from './messages/en.js';
import { merchantIdOf, statusBadge } from './widgets.js';

/** The add-a-cut form: POST …/cuts of the operator API, with the spice's name as one text field. */
const CutForm = Type.Object({
  id: CutBody.properties.id,
  name: CutBody.properties.name,
  spice: Type.Optional(SpiceName),
});
/** The cut to remove, by its id (said missing in the butchery's words below). */
const RemoveCutForm = Type.Object({ cutId: CutBody.properties.id });

type OrderRow = Awaited<ReturnType<ConsoleKit['services']['orders']['getAnyOrder']>>;
type OrderItem = OrderRow['document']['items'][number];

const productIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { productId: string }).productId;
  if (!isUuid(id)) throw notFoundPage((t) => t.butchery.productNotFound);
  return id;
};

/** The link from a catalog row to its product page. */
export const productHref = (merchantId: string, productId: string) =>
  path`/console/merchants/${merchantId}/products/${productId}`;

/** D38: "0,94 KG (ordered 1 KG)" once the line is weighed, else the quantity ordered. */
export function quantityCell(ctx: PageContext, item: OrderItem): Html {
  const b = ctx.t.butchery;
  return item.orderedQuantity !== undefined
    ? html`${quantity(item.quantity, item.unit, ctx.lang)} ${badge(b.weighedBadge, 'ok')}<br><span class="muted small">${b.ordered(quantity(item.orderedQuantity, item.unit, ctx.lang))}</span>`
    : html`${quantity(item.quantity, item.unit, ctx.lang)}`;
}

/** D37: the chosen cut is the item's first option, free of charge; shown as such. */
export function optionLines(ctx: PageContext, item: OrderItem): Html {
  return html`${item.options.map((o) =>
    o.unitPrice.value === 0 && o.quantity === 1
      ? html`<br><span class="small">${badge(ctx.t.butchery.cutBadge, 'muted')} ${o.name}</span>`
      : html`<br><span class="small">+ ${o.quantity} × ${o.name}</span>`,
  )}`;
}

/** D38: the line under the totals of a weighed prepaid order. */
export function adjustmentRow(ctx: PageContext, doc: OrderRow['document']): Html {
  const adjustment = doc.weighingAdjustment;
  if (!adjustment) return html``;
  const b = ctx.t.butchery;
  const what = adjustment.value > 0 ? b.toCharge : adjustment.value < 0 ? b.toRefund : b.nothingToSettle;
  return html`<div><dt>${b.adjustment} (${what})</dt><dd>${money(adjustment.value, ctx.lang)}</dd></div>`;
}

/** D38: each weighing as a timeline entry of the order page. */
export async function weighingTimelineEntries(
  kit: ConsoleKit,
  ctx: PageContext,
  order: OrderRow,
  keyName: (id: string | null) => Html | string,
): Promise<Array<{ at: string; kind: string; body: Html }>> {
  const items = order.document.items;
  const b = ctx.t.butchery;
  const brl = (value: number) => money(value, ctx.lang);
  return (await kit.services.orders.listWeighings(order.id)).map((w) => ({
    at: w.weighedAt,
    kind: 'weighing',
    body: html`<strong>${b.weighed}</strong> ${b.by} ${keyName(w.keyId)}
      <ul class="plain small">${w.lines.map(
        (l) =>
          html`<li>${b.line(l.index, items[l.index]?.name ?? '', quantity(l.quantity, 'kg', ctx.lang), quantity(l.orderedQuantity, 'kg', ctx.lang))}</li>`,
      )}</ul>
      <p class="small">${b.items} ${brl(w.itemsPriceBefore.value)} → ${brl(w.itemsPriceAfter.value)} · ${b.orderAmount} ${brl(w.orderAmountAfter.value)}${
        w.weighingAdjustment ? html` · ${b.adjustmentShort} ${brl(w.weighingAdjustment.value)}` : ''
      }</p>`,
  }));
}

export const butcheryPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog } = kit.services;

  app.get('/merchants/:merchantId/products/:productId', allow('viewer'), async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const product = await catalog.requireProduct(m.id, productIdOf(request));
    const cuts = await catalog.listCuts(m.id, product.id);
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const b = t.butchery;
    const csrf = csrfField(ctx.csrfToken);
    const here = productHref(m.id, product.id);
    const canEdit = ctx.can('POST /console/merchants/:merchantId/products/:productId/cuts');
    const cutList = cuts.length
      ? html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${b.cutsOf(product.name)}</caption>
  <thead><tr><th scope="col">${b.cut}</th><th scope="col">${b.spice}</th><th scope="col">${b.cutId}</th>${canEdit ? html`<th scope="col"><span class="visually-hidden">${b.remove}</span></th>` : ''}</tr></thead>
  <tbody>${cuts.map(
    (
      c,
    ) => html`<tr><th scope="row" data-label="${b.cut}">${c.name}</th><td data-label="${b.spice}">${c.spice ? html`${c.spice.name} <code class="small">${c.spice.id}</code>` : '—'}</td>
    <td data-label="${b.cutId}"><code class="wrap">${c.id}</code></td>${
      canEdit
        ? html`<td><form method="post" action="${here}/cuts/remove" class="inline-form" data-confirm="${b.removeConfirm(c.name)}">${csrf}
      <input type="hidden" name="cutId" value="${c.id}">
      <button type="submit" class="danger">${b.remove}</button></form></td>`
        : ''
    }</tr>`,
  )}</tbody></table></div>`
      : html`<p class="muted">${b.noCuts}</p>`;
    const form = canEdit
      ? html`<form method="post" action="${here}/cuts" class="inline-form">${csrf}
  <div class="field"><label for="cut-name">${b.cutName}</label><input id="cut-name" name="name" required maxlength="200" placeholder="Bife"></div>
  <div class="field"><label for="cut-spice">${b.spiceOptional}</label><input id="cut-spice" name="spice" maxlength="200" placeholder="Alho"></div>
  <div class="field"><label for="cut-id">${b.cutIdOptional}</label><input id="cut-id" name="id" maxlength="100"></div>
  <button type="submit">${b.addCut}</button>
</form>`
      : '';
    const body = html`<p><a href="${path`/console/merchants/${m.id}/catalog`}">${b.backToCatalog(m.name)}</a></p>
<section aria-labelledby="prod-h" class="panel">
  <h2 id="prod-h">${product.name}</h2>
  <dl class="facts">
    <div><dt>${b.price}</dt><dd>${b.perUnit(money(product.price, ctx.lang), product.unit)}</dd></div>
    <div><dt>${t.common.status}</dt><dd>${statusBadge(t, product.status)}</dd></div>
    <div><dt>${b.origin}</dt><dd>${product.pdv_external_id === null ? badge(t.catalog.handMade, 'muted') : html`${badge(t.catalog.pos, 'info')} <code>${product.pdv_external_id}</code>`}</dd></div>
    <div><dt>${b.code}</dt><dd><code>${product.external_code}</code></dd></div>
    <div><dt>${b.productId}</dt><dd>${shortId(product.id)}</dd></div>
  </dl>
  ${product.description ? html`<p>${product.description}</p>` : ''}
</section>
<section aria-labelledby="cuts-h" class="panel">
  <h2 id="cuts-h">${b.cutsHeading}</h2>
  <p class="muted small">${b.cutsHelp}</p>
  ${cutList}
  ${form}
</section>`;
    const q = queryOf(request);
    const notice = q.done === 'removed' ? b.done.removed : q.added ? b.done.added(q.added) : '';
    return kit.send(
      reply,
      page(ctx, { title: b.productTitle(product.name, m.name), active: 'merchants', notice }, body),
    );
  });

  const back = (merchantId: string, productId: string, done: Record<string, string>) =>
    productHref(merchantId, productId) + query(done);
  const labels = {
    name: (t: Messages) => t.butchery.cutName,
    spice: (t: Messages) => t.butchery.spice,
    id: (t: Messages) => t.butchery.cutId,
    cutId: (t: Messages) => t.butchery.cutId,
  };

  /** The merchant of a cut form's path (404 page when it does not exist) and the product's id. */
  const productFormTarget = async (request: FastifyRequest) => ({
    m: await merchants.requireMerchant(merchantIdOf(request)),
    productId: productIdOf(request),
  });

  app.post(
    '/merchants/:merchantId/products/:productId/cuts',
    allow('admin', 'catalog.addCut'),
    async (request, reply) => {
      const { m, productId } = await productFormTarget(request);
      const { name, spice, id } = readForm(request, CutForm, { labels });
      const cut = await catalog.addCut(m.id, productId, {
        name,
        ...(id ? { id } : {}),
        ...(spice ? { spice: { name: spice } } : {}),
      });
      return reply.redirect(back(m.id, productId, { added: cut.name }), 303);
    },
  );

  // The cut's id travels in the form (ids are the operator's text, not always URL-friendly).
  app.post(
    '/merchants/:merchantId/products/:productId/cuts/remove',
    allow('admin', 'catalog.removeCut'),
    async (request, reply) => {
      const { m, productId } = await productFormTarget(request);
      const { cutId } = readForm(request, RemoveCutForm, { labels });
      if (!cutId) throw invalidInput((t) => t.butchery.cutIdMissing, 'cutId');
      await catalog.removeCut(m.id, productId, cutId);
      return reply.redirect(back(m.id, productId, { done: 'removed' }), 303);
    },
  );
};
