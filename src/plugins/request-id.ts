// X-Request-Id on every answer: the id the request was logged under, so a client reporting a
// problem (a 500 says "logged with the request id") gives the operator the line to look for. A
// caller's own valid X-Request-Id (a proxy's or a client's trace id) is kept, so one id follows
// the request across systems; anything else gets a fresh uuid, never echoed as sent.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Safe to log and to send back: no spaces, quotes or control characters, and short. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the inbound id when valid, else a new uuid. */
export function requestIdOf(request: IncomingMessage): string {
  const inbound = request.headers[REQUEST_ID_HEADER];
  return typeof inbound === 'string' && VALID_REQUEST_ID.test(inbound) ? inbound : randomUUID();
}

/** Every answer, errors and 404s included, says which request it was. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    return payload;
  });
}
