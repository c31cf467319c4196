// A real Open Delivery POS on 127.0.0.1 for the catalog tests (D29): it serves GET /v1/merchant
// behind X-API-KEY, and every Open Delivery Merchant it serves through serve() is first checked
// against our Open Delivery schemas, so the fixtures are real Open Delivery. Deliberately broken
// answers go through answerWith() instead.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Compile } from 'typebox/compile';
import { expect } from 'vitest';
import { type OdMerchant, OdMerchant as OdMerchantSchema } from '../../src/modules/opendelivery/index.js';
import { bearer, type MerchantCredentials, type TestApp } from '../support/test-app.js';

const merchantValidator = Compile(OdMerchantSchema);

/** Throws with the first schema errors when `body` is not an Open Delivery Merchant. */
export function assertOdMerchant(body: unknown): asserts body is OdMerchant {
  if (merchantValidator.Check(body)) return;
  const errors = merchantValidator
    .Errors(body)
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message}`);
  throw new Error(`not an Open Delivery Merchant: ${errors.join('; ')}`);
}

export const API_KEY = 'od-pos-api-key-0123';

export interface SeenRequest {
  url: string | undefined;
  apiKey: string | undefined;
  ifNoneMatch: string | undefined;
}

export interface TestPos {
  baseURL: string;
  seen: SeenRequest[];
  /** Serves a schema-checked Open Delivery Merchant; with `etag`, answers 304 to a matching If-None-Match. */
  serve(menu: OdMerchant, options?: { etag?: string }): void;
  /** Any answer at all (malformed, huge, slow) for the next requests. */
  answerWith(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

export async function startTestPos(): Promise<TestPos> {
  const seen: SeenRequest[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server: Server = createServer((req, res) => {
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(',') : v;
    };
    seen.push({ url: req.url, apiKey: header('x-api-key'), ifNoneMatch: header('if-none-match') });
    if (req.method !== 'GET' || req.url !== '/v1/merchant') {
      res.writeHead(404).end();
      return;
    }
    if (req.headers['x-api-key'] !== API_KEY) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"title":"Invalid X-API-KEY","status":401}');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseURL,
    seen,
    serve(menu, options = {}) {
      assertOdMerchant(menu);
      const text = JSON.stringify(menu);
      handler = (req, res) => {
        if (options.etag && req.headers['if-none-match'] === options.etag) {
          res.writeHead(304, { etag: options.etag }).end();
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json', ...(options.etag ? { etag: options.etag } : {}) })
          .end(text);
      };
    },
    answerWith(next) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** PUT /v1/merchantOnboarding with getMerchantURL pointing at the test POS. */
export async function registerPos(t: TestApp, me: MerchantCredentials, baseURL: string, apiKey = API_KEY) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchantOnboarding',
    headers: bearer(me.token),
    payload: { ordersWebhookURL: 'http://127.0.0.1:9', getMerchantURL: { baseURL, apiKey } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * POST /v1/merchantUpdate (Open Delivery's notification). No body and no content type when `body`
 * is undefined; a string is sent as it is, anything else as JSON.
 */
export function notify(t: TestApp, me: MerchantCredentials, body?: unknown, contentType = 'application/json') {
  const url = '/v1/merchantUpdate';
  if (body === undefined) return t.app.inject({ method: 'POST', url, headers: bearer(me.token) });
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(me.token), 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Notify, expect 204 with no body, let the worker run, return what the POS reads in merchantStatus. */
export async function notifyAndSettle(t: TestApp, me: MerchantCredentials, body?: unknown) {
  const res = await notify(t, me, body);
  expect(res.statusCode, res.body).toBe(204);
  expect(res.body).toBe('');
  await t.services.catalog.worker.drain();
  const status = await t.app.inject({
    method: 'GET',
    url: `/v1/merchantStatus?merchantId=${me.merchantId}`,
    headers: bearer(me.token),
  });
  expect(status.statusCode, status.body).toBe(200);
  return status.json() as { status: string; lastRead: string; moreInfo: string | null };
}

/** Row versions and update times of a merchant's catalog rows, by POS code (unchanged rows keep theirs). */
export async function rowVersions(t: TestApp, merchantId: string) {
  const { rows } = await t.database.db.query<{ kind: string; pdv: string; xmin: string; updated_at: Date }>(
    `SELECT 'product' AS kind, pdv_external_id AS pdv, xmin::text AS xmin, updated_at FROM products
      WHERE merchant_id = $1 AND pdv_external_id IS NOT NULL
     UNION ALL
     SELECT 'category', pdv_external_id, xmin::text, updated_at FROM categories
      WHERE merchant_id = $1 AND pdv_external_id IS NOT NULL`,
    [merchantId],
  );
  return new Map(rows.map((r) => [`${r.kind}:${r.pdv}`, { xmin: r.xmin, updatedAt: r.updated_at.toISOString() }]));
}
