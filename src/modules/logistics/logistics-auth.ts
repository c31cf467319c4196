// Spec 5.2: the logistics partner authenticates with three X-App-* headers and an HMAC of the
// exact body bytes; no bearer token. Registered in app.ts inside the /v1/logistics scope only.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hmacSha256Hex, safeEqual } from '../../lib/crypto.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { isUuidV4 } from '../../lib/ids.js';
import { fastifyJsonText, parseJsonBytes } from '../../lib/json-body.js';
import type { LogisticsAppsService } from './logistics-apps-service.js';

/** Who is calling, once the headers and the signature are verified. */
export interface LogisticsCaller {
  appId: string;
  /** X-App-MerchantId, lower-cased; a merchant the app is linked to. */
  merchantId: string;
  /** sha256 of the signed body bytes: the idempotency key of a deliveryUpdate (per app). */
  bodySha256: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    logisticsCaller: LogisticsCaller;
  }
}

const SIGNATURE = /^[0-9a-f]{64}$/;

// 401 without `WWW-Authenticate: Bearer`: this scheme is not a bearer token.
const unauthorizedApp = (title: string) => new AppError(401, title);

function header(request: Pick<FastifyRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  // A repeated header is malformed; join so the format check below rejects it.
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text === '' ? undefined : text;
}

/**
 * The 400 checks of spec 5.2, in its order: X-App-Id (uuid v4), X-App-MerchantId (36 to 100
 * characters), X-App-Signature (64 lowercase hex). Pure: no lookup happens before all pass.
 */
export function readLogisticsHeaders(request: Pick<FastifyRequest, 'headers'>): {
  appId: string;
  merchantId: string;
  signature: string;
} {
  const appId = header(request, 'x-app-id');
  if (appId === undefined) throw badRequest('X-App-Id is required');
  if (!isUuidV4(appId)) throw badRequest('X-App-Id must be a uuid v4');
  const merchantId = header(request, 'x-app-merchantid');
  if (merchantId === undefined) throw badRequest('X-App-MerchantId is required');
  if (merchantId.length < 36 || merchantId.length > 100) {
    throw badRequest('X-App-MerchantId must be 36 to 100 characters');
  }
  const signature = header(request, 'x-app-signature');
  if (signature === undefined) throw badRequest('X-App-Signature is required');
  if (!SIGNATURE.test(signature)) throw badRequest('X-App-Signature must be 64 lowercase hex characters');
  return { appId: appId.toLowerCase(), merchantId: merchantId.toLowerCase(), signature };
}

/**
 * Adds X-App-* authentication to the scope it is called on (every route registered in it):
 * - a JSON content-type parser that keeps the raw bytes (the signature covers the exact bytes
 *   sent; any re-serialisation would invalidate it),
 * - onRequest: the header checks (400) and the app lookup (401: unknown app, merchant not
 *   linked, inactive app), before the body is even read,
 * - preValidation: the HMAC over the raw bytes, compared in constant time (401), and only then
 *   the JSON parse (400 when malformed), so an unsigned body is never parsed.
 */
export function useLogisticsAuth(scope: FastifyInstance, deps: { logisticsApps: LogisticsAppsService }): void {
  const { logisticsApps } = deps;
  const parseJson = fastifyJsonText(scope);
  // Between the two hooks: the app found for the headers, and the signature to check.
  const pending = new WeakMap<
    FastifyRequest,
    { appId: string; merchantId: string; signature: string; sealed: string }
  >();

  scope.decorateRequest('logisticsCaller', null as unknown as LogisticsCaller);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  scope.addHook('onRequest', async (request) => {
    const { appId, merchantId, signature } = readLogisticsHeaders(request);
    const app = await logisticsApps.findApp(appId);
    if (!app) throw unauthorizedApp('X-App-Id is not a known logistics app');
    if (!app.merchant_ids.includes(merchantId)) {
      throw unauthorizedApp('X-App-MerchantId is not linked to this logistics app');
    }
    // operator-api.md#logistics-partners: a deactivated app's requests get 401 at once (no caching of apps).
    if (!app.active) throw unauthorizedApp('Logistics app is inactive');
    pending.set(request, { appId: app.id, merchantId, signature, sealed: app.secret_enc });
  });

  scope.addHook('preValidation', async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const found = pending.get(request);
    if (!found) throw unauthorizedApp('X-App-Signature does not match the request body');
    const expected = hmacSha256Hex(logisticsApps.openSecret(found.sealed), raw);
    if (!safeEqual(found.signature, expected)) throw unauthorizedApp('X-App-Signature does not match the request body');
    request.logisticsCaller = {
      appId: found.appId,
      merchantId: found.merchantId,
      bodySha256: createHash('sha256').update(raw).digest('hex'),
    };
    // Only now, with the signature verified, is the body decoded and parsed (UTF-8 and depth
    // checks included; the logistics service checks storable text itself, after validation).
    request.body = parseJsonBytes(raw, request.headers['content-type'], parseJson, { checkStorable: false });
  });
}
