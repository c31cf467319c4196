// Small pieces several console pages share.
import type { FastifyRequest } from 'fastify';
import { isUuid } from '../lib/ids.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, type Tone, time } from './html.js';
import type { PageContext } from './layout.js';
import type { Messages } from './messages/en.js';

/** The :merchantId of a console path; anything but a uuid is a missing merchant. */
export const merchantIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { merchantId: string }).merchantId;
  if (!isUuid(id)) throw notFoundPage((t) => t.errors.merchantNotFound);
  return id;
};

/** A status the API spells in capitals, shown in the operator's words (the code in a tooltip). */
export function codeBadge<K extends string>(labels: Record<K, string>, code: string, tone: Tone): Html {
  return badge((labels as Record<string, string>)[code] ?? code, tone, code);
}

export const statusBadge = (t: Messages, status: string) =>
  codeBadge(t.codes.merchantStatus, status, status === 'AVAILABLE' ? 'ok' : 'muted');

export function syncBadge(t: Messages, status: string): Html {
  return codeBadge(t.codes.syncStatus, status, status === 'SUCCESS' ? 'ok' : status === 'FAIL' ? 'bad' : 'warn');
}

/** The last catalog sync in one line: status and when. */
export function syncSummary(t: Messages, sync: Record<string, unknown> | null): Html {
  if (!sync) return html`<span class="muted">${t.common.never}</span>`;
  const at = (sync.finishedAt ?? sync.receivedAt) as string;
  return html`${syncBadge(t, String(sync.status))} ${time(at)}`;
}

/**
 * The pager under a list (operator-api.md#lists, as the API's Link header): the same path and
 * filters with the cursor replaced, and a way back to the first page.
 */
export function pager(t: Messages, request: FastifyRequest, next: string | null): Html {
  const url = new URL(request.url, 'http://x');
  const onFirst = !url.searchParams.has('cursor');
  url.searchParams.delete('tz');
  const first = new URL(url);
  first.searchParams.delete('cursor');
  if (next) url.searchParams.set('cursor', next);
  if (onFirst && !next) return html``;
  return html`<nav class="pager" aria-label="${t.common.pages}">
  ${onFirst ? '' : html`<a href="${first.pathname}${first.search}">${t.common.firstPage}</a>`}
  ${next ? html`<a href="${url.pathname}${url.search}" rel="next">${t.common.nextPage}</a>` : html`<span class="muted">${t.common.lastPage}</span>`}
</nav>`;
}

/**
 * A `<select>` of fixed choices with the current one selected and an "any" first option; the
 * value sent is the code, the text the operator's word for it.
 */
export function choice(
  t: Messages,
  id: string,
  name: string,
  label: string,
  options: readonly string[],
  value?: string,
  labels?: Record<string, string>,
): Html {
  return html`<div class="field"><label for="${id}">${label}</label>
    <select id="${id}" name="${name}"><option value="">${t.common.any}</option>
    ${options.map((o) => html`<option value="${o}"${o === value ? html` selected` : ''}>${labels?.[o] ?? o}</option>`)}</select></div>`;
}

/** A query value that must be one of `allowed` (400 naming it otherwise), or undefined when empty. */
export function oneOf<T extends string>(
  label: (t: Messages) => string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (!value) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidInput((t) => t.errors.notAChoice(label(t), value));
  }
  return value as T;
}

/** A search box value: trimmed, at most 200 characters, undefined when empty. */
export function searchText(value: string | undefined): string | undefined {
  const q = value?.trim();
  if (!q) return undefined;
  if (q.length > 200) throw invalidInput((t) => t.errors.tooLong(t.fields.q, 200), 'q');
  return q;
}

// ---- the merchant filter of the lists (orders, webhooks, notices, homologation) ---------------

/** Up to this many merchants, a list filter offers them all in a select; beyond, a search field. */
export const PICKER_MAX = 500;

export interface MerchantFilter {
  /** The merchant the list is narrowed to. */
  merchantId?: string;
  /** What was typed in the search field (many merchants), when it named no single merchant. */
  typed?: string;
  /** Merchants the typed text matched, when more than one (the page links each). */
  matches: Array<{ id: string; name: string }>;
  /** Every merchant by name for the select, or null when there are too many for one. */
  options: Array<{ id: string; name: string }> | null;
  /** The chosen merchant's name. */
  name?: string;
}

/**
 * The merchant of a list's filter: `merchantId` (the select, or a link), or `merchant`, a name or
 * id typed when there are too many merchants for a select.
 */
export async function merchantFilter(kit: ConsoleKit, q: Record<string, string>): Promise<MerchantFilter> {
  const { merchants } = kit.services;
  const all = await merchants.listMerchants({ limit: PICKER_MAX + 1 });
  const options =
    all.length > PICKER_MAX
      ? null
      : all.map((m) => ({ id: m.id, name: m.name })).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'));
  const filter: MerchantFilter = { matches: [], options };
  let id = q.merchantId || undefined;
  const typed = q.merchant?.trim();
  if (id && !isUuid(id)) throw invalidInput((t) => t.errors.notAMerchant, 'merchantId');
  if (!id && typed) {
    if (isUuid(typed)) id = typed.toLowerCase();
    else {
      const found = await merchants.listMerchants({ q: typed, limit: 21 });
      const [only] = found;
      if (found.length === 1 && only) id = only.id;
      else {
        filter.typed = typed;
        filter.matches = found.slice(0, 20).map((m) => ({ id: m.id, name: m.name }));
      }
    }
  }
  if (id) {
    filter.merchantId = id;
    filter.name = options?.find((o) => o.id === id)?.name ?? (await merchants.merchantNames([id])).get(id);
  }
  return filter;
}

/** What a list with the merchant filter starts from: the page's context, its query and the filter. */
export async function filteredList(kit: ConsoleKit, request: FastifyRequest) {
  const ctx = kit.ctx(request);
  const q = queryOf(request);
  return { ctx, t: ctx.t, q, filter: await merchantFilter(kit, q) };
}

/** The filter's field: a select of every merchant, or a search field when there are too many. */
export function merchantPicker(ctx: PageContext, id: string, filter: MerchantFilter): Html {
  const t = ctx.t;
  if (filter.options) {
    const options =
      filter.options.some((o) => o.id === filter.merchantId) || !filter.merchantId
        ? filter.options
        : [{ id: filter.merchantId, name: filter.name ?? filter.merchantId }, ...filter.options];
    return html`<div class="field"><label for="${id}">${t.common.merchant}</label>
    <select id="${id}" name="merchantId"><option value="">${t.common.anyMerchant}</option>
    ${options.map((o) => html`<option value="${o.id}"${o.id === filter.merchantId ? html` selected` : ''}>${o.name}</option>`)}</select></div>`;
  }
  return html`<div class="field"><label for="${id}">${t.common.merchantSearch}</label>
    <input id="${id}" name="merchant" type="search" maxlength="200" value="${filter.typed ?? filter.name ?? ''}" placeholder="${t.common.anyMerchant}"></div>`;
}

/**
 * The filter form of a list narrowed to a merchant (orders, webhooks, notices, homologation): the
 * merchant picker, the list's own fields, and under the form the merchants a typed name matched.
 */
export function merchantFilterForm(
  ctx: PageContext,
  form: { action: string; label: string; idPrefix: string; filter: MerchantFilter; fields: Html },
  keep: Record<string, string | undefined>,
): Html {
  return html`<form method="get" action="${form.action}" class="inline-form filters" role="search" aria-label="${form.label}">
  ${merchantPicker(ctx, `${form.idPrefix}-merchant`, form.filter)}
  ${form.fields}
  <button type="submit">${ctx.t.common.filter}</button>
</form>
${merchantMatches(ctx, form.action, form.filter, keep)}`;
}

/** Under the filter, when the typed text matched several merchants: pick one. */
export function merchantMatches(
  ctx: PageContext,
  base: string,
  filter: MerchantFilter,
  keep: Record<string, string | undefined>,
): Html {
  if (filter.typed === undefined) return html``;
  const t = ctx.t;
  if (!filter.matches.length)
    return html`<p class="alert" role="alert">${t.common.noMerchantMatches(filter.typed)}</p>`;
  return html`<p>${t.common.severalMerchantsMatch(filter.typed)}</p><ul class="plain matches">${filter.matches.map(
    (m) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...keep, merchantId: m.id })) if (v) params.set(k, v);
      return html`<li><a href="${base}?${params.toString()}">${m.name}</a></li>`;
    },
  )}</ul>`;
}
