import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../lib/errors.js';

/** `Authorization: Bearer <token>` → the token, or a 401 that says what is wrong. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Missing bearer token');
  const token = /^Bearer +([A-Za-z0-9\-_.~+/]+=*) *$/i.exec(header)?.[1];
  if (!token) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
  return token;
}
