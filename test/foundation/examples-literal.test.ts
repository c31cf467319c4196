// Every request example of /openapi.json sent exactly as published, to a sandbox as a newcomer's
// is after the getting-started guide: a merchant and its key, the sample catalog uploaded
// (`cleaver sandbox sample-catalog`), an order placed. Only the ids a reader must put in a URL
// from their own sandbox (their merchant, their order) are theirs; every body and every other
// parameter is the document's. No answer may be a refusal of the example (400, 413, 415, 422,
// or an undocumented 4xx): a record the example names that this sandbox lacks may be a
// documented 404 or 409, but never a 400 about a field. (contract-examples.test.ts sends them
// into a world prepared for each example; this one takes them as a reader copies them.)
// What this proves does not depend on the kind of database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleButcherCatalog } from '../../src/cli/sample-catalog.js';
import { sample } from '../../src/plugins/openapi-docs/complete.js';
import { createLogisticsApp, type LogisticsApp, sign } from '../support/logistics.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

type Json = Record<string, unknown>;
let t: TestApp;
let doc: Json;
let me: MerchantCredentials;
let partner: LogisticsApp;
/** The order the example at hand acts on: a fresh one each time, placed from the intake example. */
let orderId: string;

const UNLIMITED = {
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
};

beforeAll(async () => {
  t = await createTestApp({ env: UNLIMITED, config: { listenMaxWaitSec: 0 } });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
  me = await createMerchant(t.app, 'Açougue do Recém-Chegado');
  partner = await createLogisticsApp(t.app, [me.merchantId]);
  const upload = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchantUpdate',
    headers: bearer(me.token),
    payload: sampleButcherCatalog(),
  });
  expect(upload.statusCode, upload.body).toBeLessThan(300);
  await t.services.catalog.worker.drain();
}, 120_000);

/** An order placed as the newcomer places one: the published intake example, sent as it is. */
async function placeOrder(): Promise<string> {
  const intake = (doc.paths as Record<string, Record<string, Json>>)['/admin/v1/merchants/{merchantId}/orders']
    ?.post as Json;
  const media = ((intake.requestBody as Json).content as Record<string, Json>)['application/json'] as Json;
  const order = await t.app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${me.merchantId}/orders`,
    headers: adminHeaders,
    payload: media.example as Json,
  });
  expect(order.statusCode, order.body).toBe(201);
  return (order.json() as { id: string }).id;
}

/**
 * An earlier example may have paused the store, switched it off or paused the picanha (the pause,
 * status and availability examples, D43): the reader opens it again before trying the next one,
 * as a shop would.
 */
async function reopenStore(): Promise<void> {
  await t.app.inject({ method: 'DELETE', url: '/v1/merchant/pause', headers: bearer(me.token) });
  const back = await t.app.inject({
    method: 'POST',
    url: '/v1/merchant/availability',
    headers: bearer(me.token),
    payload: { items: [{ pdvId: 'picanha', available: true }] },
  });
  expect(back.statusCode, back.body).toBe(200);
  const open = await t.app.inject({
    method: 'PATCH',
    url: `/admin/v1/merchants/${me.merchantId}`,
    headers: adminHeaders,
    payload: { status: 'AVAILABLE' },
  });
  expect(open.statusCode, open.body).toBe(200);
}

/**
 * The example with the reader's own order in place of the orders it names (`orderId` anywhere, a
 * delivery's combined orders).
 */
function withOwnIds(value: unknown, name = '', parent = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => withOwnIds(v, name, parent));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withOwnIds(v, k, name)]));
  }
  if (typeof value !== 'string') return value;
  if (name === 'orderId' || name === 'combinedOrdersIds') return orderId;
  // A logistics partner's update names the merchant whose order it carries: the reader's.
  if (parent === 'merchant' && name === 'id') return me.merchantId;
  return value;
}

afterAll(async () => {
  await t?.services.homologation?.stop();
  await t?.close();
});

interface Sent {
  id: string;
  method: string;
  path: string;
  mediaType: string;
  example: unknown;
  op: Json;
}

function examplesOf(media: Json): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((e) => e.value);
}

/** Every request example of the document, in the document's order. */
function requestExamples(): Sent[] {
  const all: Sent[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
      for (const [mediaType, media] of Object.entries(content)) {
        for (const example of examplesOf(media)) {
          all.push({ id: op.operationId as string, method: method.toUpperCase(), path, mediaType, example, op });
        }
      }
    }
  }
  return all;
}

/** A parameter's published example, or the value the document would show for it. */
const literal = (parameter: Json) => String(parameter.example ?? sample(parameter.schema, 0, parameter.name as string));

function urlOf(sent: Sent): string {
  const parameters = (sent.op.parameters as Json[] | undefined) ?? [];
  const path = sent.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    // The two ids a reader takes from their own sandbox.
    if (name === 'merchantId') return me.merchantId;
    if (name === 'orderId' || name === 'combinedOrdersIds') return orderId;
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(parameter ? literal(parameter) : name);
  });
  const query = new URLSearchParams();
  for (const p of parameters.filter((p) => p.in === 'query' && p.required)) query.set(p.name as string, literal(p));
  return query.size ? `${path}?${query}` : path;
}

function headersFor(sent: Sent, payload: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': sent.mediaType };
  if (sent.path.startsWith('/admin/')) return { ...headers, ...adminHeaders };
  if (sent.path.startsWith('/v1/logistics/')) {
    return {
      ...headers,
      'x-app-id': partner.appId,
      'x-app-merchantid': me.merchantId,
      'x-app-signature': sign(partner.clientSecret, payload),
    };
  }
  if (sent.path.startsWith('/v1/')) return { ...headers, ...bearer(me.token) };
  return headers;
}

const STATE_TITLES = /^(Order is [A-Z_]+\b|No cancellation request)/;
/** Answers that refuse the request as written, whatever the operation documents. */
const REFUSALS = new Set([400, 413, 415, 422]);
/**
 * OAuth's examples carry a client's credentials, which a reader replaces with their own: an
 * unknown client there is the documented 401, not a refusal of the example's shape.
 */
const CREDENTIAL_EXAMPLES = new Set(['postOauthToken', 'postOauthRevoke']);

describe('every request example, sent literally to a newcomer’s sandbox', () => {
  it('is never refused for its content', async () => {
    const refused: string[] = [];
    const sent = requestExamples();
    // The operator's examples last: one renames or suspends the newcomer's merchant.
    sent.sort((a, b) => Number(a.path.startsWith('/admin/')) - Number(b.path.startsWith('/admin/')));
    for (const s of sent) {
      await reopenStore();
      if (s.path.includes('{orderId}') || /"(orderId|combinedOrdersIds)"/.test(JSON.stringify(s.example))) {
        orderId = await placeOrder();
      }
      const example = withOwnIds(s.example);
      const payload =
        s.mediaType === 'application/x-www-form-urlencoded'
          ? new URLSearchParams(example as Record<string, string>).toString()
          : JSON.stringify(example);
      const res = await t.app.inject({
        method: s.method as 'POST',
        url: urlOf(s),
        headers: headersFor(s, payload),
        payload,
      });
      const status = res.statusCode;
      if (status < 400 || status >= 500) {
        if (status >= 500) refused.push(`${s.id} ${s.mediaType} → ${status} ${res.body}`);
        continue;
      }
      const documented = Object.keys((s.op.responses as Json | undefined) ?? {}).includes(String(status));
      const credentials = CREDENTIAL_EXAMPLES.has(s.id) && status === 401;
      if (credentials) continue;
      // An action the order's state does not allow yet (a fresh order is not dispatched, has no
      // cancellation request to answer): about the sandbox's record, not the example.
      const title = String((res.json() as { title?: unknown }).title ?? '');
      if (status === 400 && STATE_TITLES.test(title)) continue;
      if (REFUSALS.has(status) || status === 401 || status === 403 || !documented) {
        refused.push(`${s.id} ${s.mediaType} → ${status} ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
    expect(sent.length).toBeGreaterThan(30);
  }, 240_000);
});
