import type { FastifyReply, FastifyRequest } from 'fastify';

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
