import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodeTimeCursor, page } from './cursor.js';

/** How every paged operator list is read, as its OpenAPI description says it (followed by what `q` matches). */
export const PAGED_LIST =
  'Paged as operator-api.md says: `limit` (default 100, at most 1000) and `cursor`; the next page is in the ' +
  '`Link: <…>; rel="next"` header.';

/**
 * operator-api.md#lists: the next page in `Link: <…>; rel="next"` (RFC 8288), the same path and
 * query with the cursor replaced. Nothing when there is no next page.
 */
export function setNextLink(request: FastifyRequest, reply: FastifyReply, cursor: string | null | undefined): void {
  if (!cursor) return;
  const url = new URL(request.url, 'http://x');
  url.searchParams.set('cursor', cursor);
  reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
}

/** A page as the answer: its items are the body, the next page is in the Link header. */
export function sendPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  { items, next }: { items: T[]; next: string | null | undefined },
): T[] {
  setNextLink(request, reply, next);
  return items;
}

/**
 * A page of rows in (created_at, id) order, `limit` of them (default 100): `fetch` is asked for one
 * more, which tells whether a next page exists without counting.
 */
export async function sendTimePage<R extends { created_at: Date; id: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  limit: number | undefined,
  fetch: (limit: number) => Promise<R[]>,
  cursorOf: (created_at: Date, id: string) => string = encodeTimeCursor,
): Promise<R[]> {
  const pageSize = limit ?? 100;
  const rows = await fetch(pageSize + 1);
  return sendPage(
    request,
    reply,
    page(rows, pageSize, (r) => cursorOf(r.created_at, r.id)),
  );
}
