import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health, metrics, OpenAPI', () => {
  it('reports live and ready', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: t.database.kind });
  });

  it('serves Prometheus metrics with request counts by route pattern', async () => {
    await createMerchant(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /cleaver_http_requests_total\{method="POST",route="\/admin\/v1\/merchants",status="201"\} 1/,
    );
    expect(res.body).toContain('cleaver_http_request_duration_seconds_bucket');
    expect(res.body).toContain('cleaver_process_cpu_user_seconds_total');
  });

  it('exposes every request in the duration histogram: cumulative buckets, +Inf, sum and count per route', async () => {
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body.split('\n');
    const sampleOf = (lines: string[], prefix: string) => {
      const found = lines.find((l) => l.startsWith(prefix));
      return found === undefined ? 0 : Number(found.slice(found.lastIndexOf(' ') + 1));
    };
    const live = 'method="GET",route="/health/live"';
    const series = [
      `cleaver_http_requests_total{${live},status="200"}`,
      'cleaver_http_requests_total{method="GET",route="unmatched",status="404"}',
      `cleaver_http_request_duration_seconds_bucket{le="+Inf",${live}}`,
      `cleaver_http_request_duration_seconds_count{${live}}`,
    ];
    const before = await scrape();
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: '/no/such/route' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404 });
    const after = await scrape();
    expect(series.map((p) => sampleOf(after, p) - sampleOf(before, p))).toEqual([3, 1, 3, 3]);
    expect(after).toContain('# TYPE cleaver_http_request_duration_seconds histogram');
    const buckets = after
      .filter((l) => l.startsWith('cleaver_http_request_duration_seconds_bucket{') && l.includes(live))
      .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
    expect(buckets).toHaveLength(12); // 11 bounds and +Inf
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b)); // cumulative
    const sum = sampleOf(after, `cleaver_http_request_duration_seconds_sum{${live}}`);
    expect(sum).toBeGreaterThan(sampleOf(before, `cleaver_http_request_duration_seconds_sum{${live}}`));
    expect(sum).toBeLessThan(sampleOf(after, `cleaver_http_request_duration_seconds_count{${live}}`) * 5);
  });

  it('counts each request once under its route pattern: HEAD twins of GET routes, routes in prefixed scopes, their refusals', async () => {
    const pos = await createMerchant(t.app);
    const count = async (labels: string) => {
      const lines = (await t.app.inject({ method: 'GET', url: '/metrics' })).body.split('\n');
      const found = lines.find((l) => l.startsWith(`cleaver_http_requests_total{${labels}}`));
      return found === undefined ? 0 : Number(found.slice(found.lastIndexOf(' ') + 1));
    };
    const series = [
      'method="HEAD",route="/health/live",status="200"',
      'method="GET",route="/health/live",status="200"',
      'method="GET",route="/v1/orders/:orderId",status="404"',
      'method="GET",route="/v1/orders/:orderId",status="401"',
    ];
    const before = await Promise.all(series.map(count));
    const head = await t.app.inject({ method: 'HEAD', url: '/health/live' });
    expect(head.statusCode).toBe(200);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/v1/orders/7b0ea94f-8cc0-4b5a-bd4f-f77309d06ac9',
      headers: bearer(pos.token),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404 });
    // D23: the order read is in the read group, whatever else the route's hooks do.
    expect(unknown.headers['ratelimit-policy']).toBe('"read";q=200;w=60');
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/orders/7b0ea94f-8cc0-4b5a-bd4f-f77309d06ac9' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 401 });
    const after = await Promise.all(series.map(count));
    expect(after.map((n, i) => n - (before[i] as number))).toEqual([1, 0, 1, 1]);
  });

  it('serves an OpenAPI 3 document generated from the route schemas, and a reference UI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://cleaver.test' }]);
    const token = doc.paths['/oauth/token'].post;
    expect(token.responses['200'].content['application/json'].schema.properties.expires_in).toEqual({
      type: 'integer',
      description: 'Seconds the token stays valid from now; ask for a new one shortly before.',
    });
    expect(doc.paths['/v1/merchantOnboarding'].put.requestBody.content['application/json'].schema.required).toEqual([
      'ordersWebhookURL',
    ]);
    expect(doc.components.schemas.Error).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('answers unknown routes with a JSON 404 body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ title: 'Route not found', status: 404 });
  });

  it('413 for a body over the limit', async () => {
    const small = await createTestApp({ database: t.database, env: { CLEAVER_BODY_LIMIT: '1024' } });
    try {
      const res = await small.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { client_id: 'x'.repeat(2000) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ title: 'Request body is too large', status: 413 });
    } finally {
      await small.close();
    }
  });
});

describe('text the database cannot store', () => {
  it('400 naming the field for a NUL character or an unpaired surrogate, before anything is written', async () => {
    for (const name of ['Açougue\u0000', 'Boi \ud800']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/merchants',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        title: 'name contains characters that cannot be stored (NUL or unpaired surrogate)',
        status: 400,
      });
    }
  });

  it('400 naming the path parameter for a NUL in it (%00), not a 500 from the database', async () => {
    const m = await createMerchant(t.app, 'Açougue Caminho');
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${m.merchantId}/products/00000000-0000-4000-8000-000000000001/cuts/%00`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      title: 'cutId contains characters that cannot be stored (NUL or unpaired surrogate)',
      status: 400,
    });
  });
});
