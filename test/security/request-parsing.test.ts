// Issue "Hardening" 3–6: what the parser and the HTTP layer do with hostile bodies and headers.
// Every answer is {title, status}; nothing is stored from a refused request.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/lib/json-body.js';
import { createSimpleOrder } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

let t: TestApp;
let me: MerchantCredentials;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '100000' } });
  me = await createMerchant(t.app);
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

function expectError(res: { statusCode: number; json(): unknown }, status: number, title: string) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}

describe('nesting depth is limited at parse time (item 3)', () => {
  it.each([
    ['/oauth/token', {}],
    ['/v1/merchantOnboarding', 'merchant'],
    ['/admin/v1/merchants', 'admin'],
  ])('10,000 levels on %s → 400, not 500', async (url, who) => {
    const headers =
      who === 'merchant' ? bearer(me.token) : who === 'admin' ? adminHeaders : ({} as Record<string, string>);
    // /oauth keeps bodies under 16 KB (nothing authenticates them first): 7,000 levels fit.
    const levels = url === '/oauth/token' ? 7_000 : 10_000;
    for (const body of [nested(levels), nestedObject(levels / 5), nested(65)]) {
      const res = await t.app.inject({
        method: url === '/v1/merchantOnboarding' ? 'PUT' : 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: body,
      });
      expectError(res, 400, 'Body is nested deeper than 64 levels');
    }
  });

  it('10,000 levels on /oauth/token are over its body limit: 413, still {title, status}', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: nested(10_000),
    });
    expectError(res, 413, 'Request body is too large');
  });

  it('64 levels are parsed and then validated as usual', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: nestedObject(64),
    });
    expectError(res, 400, 'name is required');
  });

  it('counts only structure, not brackets inside strings', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[[[[[[[', b: '\\"[[[[[[' }), 3)).toBe(false);
    expect(nestsDeeperThan('[[[[', 3)).toBe(true);
    expect(nestsDeeperThan('["\\\\", [[[1]]]]', 3)).toBe(true);
  });
});

describe('text encoding (item 4)', () => {
  it('invalid UTF-8 bytes are a 400 naming the field, and nothing is stored', async () => {
    const before = Buffer.from('{"name":"Casa de Carnes Inv\u00e1lida ');
    const body = Buffer.concat([before, Buffer.from([0xff, 0xfe]), Buffer.from('","status":"AVAILABLE"}')]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: body,
    });
    expectError(res, 400, 'name is not valid UTF-8');
    const nestedBody = Buffer.concat([
      Buffer.from(
        '{"ordersWebhookURL":"https://pos.example.com","getMerchantURL":{"baseURL":"https://x.example.com","apiKey":"k',
      ),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    const onboard = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: { ...bearer(me.token), 'content-type': 'application/json' },
      payload: nestedBody,
    });
    expectError(onboard, 400, 'getMerchantURL.apiKey is not valid UTF-8');
    const list = await t.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: adminHeaders });
    expect(list.json().filter((m: { name: string }) => m.name.startsWith('Casa de Carnes Inv'))).toEqual([]);
  });

  it('overlong encodings and encoded surrogates are invalid UTF-8 too', async () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/merchants',
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        payload: Buffer.concat([Buffer.from('{"name":"x'), Buffer.from(bad), Buffer.from('"}')]),
      });
      expectError(res, 400, 'name is not valid UTF-8');
    }
  });

  it('a charset other than UTF-8 is 415; utf-8 spelled either way is fine', async () => {
    const latin1 = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: { ...adminHeaders, 'content-type': 'application/json; charset=ISO-8859-1' },
      payload: Buffer.from('{"name":"A\xe7ougue"}', 'latin1'),
    });
    expectError(latin1, 415, 'Unsupported charset "ISO-8859-1": send UTF-8 JSON');
    for (const charset of ['utf-8', 'UTF8', '"utf-8"']) {
      const ok = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/merchants',
        headers: { ...adminHeaders, 'content-type': `application/json; charset=${charset}` },
        payload: Buffer.from(JSON.stringify({ name: 'Açougue Central' })),
      });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().name).toBe('Açougue Central');
    }
  });

  it('NUL and lone surrogates are still refused naming the field; escaped pairs are fine', async () => {
    const nul = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name":"a\\u0000b"}',
    });
    expectError(nul, 400, 'name contains characters that cannot be stored (NUL or unpaired surrogate)');
    const pair = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name":"Boi \\ud83d\\udc02"}',
    });
    expect(pair.statusCode).toBe(201);
    expect(pair.json().name).toBe('Boi 🐂');
  });
});

describe('client authentication (item 5, RFC 6749 2.3)', () => {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  it('credentials in Basic and in the body that disagree → 400 invalid_request, no token', async () => {
    const other = await createMerchant(t.app, 'Other');
    const cases = [
      {
        payload: { grant_type: 'client_credentials', client_id: me.merchantId, client_secret: other.clientSecret },
        title: 'client credentials given both in the Authorization header and in the body',
      },
      {
        payload: { grant_type: 'client_credentials', client_id: other.merchantId },
        title: 'client_id in the body does not match the Authorization header',
      },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { authorization: basic(me.merchantId, me.clientSecret) },
        payload: c.payload,
      });
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 400,
        body: { title: c.title, status: 400, error: 'invalid_request' },
      });
    }
  });

  it('Basic with a matching body client_id is fine', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: basic(me.merchantId, me.clientSecret) },
      payload: { grant_type: 'client_credentials', client_id: me.merchantId },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('oversized headers (item 6)', () => {
  it('431 with {title, status} over a real socket', async () => {
    const url = new URL(baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d) => {
        data += d;
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({ title: 'Request header fields are too large', status: 431 });
  });

  it('a request Fastify itself refuses early still answers {title, status}', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${baseUrl}/v1/orders/%zz`, { method: 'GET' }, (r) => {
        let body = '';
        r.on('data', (d) => {
          body += d;
        });
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 400 });
  });
});

describe('order of checks', () => {
  it('an unauthenticated body is never parsed: 401 even when the body is malformed', async () => {
    const order = await createSimpleOrder(t.app, me.merchantId);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: { 'content-type': 'application/json' },
      payload: nested(10_000),
    });
    expect(res.statusCode).toBe(401);
  });
});
