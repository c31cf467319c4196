// A merchant's catalog as the marketplace sees it (categories and products, linked to the POS or
// made by hand) and its sync history, each sync's moreInfo with what was discarded and why.

import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { isUuid } from '../lib/ids.js';
import { HandMadeCategoryBody, HandMadeProductBody } from '../modules/admin-api/index.js';
import { availabilityCell, availabilityNotice } from './availability-pages.js';
import { productHref } from './butchery-pages.js';
import { lastDays, stackedBars } from './charts.js';
import { allow } from './console-access.js';
import { invalidInput } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, time } from './html.js';
import { money, number } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import type { Messages } from './messages/en.js';
import { choice, merchantIdOf, oneOf, pager, searchText, statusBadge, syncBadge } from './widgets.js';

/** The new-product form: POST …/products of the operator API, with the price as typed (a comma allowed). */
const ProductForm = Type.Object({
  ...Type.Pick(HandMadeProductBody, ['name', 'unit', 'categoryId']).properties,
  price: Type.String({ pattern: '^\\d{1,10}([.,]\\d{1,2})?$' }),
});
const CategoryForm = Type.Pick(HandMadeCategoryBody, ['name']);

type SyncView = Awaited<ReturnType<ConsoleKit['services']['catalog']['listSyncs']>>['items'][number];
interface Discarded {
  kind: string;
  id: string | null;
  index: number;
  reason: string;
}

const SYNCS_SHOWN = 20;
const PRODUCTS_PER_PAGE = 100;
const CHART_DAYS = 30;
const DISCARDED_SHOWN = 200;

const origin = (t: Messages, pdvId: string | null) =>
  pdvId === null ? badge(t.catalog.handMade, 'muted') : html`${badge(t.catalog.pos, 'info')} <code>${pdvId}</code>`;

function discardedOf(sync: SyncView): Discarded[] {
  const details = sync.details as { discarded?: Discarded[] } | null;
  return Array.isArray(details?.discarded) ? details.discarded : [];
}

function syncEntry(t: Messages, sync: SyncView): Html {
  const c = t.catalog;
  const discarded = discardedOf(sync);
  return html`<li class="delivery">
  <div>${syncBadge(t, sync.status)} <strong>${sync.source === 'PULL' ? c.pull : c.upload}</strong>
    ${sync.entityType ? html`${c.of} <code>${sync.entityType}</code>` : ''} · ${c.received} ${time(sync.receivedAt)}
    ${sync.finishedAt ? html`· ${c.finished} ${time(sync.finishedAt)}` : ''}
    ${sync.attempts > 1 ? html`· ${c.attempts(sync.attempts)}` : ''}</div>
  ${sync.moreInfo ? html`<p class="wrap">${sync.moreInfo}</p>` : sync.status === 'PROCESSING' ? html`<p class="muted">${c.waiting}</p>` : ''}
  ${
    discarded.length
      ? html`<details><summary>${c.discarded(discarded.length)}</summary>
    <table class="cards"><thead><tr><th scope="col">${c.kind}</th><th scope="col">${c.posId}</th><th scope="col">${c.position}</th><th scope="col">${c.why}</th></tr></thead>
    <tbody>${discarded
      .slice(0, DISCARDED_SHOWN)
      .map(
        (d) =>
          html`<tr><td data-label="${c.kind}"><code>${d.kind}</code></td><td data-label="${c.posId}">${d.id ?? '—'}</td><td data-label="${c.position}">${d.index}</td><td data-label="${c.why}" class="wrap">${d.reason}</td></tr>`,
      )}</tbody></table>
    ${discarded.length > DISCARDED_SHOWN ? html`<p class="muted">${c.andMore(discarded.length - DISCARDED_SHOWN)}</p>` : ''}
  </details>`
      : ''
  }
</li>`;
}

export const catalogPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog } = kit.services;

  app.get('/merchants/:merchantId/catalog', allow('viewer'), async (request, reply) => {
    const ctx: PageContext = kit.ctx(request);
    const t = ctx.t;
    const c = t.catalog;
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const q = queryOf(request);
    const search = searchText(q.q);
    const status = oneOf((x) => x.common.status, q.status, ['AVAILABLE', 'UNAVAILABLE'] as const);
    const categoryId = q.categoryId || undefined;
    if (categoryId && !isUuid(categoryId))
      throw invalidInput((x) => x.errors.notAChoice(x.fields.categoryId, categoryId));
    // Server-side pages: a 50,000-product catalog is never read, let alone rendered, whole.
    const zone = ctx.timeZone ?? 'UTC';
    const [categories, total, products, syncs, syncDays, availability] = await Promise.all([
      catalog.categoryCounts(m.id),
      catalog.productCount(m.id),
      catalog.browseProducts(m.id, {
        q: search,
        status,
        categoryId,
        cursor: q.cursor || undefined,
        limit: PRODUCTS_PER_PAGE,
      }),
      catalog.listSyncs(m.id, { limit: SYNCS_SHOWN }).then((p) => p.items),
      catalog.syncsByDay(m.id, new Date(Date.now() - CHART_DAYS * 86_400_000), zone),
      catalog.availability.listForMerchant(m.id),
    ]);
    const days = lastDays(CHART_DAYS, zone);
    const perDay = new Map(syncDays.map((d) => [d.day, d]));
    const outcomes = syncDays.length
      ? stackedBars(ctx, c.chartTitle(CHART_DAYS), days, [
          {
            label: t.codes.syncStatus.SUCCESS,
            colour: '#2e7d32',
            values: days.map((d) => perDay.get(d)?.success ?? 0),
          },
          { label: t.codes.syncStatus.FAIL, colour: '#c62828', values: days.map((d) => perDay.get(d)?.fail ?? 0) },
          {
            label: t.codes.syncStatus.PROCESSING,
            colour: '#f9a825',
            values: days.map((d) => perDay.get(d)?.processing ?? 0),
          },
        ])
      : '';
    const csrf = csrfField(ctx.csrfToken);
    const base = path`/console/merchants/${m.id}/catalog`;
    const filter = html`<form method="get" action="${base}" class="inline-form filters" role="search" aria-label="${c.findLabel}">
  <div class="field"><label for="p-q">${c.searchLabel}</label>
    <input id="p-q" name="q" type="search" maxlength="200" value="${search ?? ''}"></div>
  <div class="field"><label for="p-category">${c.category}</label>
    <select id="p-category" name="categoryId"><option value="">${t.common.any}</option>
    ${categories.map((cat) => html`<option value="${cat.id}"${cat.id === categoryId ? html` selected` : ''}>${cat.name} (${number(cat.products, ctx.lang)})</option>`)}
    </select></div>
  ${choice(t, 'p-status', 'status', t.common.status, ['AVAILABLE', 'UNAVAILABLE'], status, t.codes.merchantStatus)}
  <button type="submit">${t.common.search}</button>
</form>`;
    const productTable = products.items.length
      ? html`<table class="cards products">
  <caption class="visually-hidden">${c.productsByName}</caption>
  <thead><tr><th scope="col">${c.product}</th><th scope="col" class="num">${c.price}</th><th scope="col">${c.unit}</th>
    <th scope="col">${t.common.status}</th><th scope="col">${t.availability.column}</th><th scope="col">${c.origin}</th><th scope="col">${c.code}</th></tr></thead>
  <tbody>${products.items.map(
    (
      p,
    ) => html`<tr><th scope="row" data-label="${c.product}"><a href="${productHref(m.id, p.id)}">${p.name}</a>${p.description ? html`<br><span class="muted small">${p.description}</span>` : ''}</th>
    <td data-label="${c.price}" class="num">${money(p.price, ctx.lang)}</td><td data-label="${c.unit}">${p.unit}</td><td data-label="${t.common.status}">${statusBadge(t, p.status)}</td>
    <td data-label="${t.availability.column}">${availabilityCell(ctx, m.id, p, availability.get(p.id))}</td>
    <td data-label="${c.origin}">${origin(t, p.pdv_external_id)}</td><td data-label="${c.code}"><code class="wrap">${p.external_code}</code></td></tr>`,
  )}</tbody></table>`
      : html`<p class="muted">${total ? c.noneMatch : c.empty}</p>`;
    const body = html`<p><a href="${path`/console/merchants/${m.id}`}">← ${m.name}</a> · ${c.counts(number(total, ctx.lang), number(categories.length, ctx.lang))}</p>
<section aria-labelledby="cat-h" class="panel">
  <h2 id="cat-h">${c.products}</h2>
  ${filter}
  ${productTable}
  ${pager(t, request, products.next)}
  <details><summary>${c.categories}</summary>
  <ul class="plain">${categories.map(
    (cat) =>
      html`<li><a href="${base}${query({ categoryId: cat.id })}">${cat.name}</a> ${statusBadge(t, cat.status)} ${origin(t, cat.pdv_external_id)} · ${c.productCount(number(cat.products, ctx.lang))}</li>`,
  )}</ul></details>
</section>
${
  ctx.can('POST /console/merchants/:merchantId/catalog/products')
    ? html`<section aria-labelledby="hand-h" class="panel">
  <h2 id="hand-h">${c.byHand}</h2>
  <p class="muted small">${c.byHandHelp}</p>
  <form method="post" action="${path`/console/merchants/${m.id}/catalog/products`}" class="inline-form">${csrf}
    <div class="field"><label for="p-name">${c.productName}</label><input id="p-name" name="name" required maxlength="300"></div>
    <div class="field"><label for="p-price">${c.priceBrl}</label><input id="p-price" name="price" required inputmode="decimal" pattern="[0-9]+([.,][0-9]{1,2})?"></div>
    <div class="field"><label for="p-unit">${c.unit}</label><select id="p-unit" name="unit"><option>UN</option><option>KG</option></select></div>
    <div class="field"><label for="p-cat">${c.category}</label><select id="p-cat" name="categoryId"><option value="">${c.noCategory}</option>
      ${categories.map((cat) => html`<option value="${cat.id}">${cat.name}</option>`)}</select></div>
    <button type="submit">${c.addProduct}</button>
  </form>
  <form method="post" action="${path`/console/merchants/${m.id}/catalog/categories`}" class="inline-form">${csrf}
    <div class="field"><label for="c-name">${c.categoryName}</label><input id="c-name" name="name" required maxlength="200"></div>
    <button type="submit">${c.addCategory}</button>
  </form>
</section>`
    : ''
}
<section aria-labelledby="sync-h" class="panel">
  <h2 id="sync-h">${c.syncHistory}</h2>
  ${outcomes}
  ${
    m.get_merchant_base_url && ctx.can('POST /console/merchants/:merchantId/catalog/pull')
      ? html`<form method="post" action="${path`/console/merchants/${m.id}/catalog/pull`}" class="inline-form">${csrf}
    <button type="submit">${c.pullNow}</button></form>`
      : m.get_merchant_base_url
        ? ''
        : html`<p class="muted small">${c.noEndpoint}</p>`
  }
  ${syncs.length ? html`<ol class="plain">${syncs.map((sync) => syncEntry(t, sync))}</ol>` : html`<p>${c.noSync}</p>`}
  ${syncs.length === SYNCS_SHOWN ? html`<p class="muted">${c.newest(SYNCS_SHOWN)}</p>` : ''}
</section>`;
    const done =
      q.done === 'product' || q.done === 'category' || q.done === 'pull'
        ? c.done[q.done](q.what ?? '')
        : availabilityNotice(t, q);
    return kit.send(reply, page(ctx, { title: c.title(m.name), active: 'merchants', notice: done }, body));
  });

  const back = (id: string, done: 'product' | 'category' | 'pull', what: string) =>
    path`/console/merchants/${id}/catalog` + query({ done, what });

  app.post(
    '/merchants/:merchantId/catalog/products',
    allow('admin', 'catalog.createProduct'),
    async (request, reply) => {
      const m = await merchants.requireMerchant(merchantIdOf(request));
      const { name, price, unit, categoryId } = readForm(request, ProductForm, {
        messages: {
          price: (t) => t.catalog.badPrice,
          categoryId: (t, sent) => t.errors.notAChoice(t.fields.categoryId, sent),
        },
      });
      await catalog.createHandMadeProduct(m.id, { name, price: Number(price.replace(',', '.')), unit, categoryId });
      return reply.redirect(back(m.id, 'product', name), 303);
    },
  );

  app.post(
    '/merchants/:merchantId/catalog/categories',
    allow('admin', 'catalog.createCategory'),
    async (request, reply) => {
      const m = await merchants.requireMerchant(merchantIdOf(request));
      const { name } = readForm(request, CategoryForm);
      await catalog.createHandMadeCategory(m.id, { name });
      return reply.redirect(back(m.id, 'category', name), 303);
    },
  );

  app.post('/merchants/:merchantId/catalog/pull', allow('support', 'catalog.pull'), async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const id = await catalog.requestPull(m.id, m.get_merchant_base_url !== null);
    return reply.redirect(back(m.id, 'pull', id), 303);
  });
};
