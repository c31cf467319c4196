import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders, createMerchant, type MerchantCredentials } from '../../../test/support/test-app.js';
import { CleaverAuthError, createPosClient } from '../src/index.js';
import { type FailingProxy, type RunningApp, recordingSleep, startApp, startFailingProxy } from './support.js';

describe('pos-client against a real server: tokens and retries', () => {
  let server: RunningApp;
  let proxy: FailingProxy;
  let merchant: MerchantCredentials;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000', CLEAVER_RATE_LIMIT_WRITE: '100000' } });
    proxy = await startFailingProxy(server.url);
    merchant = await createMerchant(server.app);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });
  beforeEach(() => {
    proxy.requests.length = 0;
  });

  const clientFor = (extra: Partial<Parameters<typeof createPosClient>[0]> = {}) =>
    createPosClient({
      baseUrl: proxy.url,
      clientId: merchant.merchantId,
      clientSecret: merchant.clientSecret,
      ...extra,
    });
  const tokenRequests = () => proxy.requests.filter((r) => r.path === '/oauth/token');

  it('reuses one token for 100 calls, sequential and concurrent (spec 5.1.3)', async () => {
    const client = clientFor();
    for (let i = 0; i < 50; i++) {
      const config = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
      expect(config.ordersWebhookURL).toBe('http://127.0.0.1:9');
    }
    await Promise.all(Array.from({ length: 50 }, () => client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' })));
    expect(tokenRequests()).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.path === '/v1/merchantOnboarding')).toHaveLength(100);
    const bearers = new Set(
      proxy.requests.filter((r) => r.path !== '/oauth/token').map((r) => r.headers.authorization),
    );
    expect(bearers.size).toBe(1);
  });

  it('concurrent first calls share a single token request', async () => {
    const client = clientFor();
    await Promise.all(Array.from({ length: 20 }, () => client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' })));
    expect(tokenRequests()).toHaveLength(1);
  });

  it('renews the token before it expires', async () => {
    let now = Date.now();
    const client = clientFor({ now: () => now, renewBeforeMs: 60_000 });
    await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
    now += 43_200_000 - 59_000; // inside the renewal window
    await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
    expect(tokenRequests()).toHaveLength(2);
  });

  it('after its token is revoked: one new token and one resend, then carries on (spec 5.1.4)', async () => {
    const client = clientFor();
    await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
    const { accessToken } = await client.token();
    const revoke = await server.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { token: accessToken, client_id: merchant.merchantId, client_secret: merchant.clientSecret },
    });
    expect(revoke.statusCode).toBe(200);
    proxy.requests.length = 0;

    const config = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:10' });
    expect(config.ordersWebhookURL).toBe('http://127.0.0.1:10');
    expect(proxy.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
      '/v1/merchantOnboarding 401',
      '/oauth/token 200',
      '/v1/merchantOnboarding 200',
    ]);
    const [first, , resend] = proxy.requests;
    expect(first.headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(resend.headers.authorization).not.toBe(`Bearer ${accessToken}`);
    expect((await client.token()).accessToken).not.toBe(accessToken);
  });

  it('gives up after one renewal when the key itself is gone (no retry loop with a bad credential)', async () => {
    const extra = await server.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys`,
      headers: adminHeaders,
      payload: {},
    });
    const { keyId, clientSecret } = extra.json() as { keyId: string; clientSecret: string };
    const client = createPosClient({ baseUrl: proxy.url, clientId: merchant.merchantId, clientSecret });
    await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
    const deleted = await server.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys/${keyId}`,
      headers: adminHeaders,
    });
    expect(deleted.statusCode).toBe(204);
    proxy.requests.length = 0;

    const error = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CleaverAuthError);
    expect((error as CleaverAuthError).status).toBe(401);
    expect((error as CleaverAuthError).title).toBe('The client credentials were incorrect.');
    expect(proxy.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
      '/v1/merchantOnboarding 401',
      '/oauth/token 401',
    ]);
  });

  it('bad client credentials: CleaverAuthError with the spec title, one request', async () => {
    const client = createPosClient({ baseUrl: proxy.url, clientId: merchant.merchantId, clientSecret: 'nope' });
    const error = await client.token().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CleaverAuthError);
    expect((error as CleaverAuthError).status).toBe(401);
    expect((error as CleaverAuthError).title).toBe('The client credentials were incorrect.');
    expect(tokenRequests()).toHaveLength(1);
  });

  it('backs off exponentially on injected 503s, then succeeds', async () => {
    const { delays, sleep } = recordingSleep();
    const client = clientFor({ sleep, retry: { baseDelayMs: 100, maxDelayMs: 10_000, maxAttempts: 5 } });
    await client.token();
    proxy.inject({ count: 3, status: 503, match: (_m, p) => p === '/v1/merchantOnboarding' });
    proxy.requests.length = 0;
    const config = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:11' });
    expect(config.ordersWebhookURL).toBe('http://127.0.0.1:11');
    expect(proxy.requests.map((r) => r.status)).toEqual([503, 503, 503, 200]);
    expect(delays).toHaveLength(3);
    // Equal jitter: attempt n waits between half and all of base·2^(n-1).
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual((100 * 2 ** i) / 2);
      expect(d).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('honours Retry-After on an injected 429', async () => {
    const { delays, sleep } = recordingSleep();
    const client = clientFor({ sleep, retry: { baseDelayMs: 100 } });
    await client.token();
    proxy.inject({ count: 2, status: 429, headers: { 'retry-after': '2' } });
    const config = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:12' });
    expect(config.ordersWebhookURL).toBe('http://127.0.0.1:12');
    expect(delays).toHaveLength(2);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(2100);
    }
  });

  it('stops after maxAttempts and reports the last 503 with its title', async () => {
    const { delays, sleep } = recordingSleep();
    const client = clientFor({ sleep, retry: { maxAttempts: 3, baseDelayMs: 10 } });
    await client.token();
    proxy.inject({ count: 10, status: 503 });
    const error = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:13' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CleaverApiError', status: 503, title: 'Service Unavailable' });
    expect(delays).toHaveLength(2);
    proxy.inject({ count: 0, status: 503 });
  });

  it('a 429 on the token endpoint is retried too (auth-route limit, spec 8)', async () => {
    const { delays, sleep } = recordingSleep();
    const client = clientFor({ sleep });
    proxy.inject({ count: 1, status: 429, headers: { 'retry-after': '1' }, match: (_m, p) => p === '/oauth/token' });
    await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
    expect(tokenRequests().map((r) => r.status)).toEqual([429, 200]);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
  });

  it('a 400 is not retried and carries the field-naming title', async () => {
    const client = clientFor();
    const error = await client
      .onboard({ ordersWebhookURL: 'http://127.0.0.1:9', getMerchantURL: { baseURL: 'http://pos.test' } as never })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, title: 'getMerchantURL.apiKey is required' });
    expect(proxy.requests.filter((r) => r.path === '/v1/merchantOnboarding')).toHaveLength(1);
  });
});
