// Merchants: who is live, how each is integrated (the webhook endpoint's health, keys, last
// seen), the operator notices about it, and onboarding by hand: create a merchant, create an
// integration key (secret shown once), switch status.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { page as cursorPage, encodeTimeCursor } from '../lib/cursor.js';
import { isUuid } from '../lib/ids.js';
import {
  CreateIntegrationKeyBody,
  CreateMerchantBody,
  UpdateIntegrationKeyBody,
  UpdateMerchantBody,
} from '../modules/admin-api/index.js';
import { INTEGRATION_PROFILES, type IntegrationProfile } from '../modules/auth/index.js';
import type { MerchantRow } from '../modules/merchants/index.js';
import { availabilityNotice, storePausePanel } from './availability-pages.js';
import { lastDays, lines, stackedBars } from './charts.js';
import { allow } from './console-access.js';
import { notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { homologationSection } from './homologation-pages.js';
import { badge, type Html, html, path, query, time } from './html.js';
import { number, percent } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import { noticeList } from './notices-pages.js';
import { type EndpointHealth, endpointAdvice, endpointBadge, endpointFacts } from './webhooks-pages.js';
import { scaleLabelsPanel } from './weighing-approval-pages.js';
import { choice, merchantIdOf, oneOf, pager, searchText, statusBadge, syncSummary } from './widgets.js';

/** Merchants per page: each row reads its keys and last sync. */
const PAGE = 50;
/** Notices shown on a merchant's page (the notices page has them all). */
const NOTICES_SHOWN = 5;

type KeyRow = Awaited<ReturnType<ConsoleKit['services']['auth']['listIntegrationKeys']>>[number];

/** D27: the profile picker of a key (create form and per-key change). */
function profileOptions(selected: IntegrationProfile): Html {
  return html`${INTEGRATION_PROFILES.map((p) => html`<option${p === selected ? html` selected` : ''}>${p}</option>`)}`;
}

/** The status form: the status of PATCH /admin/v1/merchants/{id}, required here. */
const StatusForm = Type.Required(Type.Pick(UpdateMerchantBody, ['status']));
/** The profile form: a key's profile as the API's PATCH takes it, `cleaver` when not sent. */
const ProfileForm = Type.Partial(UpdateIntegrationKeyBody);

/** Latest token request of any of the merchant's keys: the closest sign of a POS polling. */
function lastSeen(keys: KeyRow[]): Date | null {
  let latest: Date | null = null;
  for (const k of keys) if (k.last_used_at && (!latest || k.last_used_at > latest)) latest = k.last_used_at;
  return latest;
}

const NOTICE_KEYS = ['created', 'updated', 'deleted'] as const;

export const merchantsPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, auth, catalog, webhooks } = kit.services;

  app.get('/merchants', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const m = t.merchants;
    const q = queryOf(request);
    const search = searchText(q.q);
    const status = oneOf((x) => x.common.status, q.status, ['AVAILABLE', 'UNAVAILABLE'] as const);
    const found = await merchants.listMerchants({ q: search, status, cursor: q.cursor || undefined, limit: PAGE + 1 });
    const { items: rows, next } = cursorPage(found, PAGE, (r) => encodeTimeCursor(r.created_at, r.id));
    const keysOf = new Map<string, KeyRow[]>();
    const syncOf = new Map<string, Record<string, unknown> | null>();
    const [health] = await Promise.all([
      webhooks.endpointHealth(rows.map((r) => r.id)),
      ...rows.map(async (r) => {
        const [keys, sync] = await Promise.all([auth.listIntegrationKeys(r.id), catalog.lastSync(r.id)]);
        keysOf.set(r.id, keys);
        syncOf.set(r.id, sync);
      }),
    ]);
    const healthOf = new Map(health.map((h) => [h.merchantId, h]));
    const filter = html`<form method="get" action="/console/merchants" class="inline-form filters" role="search" aria-label="${m.findLabel}">
  <div class="field"><label for="f-q">${m.searchLabel}</label>
    <input id="f-q" name="q" type="search" maxlength="200" value="${search ?? ''}"></div>
  ${choice(t, 'f-status', 'status', t.common.status, ['AVAILABLE', 'UNAVAILABLE'], status, t.codes.merchantStatus)}
  <button type="submit">${t.common.search}</button>
</form>`;
    const list = rows.length
      ? html`<table class="cards">
  <caption class="visually-hidden">${t.sections.merchants}</caption>
  <thead><tr><th scope="col">${t.common.name}</th><th scope="col">${t.common.status}</th><th scope="col">${m.webhook}</th>
    <th scope="col" class="num">${m.keys}</th><th scope="col">${m.lastSeen}</th><th scope="col">${m.lastSync}</th></tr></thead>
  <tbody>
  ${rows.map((r) => {
    const keys = keysOf.get(r.id) ?? [];
    return html`<tr>
    <th scope="row" data-label="${t.common.name}"><a href="${path`/console/merchants/${r.id}`}">${r.name}</a></th>
    <td data-label="${t.common.status}">${statusBadge(t, r.status)}</td>
    <td data-label="${m.webhook}">${endpointBadge(t, r.orders_webhook_url !== null, healthOf.get(r.id))}</td>
    <td data-label="${m.keys}" class="num">${keys.length}</td>
    <td data-label="${m.lastSeen}">${time(lastSeen(keys), t.common.never)}</td>
    <td data-label="${m.lastSync}">${syncSummary(t, syncOf.get(r.id) ?? null)}</td>
  </tr>`;
  })}
  </tbody>
</table>`
      : html`<p>${search || status || q.cursor ? m.noneMatch : m.none}</p>`;
    const body = html`${filter}<section aria-labelledby="list-h">
  <h2 id="list-h" class="visually-hidden">${t.sections.merchants}</h2>
  ${list}
  ${pager(t, request, next)}
</section>
${
  ctx.can('POST /console/merchants')
    ? html`<section aria-labelledby="create-h" class="panel">
  <h2 id="create-h">${m.createHeading}</h2>
  <form method="post" action="/console/merchants" class="inline-form">
    ${csrfField(ctx.csrfToken)}
    <div class="field"><label for="m-name">${t.common.name}</label>
      <input id="m-name" name="name" required maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="m-status">${t.common.status}</label>
      <select id="m-status" name="status"><option value="AVAILABLE">${t.codes.merchantStatus.AVAILABLE}</option><option value="UNAVAILABLE">${t.codes.merchantStatus.UNAVAILABLE}</option></select></div>
    <button type="submit">${m.create}</button>
  </form>
</section>`
    : ''
}`;
    return kit.send(
      reply,
      page(ctx, { title: t.sections.merchants, active: 'merchants', notice: q.created ? m.done.created : '' }, body),
    );
  });

  app.post('/merchants', allow('admin', 'merchant.create'), async (request, reply) => {
    const { name, status = 'AVAILABLE' } = readForm(request, CreateMerchantBody);
    const row = await merchants.createMerchant({ name, status });
    return reply.redirect(`${path`/console/merchants/${row.id}`}?created=1`, 303);
  });

  async function merchantPage(request: FastifyRequest, secret?: Html): Promise<Html> {
    const ctx = kit.ctx(request);
    const t = ctx.t;
    const mt = t.merchants;
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const [keys, [health]] = await Promise.all([auth.listIntegrationKeys(m.id), webhooks.endpointHealth([m.id])]);
    const q = queryOf(request);
    const csrf = csrfField(ctx.csrfToken);
    const keyName = (id: string | null) => keys.find((k) => k.id === id)?.name;
    // Merchant status and integration keys are admin actions (docs/security.md).
    const admin = ctx.can('POST /console/merchants/:merchantId/keys');
    // D28: the path follows the profile of the key that registered the URL.
    const webhookPath =
      keys.find((k) => k.id === m.webhook_key_id)?.profile === 'opendelivery' ? '/v1/newEvent' : '/v1/orderUpdate';
    const done = NOTICE_KEYS.find((k) => q[k]);
    const registered = m.orders_webhook_url !== null;
    const body = html`${secret ?? ''}
${registered && health ? endpointAdvice(t, health) : ''}
<section aria-labelledby="summary-h" class="panel">
  <h2 id="summary-h">${mt.summary}</h2>
  <dl class="facts">
    <div class="wide"><dt>${mt.id}</dt><dd><code class="wrap">${m.id}</code></dd></div>
    <div><dt>${t.common.status}</dt><dd>${statusBadge(t, m.status)}</dd></div>
    <div><dt>${mt.created}</dt><dd>${time(m.created_at)}</dd></div>
    <div><dt>${mt.lastSeen}</dt><dd>${time(lastSeen(keys), t.common.never)}</dd></div>
  </dl>
  ${
    admin
      ? html`<form method="post" action="${path`/console/merchants/${m.id}/status`}" class="inline-form">
    ${csrf}
    <div class="field"><label for="m-status">${mt.orderReceiving}</label>
      <select id="m-status" name="status">
        <option value="AVAILABLE"${m.status === 'AVAILABLE' ? html` selected` : ''}>${t.codes.merchantStatus.AVAILABLE}</option>
        <option value="UNAVAILABLE"${m.status === 'UNAVAILABLE' ? html` selected` : ''}>${t.codes.merchantStatus.UNAVAILABLE}</option>
      </select></div>
    <button type="submit">${mt.saveStatus}</button>
  </form>`
      : ''
  }
  <p class="links"><a href="/console/orders${query({ merchantId: m.id })}">${mt.ordersLink}</a>
    · <a href="/console/webhooks${query({ merchantId: m.id })}">${mt.deliveriesLink}</a>
    · <a href="/console/notices${query({ merchantId: m.id })}">${mt.noticesLink}</a></p>
</section>
<section aria-labelledby="onb-h" class="panel">
  <h2 id="onb-h">${mt.integration}</h2>
  ${registered && health ? endpointFacts(t, health, true) : html`<dl class="facts"><div><dt>${t.webhooks.endpoint}</dt><dd>${endpointBadge(t, false, undefined)}</dd></div></dl>`}
  <dl class="facts">
    <div class="wide"><dt>${mt.webhookUrl}</dt><dd>${m.orders_webhook_url ? html`<code class="wrap">${m.orders_webhook_url}${webhookPath}</code>` : '—'}</dd></div>
    <div><dt>${mt.signedWith}</dt><dd>${m.webhook_key_id ? (keyName(m.webhook_key_id) ?? html`<code class="wrap">${m.webhook_key_id}</code> (${mt.deletedKey})`) : '—'}</dd></div>
    <div class="wide"><dt>${mt.catalogEndpoint}</dt><dd>${m.get_merchant_base_url ? html`<code class="wrap">${m.get_merchant_base_url}</code>` : '—'}</dd></div>
    <div><dt>${mt.onboarded}</dt><dd>${time(m.onboarded_at, mt.notYet)}</dd></div>
  </dl>
</section>
${keysSection(ctx, m, keys, admin)}
${scaleLabelsPanel(ctx, m)}
${storePausePanel(kit, ctx, m)}
${await noticesSection(ctx, m)}
${await extraMerchantSections(kit, ctx, m, health)}
${await homologationSection(kit, request, m.id, keys)}`;
    return page(
      ctx,
      { title: m.name, active: 'merchants', notice: done ? mt.done[done] : availabilityNotice(t, q) },
      body,
    );
  }

  /** The merchant's keys: a table on a desk, one card per key on a phone (table.cards). */
  function keysSection(ctx: PageContext, m: MerchantRow, keys: KeyRow[], admin: boolean): Html {
    const t = ctx.t;
    const mt = t.merchants;
    const csrf = csrfField(ctx.csrfToken);
    return html`<section aria-labelledby="keys-h" class="panel">
  <h2 id="keys-h">${mt.keysHeading}</h2>
  ${
    keys.length
      ? html`<table class="cards keys">
    <caption class="visually-hidden">${mt.keysHeading}</caption>
    <thead><tr><th scope="col">${t.common.name}</th><th scope="col">${mt.keyId}</th>
      <th scope="col">${mt.profile}</th><th scope="col">${mt.created}</th><th scope="col">${mt.lastToken}</th>${admin ? html`<th scope="col"><span class="visually-hidden">${t.common.actions}</span></th>` : ''}</tr></thead>
    <tbody>${keys.map(
      (
        k,
      ) => html`<tr><th scope="row" data-label="${t.common.name}"><a href="${path`/console/merchants/${m.id}/keys/${k.id}`}" title="${t.keys.viewRequests(k.name)}">${k.name}</a></th><td data-label="${mt.keyId}"><code class="wrap">${k.id}</code></td>
      <td data-label="${mt.profile}">${
        admin
          ? html`<form method="post" action="${path`/console/merchants/${m.id}/keys/${k.id}/profile`}" class="row-form">
        ${csrf}<label class="visually-hidden" for="p-${k.id}">${mt.profileOf(k.name)}</label>
        <select id="p-${k.id}" name="profile">${profileOptions(k.profile)}</select>
        <button type="submit" class="small">${t.common.save}<span class="visually-hidden"> ${mt.profileOf(k.name)}</span></button></form>`
          : html`<code>${k.profile}</code>`
      }</td>
      <td data-label="${mt.created}">${time(k.created_at)}</td>
      <td data-label="${mt.lastToken}">${time(k.last_used_at, t.common.never)}</td>
      ${
        admin
          ? html`<td class="row-actions"><form method="post" action="${path`/console/merchants/${m.id}/keys/${k.id}/delete`}" data-confirm="${mt.deleteConfirm(k.name)}">
        ${csrf}<button type="submit" class="danger small">${t.common.delete}<span class="visually-hidden"> ${mt.keyNamed(k.name)}</span></button></form></td>`
          : ''
      }</tr>`,
    )}</tbody></table>
    <p class="muted small">${mt.clientIdHint}</p>`
      : html`<p>${mt.noKeys}</p>`
  }
  ${
    admin
      ? html`<form method="post" action="${path`/console/merchants/${m.id}/keys`}" class="inline-form">
    ${csrf}
    <div class="field"><label for="k-name">${mt.keyName}</label>
      <input id="k-name" name="name" maxlength="200" autocomplete="off"></div>
    <div class="field"><label for="k-profile">${mt.profile}</label>
      <select id="k-profile" name="profile">${profileOptions('cleaver')}</select></div>
    <button type="submit">${mt.createKey}</button>
  </form>`
      : ''
  }
</section>`;
  }

  /** The last notices about this merchant (the notices page has them all). */
  async function noticesSection(ctx: PageContext, m: MerchantRow): Promise<Html> {
    const t = ctx.t;
    const { items } = await kit.services.notices.list({ merchantId: m.id, limit: NOTICES_SHOWN });
    return html`<section aria-labelledby="notices-h" class="panel">
  <h2 id="notices-h">${t.merchants.noticesHeading}</h2>
  ${items.length ? noticeList(t, items) : html`<p class="muted">${t.notices.noneForMerchant}</p>`}
  ${items.length === NOTICES_SHOWN ? html`<p><a href="/console/notices${query({ merchantId: m.id })}">${t.merchants.noticesLink}</a></p>` : ''}
</section>`;
  }

  app.get('/merchants/:merchantId', allow('viewer'), async (request, reply) =>
    kit.send(reply, await merchantPage(request)),
  );

  app.post('/merchants/:merchantId/status', allow('admin', 'merchant.update'), async (request, reply) => {
    const id = merchantIdOf(request);
    const { status } = readForm(request, StatusForm);
    await merchants.updateMerchant(id, { status });
    return reply.redirect(`${path`/console/merchants/${id}`}?updated=1`, 303);
  });

  app.post('/merchants/:merchantId/keys', allow('admin', 'integrationKey.create'), async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const { name, profile = 'cleaver' } = readForm(request, CreateIntegrationKeyBody);
    const key = await auth.createIntegrationKey(m.id, name, profile);
    const t = kit.ctx(request).t.merchants;
    // Shown once, in this answer only (never stored in clear, never in a URL).
    const secret = html`<section aria-labelledby="secret-h" class="panel secret">
  <h2 id="secret-h">${t.secretHeading}</h2>
  <p>${t.secretHelp}</p>
  <dl class="facts">
    <div class="wide"><dt>client_id</dt><dd><code id="client-id" class="wrap">${key.clientId}</code></dd></div>
    <div class="wide"><dt>client_secret</dt><dd><code id="client-secret" class="wrap">${key.clientSecret}</code>
      <button type="button" class="small" data-copy="client-secret">${kit.ctx(request).t.common.copy}</button></dd></div>
    <div class="wide"><dt>${t.key}</dt><dd>${t.keySummary(key.name, key.profile)} <code class="wrap">${key.keyId}</code></dd></div>
  </dl>
</section>`;
    reply.header('cache-control', 'no-store');
    return kit.send(reply, await merchantPage(request, secret), 201);
  });

  /** The merchant of a key form's path (404 page when it does not exist) and the key's id as sent. */
  const keyFormTarget = async (request: FastifyRequest) => {
    const id = merchantIdOf(request);
    await merchants.requireMerchant(id);
    return { id, keyId: (request.params as { keyId: string }).keyId };
  };

  // D27: the key's next request speaks the new profile.
  app.post(
    '/merchants/:merchantId/keys/:keyId/profile',
    allow('admin', 'integrationKey.update'),
    async (request, reply) => {
      const { id, keyId } = await keyFormTarget(request);
      const { profile = 'cleaver' } = readForm(request, ProfileForm);
      if (!isUuid(keyId) || !(await auth.setIntegrationKeyProfile(id, keyId, profile))) {
        throw notFoundPage((t) => t.errors.keyNotFound);
      }
      return reply.redirect(`${path`/console/merchants/${id}`}?updated=1`, 303);
    },
  );

  app.post(
    '/merchants/:merchantId/keys/:keyId/delete',
    allow('admin', 'integrationKey.revoke'),
    async (request, reply) => {
      const { id, keyId } = await keyFormTarget(request);
      if (!isUuid(keyId) || !(await auth.deleteIntegrationKey(id, keyId)))
        throw notFoundPage((t) => t.errors.keyNotFound);
      return reply.redirect(`${path`/console/merchants/${id}`}?deleted=1`, 303);
    },
  );
};

/** Days the merchant page's charts cover. */
const CHART_DAYS = 14;

/** Sections other modules contribute to the merchant page (webhooks, catalog) when they exist. */
async function extraMerchantSections(
  kit: ConsoleKit,
  ctx: PageContext,
  m: MerchantRow,
  health: EndpointHealth | undefined,
): Promise<Html> {
  const t = ctx.t;
  const mt = t.merchants;
  const zone = ctx.timeZone ?? 'UTC';
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
    ? html`<p>${mt.attemptsSummary(CHART_DAYS, number(total, ctx.lang), percent(ok, total, ctx.lang))}</p>
  ${stackedBars(ctx, mt.chartAttempts, days, [
    { label: mt.answered2xx, colour: '#2e7d32', values: days.map((d) => byDay.get(d)?.ok ?? 0) },
    {
      label: mt.failed,
      colour: '#c62828',
      values: days.map((d) => (byDay.get(d)?.attempts ?? 0) - (byDay.get(d)?.ok ?? 0)),
    },
  ])}
  ${lines(
    ctx,
    mt.chartLatency,
    days,
    [
      { label: mt.median, colour: '#1565c0', values: days.map((d) => byDay.get(d)?.p50 ?? null) },
      { label: mt.p95, colour: '#ef6c00', values: days.map((d) => byDay.get(d)?.p95 ?? null) },
    ],
    ' ms',
  )}`
    : html`<p class="muted">${mt.noAttempts(CHART_DAYS)}</p>`;
  // The endpoint's state first: failed deliveries alone say nothing of an endpoint failing now.
  const registered = m.orders_webhook_url !== null;
  const failedText = failing
    ? mt.failedDeliveries(`${number(failing, ctx.lang)}${failing === 1000 ? '+' : ''}`)
    : mt.noFailedDeliveries;
  const webhooks = html`<section aria-labelledby="webhooks-h" class="panel">
  <h2 id="webhooks-h">${mt.deliveriesHeading}</h2>
  <p>${endpointBadge(t, registered, health)} · ${failing ? badge(failedText, 'bad') : html`<span class="muted">${failedText}</span>`}
    · <a href="/console/webhooks${query({ merchantId: m.id })}">${mt.deliveriesLink}</a></p>
  ${charts}
</section>`;
  return html`${webhooks}<section aria-labelledby="catalog-h" class="panel">
  <h2 id="catalog-h">${mt.catalogHeading}</h2>
  <dl class="facts">
    <div><dt>${mt.categories}</dt><dd>${number(categories.length, ctx.lang)}</dd></div>
    <div><dt>${mt.products}</dt><dd>${mt.productCount(number(counts.total, ctx.lang), number(counts.available, ctx.lang))}</dd></div>
    <div><dt>${mt.lastSync}</dt><dd>${syncSummary(t, last)}</dd></div>
  </dl>
  ${last?.moreInfo ? html`<p class="wrap">${String(last.moreInfo)}</p>` : ''}
  <p><a href="${path`/console/merchants/${m.id}/catalog`}">${mt.catalogLink}</a></p>
  <p><a href="${path`/console/merchants/${m.id}/statements`}">${t.statements.link}</a></p>
</section>`;
}
