// Small pieces several console pages share.
import type { FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import { badge, type Html, html, time } from './html.js';

/** The :merchantId of a console path; anything but a uuid is a missing merchant. */
export const merchantIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { merchantId: string }).merchantId;
  if (!isUuid(id)) throw notFound('Merchant not found');
  return id;
};

export const statusBadge = (status: string) => badge(status, status === 'AVAILABLE' ? 'ok' : 'muted');

export function syncBadge(status: string): Html {
  return badge(status, status === 'SUCCESS' ? 'ok' : status === 'FAIL' ? 'bad' : 'warn');
}

/** The last catalog sync in one line: status and when. */
export function syncSummary(sync: Record<string, unknown> | null): Html {
  if (!sync) return html`<span class="muted">never</span>`;
  const at = (sync.finishedAt ?? sync.receivedAt) as string;
  return html`${syncBadge(String(sync.status))} ${time(at)}`;
}

/**
 * The pager under a list (operator-api.md#lists, as the API's Link header): the same path and
 * filters with the cursor replaced, and a way back to the first page.
 */
export function pager(request: FastifyRequest, next: string | null): Html {
  const url = new URL(request.url, 'http://x');
  const onFirst = !url.searchParams.has('cursor');
  url.searchParams.delete('tz');
  const first = new URL(url);
  first.searchParams.delete('cursor');
  if (next) url.searchParams.set('cursor', next);
  if (onFirst && !next) return html``;
  return html`<nav class="pager" aria-label="Pages">
  ${onFirst ? '' : html`<a href="${first.pathname}${first.search}">First page</a>`}
  ${next ? html`<a href="${url.pathname}${url.search}" rel="next">Next page →</a>` : html`<span class="muted">Last page</span>`}
</nav>`;
}

/** A `<select>` of fixed choices with the current one selected and an "any" first option. */
export function choice(id: string, name: string, label: string, options: readonly string[], value?: string): Html {
  return html`<div class="field"><label for="${id}">${label}</label>
    <select id="${id}" name="${name}"><option value="">Any</option>
    ${options.map((o) => html`<option${o === value ? html` selected` : ''}>${o}</option>`)}</select></div>`;
}

/** A query value that must be one of `allowed` (400 naming it otherwise), or undefined when empty. */
export function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (!value) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw badRequest(`${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** A search box value: trimmed, at most 200 characters, undefined when empty. */
export function searchText(value: string | undefined): string | undefined {
  const q = value?.trim();
  if (!q) return undefined;
  if (q.length > 200) throw badRequest('q must be at most 200 characters');
  return q;
}
