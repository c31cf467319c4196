// A merchant's catalog as the marketplace sees it (categories and products, linked to the POS or
// made by hand) and its sync history, each sync's moreInfo with what was discarded and why.
import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { productHref } from './butchery-pages.js';
import { lastDays, stackedBars } from './charts.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { badge, type Html, html, money, path, query, time } from './html.js';
import { csrfField, page } from './layout.js';
import { choice, merchantIdOf, oneOf, pager, searchText, statusBadge, syncBadge } from './widgets.js';

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

const origin = (pdvId: string | null) =>
  pdvId === null ? badge('hand-made', 'muted') : html`${badge('POS', 'info')} <code>${pdvId}</code>`;

function discardedOf(sync: SyncView): Discarded[] {
  const details = sync.details as { discarded?: Discarded[] } | null;
  return Array.isArray(details?.discarded) ? details.discarded : [];
}

function syncEntry(sync: SyncView): Html {
  const discarded = discardedOf(sync);
  return html`<li class="delivery">
  <div>${syncBadge(sync.status)} <strong>${sync.source === 'PULL' ? 'Pull' : 'Upload'}</strong>
    ${sync.entityType ? html`of ${sync.entityType}` : ''} · received ${time(sync.receivedAt)}
    ${sync.finishedAt ? html`· finished ${time(sync.finishedAt)}` : ''}
    ${sync.attempts > 1 ? html`· ${sync.attempts} attempts` : ''}</div>
  ${sync.moreInfo ? html`<p class="wrap">${sync.moreInfo}</p>` : sync.status === 'PROCESSING' ? html`<p class="muted">Waiting to be processed.</p>` : ''}
  ${
    discarded.length
      ? html`<details><summary>${discarded.length} discarded object${discarded.length === 1 ? '' : 's'}</summary>
    <div class="table-wrap"><table><thead><tr><th scope="col">Kind</th><th scope="col">POS id</th><th scope="col">Position</th><th scope="col">Why</th></tr></thead>
    <tbody>${discarded
      .slice(0, DISCARDED_SHOWN)
      .map(
        (d) => html`<tr><td>${d.kind}</td><td>${d.id ?? '—'}</td><td>${d.index}</td><td>${d.reason}</td></tr>`,
      )}</tbody></table></div>
    ${discarded.length > DISCARDED_SHOWN ? html`<p class="muted">and ${discarded.length - DISCARDED_SHOWN} more.</p>` : ''}
  </details>`
      : ''
  }
</li>`;
}

export const catalogPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog } = kit.services;

  app.get('/merchants/:merchantId/catalog', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const q = queryOf(request);
    const search = searchText(q.q);
    const status = oneOf('status', q.status, ['AVAILABLE', 'UNAVAILABLE'] as const);
    const categoryId = q.categoryId || undefined;
    if (categoryId && !isUuid(categoryId)) throw badRequest('categoryId must be a uuid');
    // Server-side pages: a 50,000-product catalog is never read, let alone rendered, whole.
    const zone = kit.ctx(request).timeZone ?? 'UTC';
    const [categories, total, products, syncs, syncDays] = await Promise.all([
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
    ]);
    const days = lastDays(CHART_DAYS, zone);
    const perDay = new Map(syncDays.map((d) => [d.day, d]));
    const outcomes = syncDays.length
      ? stackedBars(`Catalog syncs per day, last ${CHART_DAYS} days`, days, [
          { label: 'SUCCESS', colour: '#2e7d32', values: days.map((d) => perDay.get(d)?.success ?? 0) },
          { label: 'FAIL', colour: '#c62828', values: days.map((d) => perDay.get(d)?.fail ?? 0) },
          { label: 'PROCESSING', colour: '#f9a825', values: days.map((d) => perDay.get(d)?.processing ?? 0) },
        ])
      : '';
    const csrf = csrfField(kit.ctx(request).csrfToken);
    const base = path`/console/merchants/${m.id}/catalog`;
    const filter = html`<form method="get" action="${base}" class="inline-form filters" role="search" aria-label="Find products">
  <div class="field"><label for="p-q">Name, POS id or code</label>
    <input id="p-q" name="q" type="search" maxlength="200" value="${search ?? ''}"></div>
  <div class="field"><label for="p-category">Category</label>
    <select id="p-category" name="categoryId"><option value="">Any</option>
    ${categories.map((c) => html`<option value="${c.id}"${c.id === categoryId ? html` selected` : ''}>${c.name} (${c.products})</option>`)}
    </select></div>
  ${choice('p-status', 'status', 'Status', ['AVAILABLE', 'UNAVAILABLE'], status)}
  <button type="submit">Search</button>
</form>`;
    const productTable = products.items.length
      ? html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Products by name</caption>
  <thead><tr><th scope="col">Product</th><th scope="col" class="num">Price</th><th scope="col">Unit</th>
    <th scope="col">Status</th><th scope="col">Origin</th><th scope="col">Code</th></tr></thead>
  <tbody>${products.items.map(
    (
      p,
    ) => html`<tr><td><a href="${productHref(m.id, p.id)}">${p.name}</a>${p.description ? html`<br><span class="muted small">${p.description}</span>` : ''}</td>
    <td class="num">${money(p.price)}</td><td>${p.unit}</td><td>${statusBadge(p.status)}</td>
    <td>${origin(p.pdv_external_id)}</td><td><code>${p.external_code}</code></td></tr>`,
  )}</tbody></table></div>`
      : html`<p class="muted">${total ? 'No products match.' : 'The catalog is empty.'}</p>`;
    const body = html`<p><a href="${path`/console/merchants/${m.id}`}">← ${m.name}</a> · ${total} products in ${categories.length} categories</p>
<section aria-labelledby="cat-h" class="panel">
  <h2 id="cat-h">Products</h2>
  ${filter}
  ${productTable}
  ${pager(request, products.next)}
  <details><summary>Categories</summary>
  <ul class="plain">${categories.map(
    (c) =>
      html`<li><a href="${base}${query({ categoryId: c.id })}">${c.name}</a> ${statusBadge(c.status)} ${origin(c.pdv_external_id)} · ${c.products} products</li>`,
  )}</ul></details>
</section>
${
  kit.ctx(request).can('POST /console/merchants/:merchantId/catalog/products')
    ? html`<section aria-labelledby="hand-h" class="panel">
  <h2 id="hand-h">Add by hand</h2>
  <p class="muted small">Hand-made entries are not linked to the POS; a POS upload never removes them.</p>
  <form method="post" action="${path`/console/merchants/${m.id}/catalog/products`}" class="inline-form">${csrf}
    <div class="field"><label for="p-name">Product name</label><input id="p-name" name="name" required maxlength="300"></div>
    <div class="field"><label for="p-price">Price (BRL)</label><input id="p-price" name="price" required inputmode="decimal" pattern="[0-9]+([.,][0-9]{1,2})?"></div>
    <div class="field"><label for="p-unit">Unit</label><select id="p-unit" name="unit"><option>UN</option><option>KG</option></select></div>
    <div class="field"><label for="p-cat">Category</label><select id="p-cat" name="categoryId"><option value="">None</option>
      ${categories.map((c) => html`<option value="${c.id}">${c.name}</option>`)}</select></div>
    <button type="submit">Add product</button>
  </form>
  <form method="post" action="${path`/console/merchants/${m.id}/catalog/categories`}" class="inline-form">${csrf}
    <div class="field"><label for="c-name">Category name</label><input id="c-name" name="name" required maxlength="200"></div>
    <button type="submit">Add category</button>
  </form>
</section>`
    : ''
}
<section aria-labelledby="sync-h" class="panel">
  <h2 id="sync-h">Sync history</h2>
  ${outcomes}
  ${
    m.get_merchant_base_url && kit.ctx(request).can('POST /console/merchants/:merchantId/catalog/pull')
      ? html`<form method="post" action="${path`/console/merchants/${m.id}/catalog/pull`}" class="inline-form">${csrf}
    <button type="submit">Pull the catalog from the POS now</button></form>`
      : m.get_merchant_base_url
        ? ''
        : html`<p class="muted small">No catalog endpoint registered: the POS uploads its catalog.</p>`
  }
  ${syncs.length ? html`<ol class="plain">${syncs.map(syncEntry)}</ol>` : html`<p>No catalog sync yet.</p>`}
  ${syncs.length === SYNCS_SHOWN ? html`<p class="muted">The newest ${SYNCS_SHOWN}.</p>` : ''}
</section>`;
    return kit.send(
      reply,
      page(
        kit.ctx(request),
        { title: `Catalog of ${m.name}`, active: 'merchants', notice: q.done ? `Done: ${q.done}.` : '' },
        body,
      ),
    );
  });

  const back = (id: string, done: string) => path`/console/merchants/${id}/catalog` + query({ done });

  app.post('/merchants/:merchantId/catalog/products', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const form = formOf(request);
    const name = (form.name ?? '').trim();
    if (!name || name.length > 300) throw badRequest('name must be 1 to 300 characters');
    const priceText = (form.price ?? '').trim().replace(',', '.');
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(priceText)) throw badRequest('price must be an amount such as 12.90');
    const unit = form.unit;
    if (unit !== 'KG' && unit !== 'UN') throw badRequest('unit must be KG or UN');
    const categoryId = form.categoryId || undefined;
    if (categoryId !== undefined && !isUuid(categoryId))
      throw badRequest('categoryId is not a category of this merchant');
    await catalog.createHandMadeProduct(m.id, { name, price: Number(priceText), unit, categoryId });
    return reply.redirect(back(m.id, `product ${name} added`), 303);
  });

  app.post('/merchants/:merchantId/catalog/categories', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const name = (formOf(request).name ?? '').trim();
    if (!name || name.length > 200) throw badRequest('name must be 1 to 200 characters');
    await catalog.createHandMadeCategory(m.id, { name });
    return reply.redirect(back(m.id, `category ${name} added`), 303);
  });

  app.post('/merchants/:merchantId/catalog/pull', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const id = await catalog.requestPull(m.id, m.get_merchant_base_url !== null);
    return reply.redirect(back(m.id, `pull ${id.slice(0, 8)} queued`), 303);
  });
};
