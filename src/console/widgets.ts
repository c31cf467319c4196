// Small pieces several console pages share.
import type { FastifyRequest } from 'fastify';
import { notFound } from '../lib/errors.js';
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
