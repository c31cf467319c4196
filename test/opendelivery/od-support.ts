// Helpers for the opendelivery profile tests (D27–D29): an Open Delivery POS's view of the API
// (form-encoded token, JSON calls), and the checks every answer and webhook must pass: the Open
// Delivery schema of src/modules/opendelivery (TypeBox, compiled with Ajv as a POS validating
// against the standard would), no null anywhere (Open Delivery has no nullable field), and
// `application/problem+json` on every error.
import { createHmac } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TSchema } from 'typebox';
import { expect } from 'vitest';
import { OdCancellationError, OdError } from '../../src/modules/opendelivery/index.js';
import { adminHeaders } from '../support/test-app.js';
import type { ReceivedRequest } from '../support/webhook-receiver.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const compiled = new Map<TSchema, ValidateFunction>();

/** Fails with Ajv's words when `value` does not match the Open Delivery schema. */
export function expectOd(schema: TSchema, value: unknown, what = 'body'): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema as object);
    compiled.set(schema, validate);
  }
  const ok = validate(value);
  expect(ok ? [] : (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message}`)).toEqual([]);
  expectNoNulls(value, what);
}

/** Open Delivery declares no nullable field: a null anywhere is a field a POS may reject. */
export function expectNoNulls(value: unknown, path = 'body'): void {
  const found: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (v === null) found.push(at);
    else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${at}[${i}]`);
    } else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) walk(x, `${at}.${k}`);
  };
  walk(value, path);
  expect(found).toEqual([]);
}

/** D28.3/D28.4: an Open Delivery error: the status, problem+json, `{title, status}` (and more when given). */
export function expectOdError(
  res: LightMyRequestResponse,
  status: number,
  title: string | RegExp,
  extra: Record<string, unknown> = {},
): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expectOd(Object.keys(extra).length ? OdCancellationError : OdError, body, 'error');
  expect(body).toEqual({ title: typeof title === 'string' ? title : expect.stringMatching(title), status, ...extra });
}

export interface OdPos {
  merchantId: string;
  keyId: string;
  clientSecret: string;
  token: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload: unknown): Promise<LightMyRequestResponse>;
}

/** A POS as Open Delivery software drives it: the token by form-encoded client credentials. */
export async function connectPos(
  app: FastifyInstance,
  key: { merchantId: string; keyId: string; clientSecret: string },
): Promise<OdPos & { tokenResponse: unknown }> {
  const t = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      client_id: key.merchantId,
      client_secret: key.clientSecret,
      grant_type: 'client_credentials',
    }).toString(),
  });
  expect(t.statusCode, t.body).toBe(200);
  const token = t.json().access_token as string;
  const headers = { authorization: `Bearer ${token}` };
  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    ...key,
    token,
    tokenResponse: t.json(),
    get: (url) => send('GET', url),
    post: (url, payload) => send('POST', url, payload),
    put: (url, payload) => send('PUT', url, payload),
    patch: (url, payload) => send('PATCH', url, payload),
  };
}

/** Operator: a new integration key with this profile (D27). */
export async function createKey(
  app: FastifyInstance,
  merchantId: string,
  profile?: 'cleaver' | 'opendelivery',
  name?: string,
): Promise<{ merchantId: string; keyId: string; clientSecret: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${merchantId}/integrationKeys`,
    headers: adminHeaders,
    payload: { ...(name ? { name } : {}), ...(profile ? { profile } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { merchantId, keyId: body.keyId, clientSecret: body.clientSecret };
}

export async function createMerchantOnly(app: FastifyInstance, name: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/admin/v1/merchants',
    headers: adminHeaders,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** Operator: PATCH a key's profile (D27). */
export function setProfile(app: FastifyInstance, merchantId: string, keyId: string, profile: string) {
  return app.inject({
    method: 'PATCH',
    url: `/admin/v1/merchants/${merchantId}/integrationKeys/${keyId}`,
    headers: adminHeaders,
    payload: { profile },
  });
}

export function operator(app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return app.inject({ method, url: `/admin/v1${url}`, headers: adminHeaders, payload: payload as object });
}

export interface PolledEvent {
  eventId: string;
  eventType: string;
  orderId: string;
  createdAt: string;
  metadata?: Record<string, unknown>;
}

/** One poll: 204 (empty) or 200 with the events. */
export async function poll(pos: Pick<OdPos, 'get'>, query = ''): Promise<PolledEvent[]> {
  const res = await pos.get(`/v1/events:polling${query}`);
  if (res.statusCode === 204) return [];
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export const ackOf = (e: PolledEvent) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType });

/** D10: both signatures of a webhook, checked with the secret of the key that registered the URL. */
export function expectSignedWebhook(request: ReceivedRequest, merchantId: string, secret: string): void {
  const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(request.body, 'utf8').digest('hex');
  expect(request.headers['x-app-signature']).toBe(hex);
  expect(request.headers['x-app-merchantid']).toBe(merchantId);
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const standard = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.${request.body}`, 'utf8')
    .digest('base64');
  expect(String(request.headers['webhook-signature']).split(' ')).toContain(`v1,${standard}`);
}
