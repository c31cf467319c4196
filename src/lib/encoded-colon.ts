// D40: some HTTP clients percent-encode the colon of a path segment, so `/v1/events:polling`
// arrives as `/v1/events%3Apolling`. The router matches paths as sent and decodes no reserved
// character, so that form answered 404. It is the same route: rewritten before routing, exactly
// that path and nothing else (the query string is kept as it is).

const ENCODED = /^\/v1\/events%3[aA]polling(?=$|\?)/;
const PREFIX = '/v1/events%';

/** Fastify's `rewriteUrl`: the encoded polling path becomes the route's own; any other URL is kept. */
export function rewriteEncodedColon(request: { url?: string }): string {
  const url = request.url ?? '/';
  // One comparison for every other request.
  if (!url.startsWith(PREFIX)) return url;
  return url.replace(ENCODED, '/v1/events:polling');
}
