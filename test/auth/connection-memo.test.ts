// The bearer check remembers, per connection, the header of its last request and whom it named
// (src/plugins/auth-hooks.ts, merchantAuth). These requests go over one real keep-alive
// connection, so every check after the first takes that path: whatever changed since (a
// revocation, a deleted key, expiry, a new profile, another token) must be seen exactly as on a
// new connection.
import { randomUUID } from 'node:crypto';
import { Client } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { setProfile } from '../opendelivery/od-support.js';
import {
  addIntegrationKey,
  adminHeaders,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

const clock = manualClock(new Date());
let t: TestApp;
let m: MerchantCredentials;
let baseUrl: string;
let connections = 0;
let client: Client;

beforeAll(async () => {
  t = await createTestApp({ clock });
  m = await createMerchant(t.app);
  t.app.server.on('connection', () => {
    connections += 1;
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

beforeEach(() => {
  connections = 0;
  client = new Client(baseUrl, { pipelining: 1, keepAliveTimeout: 60_000 });
});
afterEach(() => client.close());

/** A merchant read whose answer shows the key's profile: an unknown order is a 404 in its dialect. */
async function readUnknownOrder(token: string) {
  const res = await client.request({
    method: 'GET',
    path: `/v1/orders/${randomUUID()}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    body: (await res.body.json()) as { title: string; status: number },
  };
}

async function expectUnauthorized(token: string, title: string) {
  const res = await readUnknownOrder(token);
  expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { title, status: 401 } });
}

async function expectAccepted(token: string, profile: 'cleaver' | 'opendelivery') {
  const res = await readUnknownOrder(token);
  expect(res.status).toBe(404);
  expect(res.body.status).toBe(404);
  expect(res.contentType).toMatch(profile === 'cleaver' ? /^application\/json/ : /^application\/problem\+json/);
}

describe('the bearer check on a keep-alive connection', () => {
  it('sees a revocation on the very next request', async () => {
    const k = await addIntegrationKey(t.app, m.merchantId);
    await expectAccepted(k.token, 'cleaver');
    await expectAccepted(k.token, 'cleaver');
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { client_id: m.merchantId, client_secret: k.clientSecret, token: k.token },
    });
    expect(revoke.statusCode).toBe(200);
    await expectUnauthorized(k.token, 'Access token revoked');
    await expectUnauthorized(k.token, 'Access token revoked');
    expect(connections).toBe(1);
  });

  it('sees a deleted key on the very next request', async () => {
    const k = await addIntegrationKey(t.app, m.merchantId);
    await expectAccepted(k.token, 'cleaver');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${m.merchantId}/integrationKeys/${k.keyId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    await expectUnauthorized(k.token, 'Integration key no longer exists');
    expect(connections).toBe(1);
  });

  it("follows the key's profile as it changes", async () => {
    const k = await addIntegrationKey(t.app, m.merchantId);
    await expectAccepted(k.token, 'cleaver');
    expect((await setProfile(t.app, m.merchantId, k.keyId, 'opendelivery')).statusCode).toBe(200);
    await expectAccepted(k.token, 'opendelivery');
    expect((await setProfile(t.app, m.merchantId, k.keyId, 'cleaver')).statusCode).toBe(200);
    await expectAccepted(k.token, 'cleaver');
    expect(connections).toBe(1);
  });

  it('answers each token as its own when several share the connection (a proxy)', async () => {
    const plain = await addIntegrationKey(t.app, m.merchantId);
    const od = await addIntegrationKey(t.app, m.merchantId);
    expect((await setProfile(t.app, m.merchantId, od.keyId, 'opendelivery')).statusCode).toBe(200);
    await expectAccepted(plain.token, 'cleaver');
    await expectAccepted(od.token, 'opendelivery');
    await expectAccepted(plain.token, 'cleaver');
    await expectUnauthorized(`${plain.token}x`, 'Invalid access token');
    await expectAccepted(plain.token, 'cleaver');
    const noHeader = await client.request({ method: 'GET', path: `/v1/orders/${randomUUID()}` });
    expect({ status: noHeader.statusCode, body: await noHeader.body.json() }).toEqual({
      status: 401,
      body: { title: 'Missing bearer token', status: 401 },
    });
    await expectAccepted(od.token, 'opendelivery');
    expect(connections).toBe(1);
  });

  it('refuses a token once it has expired, though the connection verified it before', async () => {
    const k = await addIntegrationKey(t.app, m.merchantId);
    await expectAccepted(k.token, 'cleaver');
    clock.advance(43_200 * 1000);
    await expectUnauthorized(k.token, 'Access token expired');
    expect(connections).toBe(1);
  });
});
