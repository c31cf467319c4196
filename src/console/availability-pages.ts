// D43, D44 in the console: each product's availability on the catalog page (available, paused
// with its reason and end, out of stock, its counted stock) with the forms that pause, resume and
// count it; the store's timed pause on the merchant page; and a merchant's encomenda slots as a
// calendar (days as columns, slot times as rows), read from the service the operator API's slots
// route uses. Every form posts to a route with the same rule and audit action as its /admin/v1
// twin (admin-availability-routes.ts): `support`.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isUuid } from '../lib/ids.js';
import { PAUSE_REASONS } from '../modules/catalog/index.js';
import type { MerchantRow } from '../modules/merchants/index.js';
import { allow } from './console-access.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, time } from './html.js';
import { localeOf, number, quantity } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import type { Messages } from './messages/en.js';
import { zoneOf } from './time-zone.js';
import { merchantIdOf } from './widgets.js';

type Availability =
  Awaited<ReturnType<ConsoleKit['services']['catalog']['availability']['listForMerchant']>> extends Map<string, infer A>
    ? A
    : never;

/** What a `datetime-local` input sends: a wall time without a zone. */
const LOCAL_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$';
const ItemPauseForm = Type.Object({
  reason: Type.Enum([...PAUSE_REASONS]),
  until: Type.Optional(Type.String({ pattern: LOCAL_TIME })),
});
const StockForm = Type.Object({ quantity: Type.String({ pattern: '^\\d{1,11}([.,]\\d{1,3})?$' }) });
const StorePauseForm = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200 }),
  until: Type.String({ pattern: LOCAL_TIME }),
});
const labels = {
  reason: (t: Messages) => t.availability.reason,
  until: (t: Messages) => t.availability.storeUntil,
  quantity: (t: Messages) => t.availability.setStock,
};

/** Days the calendar shows by default, and at most (the slots route's own limit). */
const CALENDAR_DAYS = 7;
const CALENDAR_DAYS_MAX = 31;
const DAY = 86_400_000;

/** The zone's offset from UTC at `at`, in ms (negative west of Greenwich). */
function offsetAt(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((x) => x.type === type)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - (at - (at % 1000));
}

/** A wall time typed in the operator's zone as an ISO instant (checked again at the result for a DST edge). */
export function instantOfLocal(local: string, zone: string): string | undefined {
  const wall = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  if (Number.isNaN(wall)) return undefined;
  let at = wall - offsetAt(zone, wall);
  at = wall - offsetAt(zone, at);
  return new Date(at).toISOString();
}

/** The catalog's availability cell: what holds now, the stock when counted, and (support) the forms. */
export function availabilityCell(
  ctx: PageContext,
  merchantId: string,
  product: { id: string; name: string; unit: string; status: string },
  a: Availability | undefined,
): Html {
  const t = ctx.t.availability;
  const state = !a
    ? product.status === 'AVAILABLE'
      ? badge(t.available, 'ok')
      : badge(t.unavailable, 'muted')
    : a.available
      ? badge(t.available, 'ok')
      : a.reason === null
        ? badge(t.unavailable, 'muted')
        : a.reason === 'OUT_OF_STOCK' && a.until === null && a.stock !== null
          ? badge(t.outOfStock, 'bad', 'OUT_OF_STOCK')
          : html`${badge(t.paused(t.reasons[a.reason] ?? a.reason), 'warn', a.reason)} <span class="small">${t.until} ${a.until ? time(a.until) : t.noEnd}</span>`;
  const stock = a?.stock
    ? html`<br><span class="small">${t.stock(quantity(a.stock.quantity, product.unit, ctx.lang))}</span>`
    : '';
  if (!ctx.can('POST /console/merchants/:merchantId/products/:productId/pause')) return html`${state}${stock}`;
  const csrf = csrfField(ctx.csrfToken);
  const base = path`/console/merchants/${merchantId}/products/${product.id}`;
  const id = product.id;
  const paused = a !== undefined && !a.available && a.reason !== null;
  return html`${state}${stock}
<details class="small"><summary>${t.change}<span class="visually-hidden"> ${t.changeOf(product.name)}</span></summary>
  <form method="post" action="${base}/pause" class="inline-form">${csrf}
    <div class="field"><label for="r-${id}">${t.reason}</label><select id="r-${id}" name="reason">${PAUSE_REASONS.map(
      (r) => html`<option value="${r}">${t.reasons[r] ?? r}</option>`,
    )}</select></div>
    <div class="field"><label for="u-${id}">${t.untilOptional}</label><input id="u-${id}" name="until" type="datetime-local"></div>
    <button type="submit">${t.pause}</button></form>
  ${paused ? html`<form method="post" action="${base}/resume" class="inline-form">${csrf}<button type="submit">${t.resume}</button></form>` : ''}
  <form method="post" action="${base}/stock" class="inline-form">${csrf}
    <div class="field"><label for="s-${id}">${t.quantity(product.unit)}</label><input id="s-${id}" name="quantity" required inputmode="decimal" pattern="[0-9]+([.,][0-9]{1,3})?"></div>
    <button type="submit">${t.setStock}</button></form>
  <p class="muted small">${t.stockHelp}</p>
</details>`;
}

/** The merchant page's store-pause panel: the pause that holds, the forms, the link to the slots. */
export function storePausePanel(kit: ConsoleKit, ctx: PageContext, m: MerchantRow): Html {
  const t = ctx.t.availability;
  const pause = kit.services.merchants.currentPause(m);
  const csrf = csrfField(ctx.csrfToken);
  const forms = ctx.can('POST /console/merchants/:merchantId/pause')
    ? html`<form method="post" action="${path`/console/merchants/${m.id}/pause`}" class="inline-form">${csrf}
    <div class="field"><label for="sp-reason">${t.storeReason}</label><input id="sp-reason" name="reason" required maxlength="200"></div>
    <div class="field"><label for="sp-until">${t.storeUntil}</label><input id="sp-until" name="until" type="datetime-local" required></div>
    <button type="submit">${t.pauseStore}</button></form>
  ${pause ? html`<form method="post" action="${path`/console/merchants/${m.id}/resume`}" class="inline-form">${csrf}<button type="submit">${t.resumeStore}</button></form>` : ''}`
    : '';
  return html`<section aria-labelledby="pause-h" class="panel">
  <h2 id="pause-h">${t.storeHeading}</h2>
  <p>${pause ? html`${badge(t.storePaused(pause.reason), 'warn')} ${t.until} ${time(pause.until)}` : html`<span class="muted">${t.storeOpen}</span>`}</p>
  <p class="muted small">${t.storeHelp}</p>
  ${forms}
  <p><a href="${path`/console/merchants/${m.id}/slots`}">${t.slotsLink}</a></p>
</section>`;
}

const productIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { productId: string }).productId;
  if (!isUuid(id)) throw notFoundPage((t) => t.butchery.productNotFound);
  return id;
};

/** An instant's day (YYYY-MM-DD) and time (HH:MM) in `zone`. */
function dayAndTime(iso: string, zone: string): { day: string; time: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

export const availabilityPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { merchants, catalog, orders, clock } = kit.services;

  const catalogBack = (merchantId: string, done: string) =>
    path`/console/merchants/${merchantId}/catalog` + query({ availability: done });

  /** The product of a form's path, with the merchant (404 page for either unknown). */
  async function productTarget(request: FastifyRequest) {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const product = await catalog.requireProduct(m.id, productIdOf(request));
    return { m, product };
  }

  const untilOf = (request: FastifyRequest, local: string | undefined) => {
    if (local === undefined) return undefined;
    const at = instantOfLocal(local, zoneOf(request));
    if (!at) throw invalidInput((t) => t.availability.badUntil, 'until');
    return at;
  };

  app.post(
    '/merchants/:merchantId/products/:productId/pause',
    allow('support', 'merchant.availability'),
    async (request, reply) => {
      const { m, product } = await productTarget(request);
      const form = readForm(request, ItemPauseForm, { labels });
      const until = untilOf(request, form.until);
      await catalog.availability.setAvailability(m.id, [
        { productId: product.id, available: false, reason: form.reason, ...(until ? { until } : {}) },
      ]);
      return reply.redirect(`${catalogBack(m.id, 'paused')}&product=${encodeURIComponent(product.name)}`, 303);
    },
  );

  app.post(
    '/merchants/:merchantId/products/:productId/resume',
    allow('support', 'merchant.availability'),
    async (request, reply) => {
      const { m, product } = await productTarget(request);
      await catalog.availability.setAvailability(m.id, [{ productId: product.id, available: true }]);
      return reply.redirect(`${catalogBack(m.id, 'resumed')}&product=${encodeURIComponent(product.name)}`, 303);
    },
  );

  app.post(
    '/merchants/:merchantId/products/:productId/stock',
    allow('support', 'merchant.availability'),
    async (request, reply) => {
      const { m, product } = await productTarget(request);
      const { quantity: typed } = readForm(request, StockForm, {
        labels,
        messages: { quantity: (t) => t.availability.badQuantity },
      });
      // The availability item says whether the product is available as well as its stock: a
      // pause that holds is sent again so counting does not end it; a count at the minimum shows
      // as OUT_OF_STOCK without a pause (no `until`, stock counted) and is not one.
      const now = (await catalog.availability.listForMerchant(m.id)).get(product.id);
      const pause =
        now &&
        !now.available &&
        now.reason !== null &&
        !(now.reason === 'OUT_OF_STOCK' && now.until === null && now.stock)
          ? { available: false, reason: now.reason, ...(now.until ? { until: now.until } : {}) }
          : { available: true };
      await catalog.availability.setAvailability(m.id, [
        { productId: product.id, ...pause, stock: { quantity: Number(typed.replace(',', '.')) } },
      ]);
      return reply.redirect(`${catalogBack(m.id, 'stock')}&product=${encodeURIComponent(product.name)}`, 303);
    },
  );

  app.post('/merchants/:merchantId/pause', allow('support', 'merchant.pause'), async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const form = readForm(request, StorePauseForm, { labels });
    const until = untilOf(request, form.until) as string;
    await merchants.pause(m.id, { reason: form.reason, until }, 'operator');
    return reply.redirect(`${path`/console/merchants/${m.id}`}?storePaused=1`, 303);
  });

  app.post('/merchants/:merchantId/resume', allow('support', 'merchant.resume'), async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    await merchants.resume(m.id, 'operator');
    return reply.redirect(`${path`/console/merchants/${m.id}`}?storeResumed=1`, 303);
  });

  app.get('/merchants/:merchantId/slots', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const t = ctx.t.availability;
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const q = queryOf(request);
    const asked = q.days === undefined || q.days === '' ? CALENDAR_DAYS : Number(q.days);
    if (!Number.isInteger(asked) || asked < 1 || asked > CALENDAR_DAYS_MAX) {
      throw invalidInput((x) => x.errors.wholeNumber(t.days, 1, CALENDAR_DAYS_MAX), 'days');
    }
    const zone = ctx.timeZone ?? zoneOf(request);
    const slots = await orders.listSlots(m.id, { to: new Date(clock.now().getTime() + asked * DAY).toISOString() });
    const days: string[] = [];
    const times: string[] = [];
    const cells = new Map<string, (typeof slots)[number]>();
    for (const s of slots) {
      const { day, time: at } = dayAndTime(s.start, zone);
      if (!days.includes(day)) days.push(day);
      if (!times.includes(at)) times.push(at);
      cells.set(`${day} ${at}`, s);
    }
    times.sort();
    const dayName = new Intl.DateTimeFormat(localeOf(ctx.lang), {
      timeZone: 'UTC',
      weekday: 'short',
      day: 'numeric',
      month: 'short',
    });
    // table.cards: a phone shows one card per slot time, each day's cell labelled with its day.
    const label = (d: string) => dayName.format(new Date(`${d}T00:00:00Z`));
    const grid = slots.length
      ? html`<table class="cards slots">
  <caption class="visually-hidden">${t.slotsCaption}</caption>
  <thead><tr><th scope="col">${t.time}</th>${days.map((d) => html`<th scope="col"><span data-day="${d}">${label(d)}</span></th>`)}</tr></thead>
  <tbody>${times.map(
    (at) =>
      html`<tr><th scope="row">${at}</th>${days.map((d) => {
        const s = cells.get(`${d} ${at}`);
        if (!s) return html`<td data-label="${label(d)}" class="muted small">${t.noSlot}</td>`;
        const places = `${number(s.left, ctx.lang)} / ${number(s.capacity, ctx.lang)}`;
        return s.left === 0
          ? html`<td data-label="${label(d)}" class="num" data-slot="${s.start}">${places} ${badge(t.full, 'bad')}</td>`
          : html`<td data-label="${label(d)}" class="num" data-slot="${s.start}">${places}</td>`;
      })}</tr>`,
  )}</tbody></table>`
      : html`<p class="muted">${t.noSlots}</p>`;
    const body = html`<p><a href="${path`/console/merchants/${m.id}`}">${t.back(m.name)}</a></p>
<section aria-labelledby="slots-h" class="panel">
  <h2 id="slots-h">${t.slotsHeading}</h2>
  <p class="muted small">${t.slotsHelp}</p>
  <form method="get" action="${path`/console/merchants/${m.id}/slots`}" class="inline-form filters">
    <div class="field"><label for="sl-days">${t.days}</label><input id="sl-days" name="days" type="number" min="1" max="${CALENDAR_DAYS_MAX}" value="${asked}"></div>
    <button type="submit">${t.show}</button>
  </form>
  ${grid}
</section>`;
    return kit.send(reply, page(ctx, { title: t.slotsTitle(m.name), active: 'merchants' }, body));
  });
};

/** The notice a catalog or merchant page shows after one of these forms (empty when none). */
export function availabilityNotice(t: Messages, q: Record<string, string>): string {
  const d = t.availability.done;
  if (q.storePaused) return d.storePaused;
  if (q.storeResumed) return d.storeResumed;
  const name = q.product ?? '';
  return q.availability === 'paused'
    ? d.paused(name)
    : q.availability === 'resumed'
      ? d.resumed(name)
      : q.availability === 'stock'
        ? d.stock(name)
        : '';
}
