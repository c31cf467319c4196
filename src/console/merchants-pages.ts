// Merchants: who is live, how each is integrated (webhook, keys, last seen), and onboarding by
// hand: create a merchant, create an integration key (secret shown once), switch status.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { page as cursorPage, encodeTimeCursor } from '../lib/cursor.js';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { INTEGRATION_PROFILES, type IntegrationProfile } from '../modules/auth/index.js';
import type { MerchantRow } from '../modules/merchants/index.js';
import { lastDays, lines, stackedBars } from './charts.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { homologationSection } from './homologation-pages.js';
import { badge, type Html, html, path, query, shortId, time } from './html.js';
import { csrfField, page } from './layout.js';
import { choice, merchantIdOf, oneOf, pager, searchText, statusBadge, syncSummary } from './widgets.js';

/** Merchants per page: each row reads its keys and last sync. */
const PAGE = 50;

type KeyRow = Awaited<ReturnType<ConsoleKit['services']['auth']['listIntegrationKeys']>>[number];

/** D27: the profile picker of a key (create form and per-key change). */
function profileOptions(selected: IntegrationProfile): Html {
  return html`${INTEGRATION_PROFILES.map((p) => html`<option${p === selected ? html` selected` : ''}>${p}</option>`)}`;
}

function profileOf(form: Record<string, string | undefined>): IntegrationProfile {
  const profile = form.profile ?? 'cleaver';
  if (!(INTEGRATION_PROFILES as readonly string[]).includes(profile)) {
    throw badRequest(`profile must be one of ${INTEGRATION_PROFILES.join(', ')}`);
  }
  return profile as IntegrationProfile;
}

function webhookState(m: MerchantRow): Html {
  if (!m.orders_webhook_url) return badge('not registered', 'muted');
  if (m.webhook_disabled_at) return html`${badge('disabled', 'bad')} since ${time(m.webhook_disabled_at)}`;
  return badge('registered', 'ok');
}

/** Latest token request of any of the merchant's keys: the closest sign of a POS polling. */
function lastSeen(keys: KeyRow[]): Date | null {
  let latest: Date | null = null;
  for (const k of keys) if (k.last_used_at && (!latest || k.last_used_at > latest)) latest = k.last_used_at;
  return latest;
}

export const merchantsPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, auth, catalog } = kit.services;

  app.get('/merchants', async (request, reply) => {
    const q = queryOf(request);
    const search = searchText(q.q);
    const status = oneOf('status', q.status, ['AVAILABLE', 'UNAVAILABLE'] as const);
    const found = await merchants.listMerchants({ q: search, status, cursor: q.cursor || undefined, limit: PAGE + 1 });
    const { items: rows, next } = cursorPage(found, PAGE, (m) => encodeTimeCursor(m.created_at, m.id));
    const keysOf = new Map<string, KeyRow[]>();
    const syncOf = new Map<string, Record<string, unknown> | null>();
    await Promise.all(
      rows.map(async (m) => {
        const [keys, sync] = await Promise.all([auth.listIntegrationKeys(m.id), catalog.lastSync(m.id)]);
        keysOf.set(m.id, keys);
        syncOf.set(m.id, sync);
      }),
    );
    const filter = html`<form method="get" action="/console/merchants" class="inline-form filters" role="search" aria-label="Find merchants">
  <div class="field"><label for="f-q">Name, id or POS code</label>
    <input id="f-q" name="q" type="search" maxlength="200" value="${search ?? ''}"></div>
  ${choice('f-status', 'status', 'Status', ['AVAILABLE', 'UNAVAILABLE'], status)}
  <button type="submit">Search</button>
</form>`;
    const created = queryOf(request).created;
    const list = rows.length
      ? html`<table class="cards">
  <caption class="visually-hidden">Merchants</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Webhook</th>
    <th scope="col">Keys</th><th scope="col">Last seen</th><th scope="col">Last catalog sync</th></tr></thead>
  <tbody>
  ${rows.map((m) => {
    const keys = keysOf.get(m.id) ?? [];
    return html`<tr>
    <th scope="row" data-label="Name"><a href="${path`/console/merchants/${m.id}`}">${m.name}</a></th>
    <td data-label="Status">${statusBadge(m.status)}</td>
    <td data-label="Webhook">${webhookState(m)}</td>
    <td data-label="Keys">${keys.length}</td>
    <td data-label="Last seen">${time(lastSeen(keys), 'never')}</td>
    <td data-label="Catalog sync">${syncSummary(syncOf.get(m.id) ?? null)}</td>
  </tr>`;
  })}
  </tbody>
</table>`
      : html`<p>${search || status || q.cursor ? 'No merchants match.' : 'No merchants yet.'}</p>`;
    const body = html`${filter}<section aria-labelledby="list-h">
  <h2 id="list-h" class="visually-hidden">Merchants</h2>
  ${list}
  ${pager(request, next)}
</section>
${
  kit.ctx(request).can('POST /console/merchants')
    ? html`<section aria-labelledby="create-h" class="panel">
  <h2 id="create-h">Create a merchant</h2>
  <form method="post" action="/console/merchants" class="inline-form">
    ${csrfField(kit.ctx(request).csrfToken)}
    <div class="field"><label for="m-name">Name</label>
      <input id="m-name" name="name" required maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="m-status">Status</label>
      <select id="m-status" name="status"><option>AVAILABLE</option><option>UNAVAILABLE</option></select></div>
    <button type="submit">Create merchant</button>
  </form>
</section>`
    : ''
}`;
    return kit.send(
      reply,
      page(
        kit.ctx(request),
        { title: 'Merchants', active: 'merchants', notice: created ? 'Merchant created.' : '' },
        body,
      ),
    );
  });

  app.post('/merchants', async (request, reply) => {
    const form = formOf(request);
    const name = (form.name ?? '').trim();
    if (!name) throw badRequest('name must not be empty');
    if (name.length > 200) throw badRequest('name must be at most 200 characters');
    const status = form.status === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE';
    const row = await merchants.createMerchant({ name, status });
    return reply.redirect(path`/console/merchants/${row.id}` + '?created=1', 303);
  });

  async function merchantPage(request: FastifyRequest, secret?: Html): Promise<Html> {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const keys = await auth.listIntegrationKeys(m.id);
    const q = queryOf(request);
    const csrf = csrfField(kit.ctx(request).csrfToken);
    const keyName = (id: string | null) => keys.find((k) => k.id === id)?.name;
    // Merchant status and integration keys are admin actions (docs/security.md).
    const admin = kit.ctx(request).can('POST /console/merchants/:merchantId/keys');
    // D28: the path follows the profile of the key that registered the URL.
    const webhookPath =
      keys.find((k) => k.id === m.webhook_key_id)?.profile === 'opendelivery' ? '/v1/newEvent' : '/v1/orderUpdate';
    const notice = q.created ? 'Merchant created.' : q.updated ? 'Merchant updated.' : q.deleted ? 'Key deleted.' : '';
    const body = html`${secret ?? ''}
<section aria-labelledby="summary-h" class="panel">
  <h2 id="summary-h">Summary</h2>
  <dl class="facts">
    <div><dt>Id</dt><dd><code>${m.id}</code></dd></div>
    <div><dt>Status</dt><dd>${statusBadge(m.status)}</dd></div>
    <div><dt>Created</dt><dd>${time(m.created_at)}</dd></div>
    <div><dt>Last seen</dt><dd>${time(lastSeen(keys), 'never')}</dd></div>
  </dl>
  ${
    admin
      ? html`<form method="post" action="${path`/console/merchants/${m.id}/status`}" class="inline-form">
    ${csrf}
    <div class="field"><label for="m-status">Order receiving</label>
      <select id="m-status" name="status">
        <option${m.status === 'AVAILABLE' ? html` selected` : ''}>AVAILABLE</option>
        <option${m.status === 'UNAVAILABLE' ? html` selected` : ''}>UNAVAILABLE</option>
      </select></div>
    <button type="submit">Save status</button>
  </form>`
      : ''
  }
  <p><a href="/console/orders?merchantId=${m.id}">Orders of this merchant</a></p>
</section>
<section aria-labelledby="onb-h" class="panel">
  <h2 id="onb-h">Integration</h2>
  <dl class="facts">
    <div><dt>Webhook</dt><dd>${webhookState(m)}</dd></div>
    <div><dt>Webhook URL</dt><dd>${m.orders_webhook_url ? html`<code>${m.orders_webhook_url}${webhookPath}</code>` : '—'}</dd></div>
    <div><dt>Webhook signed with</dt><dd>${m.webhook_key_id ? (keyName(m.webhook_key_id) ?? html`${shortId(m.webhook_key_id)} (deleted key)`) : '—'}</dd></div>
    <div><dt>Catalog endpoint</dt><dd>${m.get_merchant_base_url ? html`<code>${m.get_merchant_base_url}</code>` : '—'}</dd></div>
    <div><dt>Onboarded</dt><dd>${time(m.onboarded_at, 'not yet')}</dd></div>
  </dl>
</section>
<section aria-labelledby="keys-h" class="panel">
  <h2 id="keys-h">Integration keys</h2>
  ${
    keys.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Name</th><th scope="col">Key id (client id is the merchant id)</th>
      <th scope="col">Profile</th><th scope="col">Created</th><th scope="col">Last token</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${keys.map(
      (k) => html`<tr><td>${k.name}</td><td>${shortId(k.id)}</td>
      <td><form method="post" action="${path`/console/merchants/${m.id}/keys/${k.id}/profile`}" class="inline-form">
        ${csrf}<label class="visually-hidden" for="p-${k.id}">Profile of key ${k.name}</label>
        <select id="p-${k.id}" name="profile">${profileOptions(k.profile)}</select>
        <button type="submit" class="small">Save<span class="visually-hidden"> profile of key ${k.name}</span></button></form></td>
      <td>${time(k.created_at)}</td>
      <td>${time(k.last_used_at, 'never')}</td>
      <td>${
        admin
          ? html`<form method="post" action="${path`/console/merchants/${m.id}/keys/${k.id}/delete`}" data-confirm="Delete key ${k.name}? Its tokens stop working at once.">
        ${csrf}<button type="submit" class="danger small">Delete<span class="visually-hidden"> key ${k.name}</span></button></form>`
          : ''
      }</td></tr>`,
    )}</tbody></table></div>`
      : html`<p>No integration keys.</p>`
  }
  ${
    admin
      ? html`<form method="post" action="${path`/console/merchants/${m.id}/keys`}" class="inline-form">
    ${csrf}
    <div class="field"><label for="k-name">Key name (optional)</label>
      <input id="k-name" name="name" maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="k-profile">Profile</label>
      <select id="k-profile" name="profile">${profileOptions('cleaver')}</select></div>
    <button type="submit">Create integration key</button>
  </form>`
      : ''
  }
</section>
${await extraMerchantSections(kit, request, m)}
${await homologationSection(kit, request, m.id, keys)}`;
    return page(kit.ctx(request), { title: m.name, active: 'merchants', notice }, body);
  }

  app.get('/merchants/:merchantId', async (request, reply) => kit.send(reply, await merchantPage(request)));

  app.post('/merchants/:merchantId/status', async (request, reply) => {
    const id = merchantIdOf(request);
    const status = formOf(request).status;
    if (status !== 'AVAILABLE' && status !== 'UNAVAILABLE') throw badRequest('status must be AVAILABLE or UNAVAILABLE');
    await merchants.updateMerchant(id, { status });
    return reply.redirect(path`/console/merchants/${id}` + '?updated=1', 303);
  });

  app.post('/merchants/:merchantId/keys', async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const form = formOf(request);
    const name = (form.name ?? '').trim();
    if (name.length > 200) throw badRequest('name must be at most 200 characters');
    const key = await auth.createIntegrationKey(m.id, name || undefined, profileOf(form));
    // Shown once, in this answer only (never stored in clear, never in a URL).
    const secret = html`<section aria-labelledby="secret-h" class="panel secret">
  <h2 id="secret-h">New integration key: copy the secret now</h2>
  <p>The client secret is shown only this once. Give both values to the POS developer.</p>
  <dl class="facts">
    <div><dt>client_id</dt><dd><code id="client-id">${key.clientId}</code></dd></div>
    <div><dt>client_secret</dt><dd><code id="client-secret" class="wrap">${key.clientSecret}</code>
      <button type="button" class="small" data-copy="client-secret">Copy</button></dd></div>
    <div><dt>Key</dt><dd>${key.name} (${shortId(key.keyId)}), profile ${key.profile}</dd></div>
  </dl>
</section>`;
    reply.header('cache-control', 'no-store');
    return kit.send(reply, await merchantPage(request, secret), 201);
  });

  // D27: the key's next request speaks the new profile.
  app.post('/merchants/:merchantId/keys/:keyId/profile', async (request, reply) => {
    const id = merchantIdOf(request);
    const keyId = (request.params as { keyId: string }).keyId;
    await merchants.requireMerchant(id);
    const profile = profileOf(formOf(request));
    if (!isUuid(keyId) || !(await auth.setIntegrationKeyProfile(id, keyId, profile))) {
      throw notFound('Integration key not found');
    }
    return reply.redirect(path`/console/merchants/${id}` + '?updated=1', 303);
  });

  app.post('/merchants/:merchantId/keys/:keyId/delete', async (request, reply) => {
    const id = merchantIdOf(request);
    const keyId = (request.params as { keyId: string }).keyId;
    await merchants.requireMerchant(id);
    if (!isUuid(keyId) || !(await auth.deleteIntegrationKey(id, keyId))) throw notFound('Integration key not found');
    return reply.redirect(path`/console/merchants/${id}` + '?deleted=1', 303);
  });
};

/** Days the merchant page's charts cover. */
const CHART_DAYS = 14;

/** Sections other modules contribute to the merchant page (catalog, webhooks) when they exist. */
async function extraMerchantSections(kit: ConsoleKit, request: FastifyRequest, m: MerchantRow): Promise<Html> {
  const zone = kit.ctx(request).timeZone ?? 'UTC';
  const since = new Date(Date.now() - CHART_DAYS * 86_400_000);
  const [counts, categories, last, failing, attempts] = await Promise.all([
    kit.services.catalog.productCounts(m.id),
    kit.services.catalog.categoryCounts(m.id),
    kit.services.catalog.lastSync(m.id),
    kit.services.webhooks.countDeliveries(m.id, 'FAILED', 1000),
    kit.services.webhooks.attemptsByDay(m.id, since, zone),
  ]);
  const days = lastDays(CHART_DAYS, zone);
  const byDay = new Map(attempts.map((a) => [a.day, a]));
  const total = attempts.reduce((n, a) => n + a.attempts, 0);
  const ok = attempts.reduce((n, a) => n + a.ok, 0);
  const charts = total
    ? html`<p>Last ${CHART_DAYS} days: ${total} attempts, ${((100 * ok) / total).toFixed(1)}% answered 2xx.</p>
  ${stackedBars('Webhook attempts per day', days, [
    { label: 'answered 2xx', colour: '#2e7d32', values: days.map((d) => byDay.get(d)?.ok ?? 0) },
    {
      label: 'failed',
      colour: '#c62828',
      values: days.map((d) => (byDay.get(d)?.attempts ?? 0) - (byDay.get(d)?.ok ?? 0)),
    },
  ])}
  ${lines(
    'Webhook latency per day',
    days,
    [
      { label: 'median', colour: '#1565c0', values: days.map((d) => byDay.get(d)?.p50 ?? null) },
      { label: '95th percentile', colour: '#ef6c00', values: days.map((d) => byDay.get(d)?.p95 ?? null) },
    ],
    ' ms',
  )}`
    : html`<p class="muted">No webhook attempt in the last ${CHART_DAYS} days.</p>`;
  const webhooks = html`<section aria-labelledby="webhooks-h" class="panel">
  <h2 id="webhooks-h">Webhook deliveries</h2>
  <p>${failing ? badge(`${failing}${failing === 1000 ? '+' : ''} failed`, 'bad') : badge('none failed', 'ok')}
    <a href="/console/webhooks${query({ merchantId: m.id })}">Deliveries of this merchant</a></p>
  ${charts}
</section>`;
  return html`${webhooks}<section aria-labelledby="catalog-h" class="panel">
  <h2 id="catalog-h">Catalog</h2>
  <dl class="facts">
    <div><dt>Categories</dt><dd>${categories.length}</dd></div>
    <div><dt>Products</dt><dd>${counts.total} (${counts.available} available)</dd></div>
    <div><dt>Last sync</dt><dd>${syncSummary(last)}</dd></div>
  </dl>
  ${last?.moreInfo ? html`<p class="wrap">${String(last.moreInfo)}</p>` : ''}
  <p><a href="${path`/console/merchants/${m.id}/catalog`}">Catalog and sync history</a></p>
</section>`;
}
