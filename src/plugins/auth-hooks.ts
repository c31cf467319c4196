import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import { unauthorized } from '../lib/errors.js';
import type { AuthService } from '../modules/auth/auth-service.js';
import type { Principal } from '../modules/auth/token-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant integration behind the bearer token; set by merchantAuth. */
    principal: Principal;
  }
}

/** `Authorization: Bearer <token>` → the token, or a 401 that says what is wrong. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Missing bearer token');
  const match = /^Bearer +([A-Za-z0-9\-_.~+/]+=*) *$/i.exec(header);
  if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
  return match[1];
}

/**
 * onRequest hook for every /v1 merchant route (spec 5.1). Callback style so that a cached token
 * costs no promise at all: this runs on every merchant request.
 */
export function merchantAuth(auth: AuthService) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    let token: string;
    try {
      token = bearerToken(request);
    } catch (error) {
      return done(error as Error);
    }
    const cached = auth.cachedPrincipal(token);
    if (cached) {
      request.principal = cached;
      return done();
    }
    auth.verifyAccessToken(token).then(
      (principal) => {
        request.principal = principal;
        done();
      },
      (error: Error) => done(error),
    );
  };
}

/** onRequest hook for every /admin/v1 route (OPERATOR-API.md "Authentication"). */
export function adminAuth(adminToken: string) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!safeEqual(token, adminToken)) throw unauthorized('Invalid operator token');
  };
}
