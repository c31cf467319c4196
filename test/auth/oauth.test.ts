import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

let t: TestApp;
let m: MerchantCredentials;

beforeAll(async () => {
  // The auth budget is raised here; its own describe below checks the real limit of 30.
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '100000' } });
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const onboard = (token: string) =>
  t.app.inject({
    method: 'PUT',
    url: '/v1/merchantOnboarding',
    headers: bearer(token),
    payload: { ordersWebhookURL: 'http://127.0.0.1:9' },
  });

const tokenRequest = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/oauth/token', payload });

describe('POST /oauth/token', () => {
  it('issues a 12-hour HS256 JWT for client credentials sent as JSON', async () => {
    const res = await tokenRequest({
      client_id: m.merchantId,
      client_secret: m.clientSecret,
      grant_type: 'client_credentials',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 43200 });
    const claims = decodeJwt(body.access_token);
    expect(claims.sub).toBe(m.merchantId);
    expect(claims.kid).toBe(m.keyId);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(43200);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect((await onboard(body.access_token)).statusCode).toBe(200);
  });

  it('accepts application/x-www-form-urlencoded', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        client_id: m.merchantId,
        client_secret: m.clientSecret,
        grant_type: 'client_credentials',
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().token_type).toBe('Bearer');
  });

  it('accepts HTTP Basic client authentication', async () => {
    const basic = Buffer.from(`${m.merchantId}:${m.clientSecret}`).toString('base64');
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: `Basic ${basic}` },
      payload: { grant_type: 'client_credentials' },
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    [{ client_secret: 'x', grant_type: 'client_credentials' }, 'client_id is required', 'invalid_request'],
    [{ client_id: 'x', grant_type: 'client_credentials' }, 'client_secret is required', 'invalid_request'],
    [{ client_id: 'x', client_secret: 'y' }, 'grant_type is required', 'invalid_request'],
    [
      { client_id: 'x', client_secret: 'y', grant_type: 'password' },
      'grant_type must be client_credentials',
      'unsupported_grant_type',
    ],
    [
      { client_id: 5, client_secret: 'y', grant_type: 'client_credentials' },
      'client_id must be a string',
      'invalid_request',
    ],
  ])('400 for %j', async (payload, title, error) => {
    const res = await tokenRequest(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title, status: 400, error });
  });

  const badCredentials = {
    title: 'The client credentials were incorrect.',
    status: 401,
    error: 'invalid_credentials',
    message: 'The client credentials were incorrect.',
  };

  it('401 with both body shapes of spec 7 for a wrong secret', async () => {
    const res = await tokenRequest({
      client_id: m.merchantId,
      client_secret: `${m.clientSecret.slice(0, -2)}xx`,
      grant_type: 'client_credentials',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(badCredentials);
  });

  it('401 for a secret presented with another merchant id', async () => {
    const other = await createMerchant(t.app, 'Other');
    const res = await tokenRequest({
      client_id: other.merchantId,
      client_secret: m.clientSecret,
      grant_type: 'client_credentials',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(badCredentials);
  });

  it('401 for garbage secrets and for the secret of a deleted key', async () => {
    const res = await tokenRequest({
      client_id: m.merchantId,
      client_secret: 'nope',
      grant_type: 'client_credentials',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(badCredentials);
    const extra = await addIntegrationKey(t.app, m.merchantId);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${m.merchantId}/integrationKeys/${extra.keyId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    const again = await tokenRequest({
      client_id: m.merchantId,
      client_secret: extra.clientSecret,
      grant_type: 'client_credentials',
    });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(badCredentials);
  });

  it('415 for a content type it does not read', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'text/plain' },
      payload: 'client_id=x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ title: 'Unsupported content type: send application/json', status: 415 });
  });
});

describe('several integration keys per merchant', () => {
  it('gives each key its own tokens; deleting one leaves the other working', async () => {
    const second = await addIntegrationKey(t.app, m.merchantId);
    const first = await addIntegrationKey(t.app, m.merchantId);
    expect(decodeJwt(second.token).kid).toBe(second.keyId);
    expect((await onboard(first.token)).statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${m.merchantId}/integrationKeys/${second.keyId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    const refused = await onboard(second.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ title: 'Integration key no longer exists', status: 401 });
    expect((await onboard(first.token)).statusCode).toBe(200);
  });
});

describe('POST /oauth/revoke', () => {
  it('revokes the token (200), and answers 200 for unknown tokens too (RFC 7009)', async () => {
    const k = await addIntegrationKey(t.app, m.merchantId);
    expect((await onboard(k.token)).statusCode).toBe(200); // now cached
    const creds = { client_id: m.merchantId, client_secret: k.clientSecret };
    const res = await t.app.inject({ method: 'POST', url: '/oauth/revoke', payload: { ...creds, token: k.token } });
    expect(res.statusCode).toBe(200);
    const refused = await onboard(k.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ title: 'Access token revoked', status: 401 });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { ...creds, token: 'abc.def.ghi' },
    });
    expect(unknown.statusCode).toBe(200);
  });

  it('does not let one key revoke the token of another', async () => {
    const a = await addIntegrationKey(t.app, m.merchantId);
    const b = await addIntegrationKey(t.app, m.merchantId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { client_id: m.merchantId, client_secret: a.clientSecret, token: b.token },
    });
    expect(res.statusCode).toBe(200);
    expect((await onboard(b.token)).statusCode).toBe(200);
  });

  it('401 on bad client credentials, 400 without a token', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { client_id: m.merchantId, client_secret: 'wrong', token: m.token },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().title).toBe('The client credentials were incorrect.');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { client_id: m.merchantId, client_secret: m.clientSecret },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ title: 'token is required', status: 400, error: 'invalid_request' });
  });
});

describe('POST /oauth/refresh', () => {
  it('exchanges a valid token for a new one and revokes the old', async () => {
    const k = await addIntegrationKey(t.app, m.merchantId);
    const res = await t.app.inject({ method: 'POST', url: '/oauth/refresh', headers: bearer(k.token) });
    expect(res.statusCode).toBe(200);
    const fresh = res.json();
    expect(fresh.expires_in).toBe(43200);
    expect(fresh.access_token).not.toBe(k.token);
    expect((await onboard(fresh.access_token)).statusCode).toBe(200);
    const old = await onboard(k.token);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({ title: 'Access token revoked', status: 401 });
  });

  it('401 without a valid bearer token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/oauth/refresh' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ title: 'Missing bearer token', status: 401 });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });
});

describe('auth rate limit (spec 8, D23)', () => {
  it('allows 30 requests a minute per IP, shared by token, revoke and refresh, then 429', async () => {
    const limited = await createTestApp({ database: t.database });
    try {
      const urls = ['/oauth/token', '/oauth/revoke', '/oauth/refresh'];
      for (let i = 0; i < 30; i++) {
        const res = await limited.app.inject({ method: 'POST', url: urls[i % 3], payload: {} });
        expect(res.statusCode).not.toBe(429);
        expect(res.headers['ratelimit-policy']).toBe('"auth";q=30;w=60');
        expect(res.headers.ratelimit).toMatch(new RegExp(`^"auth";r=${29 - i};t=\\d+$`));
      }
      for (const url of urls) {
        const res = await limited.app.inject({ method: 'POST', url, payload: {} });
        expect(res.statusCode).toBe(429);
        expect(res.json()).toEqual({ title: 'Too Many Requests', status: 429 });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Another client IP has its own budget.
      const other = await limited.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: {},
        remoteAddress: '10.1.2.3',
      });
      expect(other.statusCode).toBe(400);
    } finally {
      await limited.close();
    }
  });
});
