// /openapi.json as a client gets it: compressed as the client accepts (br, else gzip), with an
// ETag, and 304 without a body when the client has it already. And its error examples can happen:
// no 413/415 on an operation without a body, and each operation's 400 example is the answer the
// service gives to that operation's own mistake (a path id that is not a uuid, a required body
// field left out, a query value off its list), not one example repeated everywhere.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
let t: TestApp;
let token: string;
let doc: Json;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_READ: '100000', CLEAVER_RATE_LIMIT_WRITE: '100000' } });
  token = (await createMerchant(t.app, 'Açougue Contrato Publicado')).token;
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
const example400 = (op: Json) =>
  (((op.responses as Record<string, Json>)['400']?.content as Record<string, Json> | undefined)?.['application/json']
    ?.example ?? undefined) as { title: string; status: number } | undefined;

// /docs/json is what the reference page at /docs reads: the same document, served the same way.
describe.each(['/openapi.json', '/docs/json'])('%s: compression and revalidation', (url) => {
  it('br, gzip or plain as accepted; the same document each way', async () => {
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br;q=0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // Compression is the point: the document shrinks to a small part of its size.
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    // One document at both addresses.
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body).toBe(plain.body);
  });

  it('ETag; If-None-Match with it is 304 without a body, with another tag 200', async () => {
    const first = await t.app.inject({ method: 'GET', url });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': etag, 'accept-encoding': 'br' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"old"' } });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(first.body);
  });
});

describe('/openapi.json: error examples that can happen', () => {
  it('no 413 or 415 on a GET', () => {
    const wrong = operations()
      .filter((o) => o.method === 'GET')
      .filter((o) => ['413', '415'].some((code) => code in (o.op.responses as Json)))
      .map((o) => `${o.method} ${o.path}`);
    expect(wrong).toEqual([]);
  });

  it('400 examples differ between operations', () => {
    const titles = new Set(operations().map((o) => example400(o.op)?.title));
    expect(titles.size).toBeGreaterThan(15);
  });

  it('each 400 example naming a path id, a body field or a query value is what the service answers', async () => {
    const checked: string[] = [];
    const problems: string[] = [];
    for (const { path, method, op } of operations()) {
      const example = example400(op);
      if (!example || path.startsWith('/v1/logistics/') || path.includes(':')) continue;
      const headers = path.startsWith('/admin/') ? adminHeaders : path.startsWith('/v1/') ? bearer(token) : {};
      const param = /^(\w+) must be a uuid \(params\)$/.exec(example.title)?.[1];
      const field = /^(\w+) is required$/.exec(example.title)?.[1];
      const query = /^(\w+) must be one of .* \(query\)$/.exec(example.title)?.[1];
      let url = path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        name === param ? 'not-a-uuid' : '00000000-0000-4000-8000-000000000000',
      );
      if (query) url += `?${query}=NOT_ONE`;
      if (!param && !field && !query) continue;
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(field ? { 'content-type': 'application/json' } : {}) },
        payload: field ? '{}' : undefined,
      });
      checked.push(`${method} ${path}`);
      const got = { status: res.statusCode, body: res.json() };
      if (JSON.stringify(got) !== JSON.stringify({ status: 400, body: example })) {
        problems.push(`${method} ${path}: documented ${JSON.stringify(example)}, got ${JSON.stringify(got)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked.length).toBeGreaterThan(30);
  });
});
