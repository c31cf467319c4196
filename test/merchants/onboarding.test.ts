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
  t = await createTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const onboard = (payload: unknown, token = m.token, url = '/v1/merchantOnboarding') =>
  t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object });

const adminMerchant = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/admin/v1/merchants/${id}`, headers: adminHeaders })).json();

describe('PUT /v1/merchantOnboarding (spec 4.2)', () => {
  it('registers the webhook base URL; getMerchantURL is null when never registered', async () => {
    const res = await onboard({ ordersWebhookURL: 'https://pos.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ getMerchantURL: null, ordersWebhookURL: 'https://pos.example.com' });
  });

  it('stores getMerchantURL, and keeps it when a later call omits it (partial update)', async () => {
    const first = await onboard({
      ordersWebhookURL: 'https://pos.example.com',
      getMerchantURL: { baseURL: 'https://pos.example.com/api', apiKey: 'pos-key-1' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      getMerchantURL: { baseURL: 'https://pos.example.com/api', apiKey: 'pos-key-1' },
      ordersWebhookURL: 'https://pos.example.com',
    });
    const second = await onboard({ ordersWebhookURL: 'https://pos2.example.com:8443' });
    expect(second.json()).toEqual({
      getMerchantURL: { baseURL: 'https://pos.example.com/api', apiKey: 'pos-key-1' },
      ordersWebhookURL: 'https://pos2.example.com:8443',
    });
  });

  it('remembers which integration key registered the webhook URL (D10)', async () => {
    const other = await addIntegrationKey(t.app, m.merchantId);
    expect((await onboard({ ordersWebhookURL: 'https://pos.example.com' }, other.token)).statusCode).toBe(200);
    const detail = await adminMerchant(m.merchantId);
    expect(detail.onboarding.webhookKeyId).toBe(other.keyId);
    expect(detail.onboarding.ordersWebhookURL).toBe('https://pos.example.com');
    // The operator sees that a POS api key is set, never the key itself.
    expect(detail.onboarding.getMerchantURL).toEqual({ baseURL: 'https://pos.example.com/api', apiKeySet: true });
    expect(JSON.stringify(detail)).not.toContain('pos-key-1');
  });

  it.each([
    [{}, 'ordersWebhookURL is required'],
    [{ ordersWebhookURL: 42 }, 'ordersWebhookURL must be string'],
    [{ ordersWebhookURL: 'not a url' }, 'ordersWebhookURL must be an absolute http(s) URL'],
    [{ ordersWebhookURL: 'ftp://pos.example.com' }, 'ordersWebhookURL must use http or https'],
    [{ ordersWebhookURL: 'https://pos.example.com/' }, 'ordersWebhookURL must not end with a slash'],
    [{ ordersWebhookURL: 'https://pos.example.com/hooks' }, 'ordersWebhookURL must be a base URL without a path'],
    [
      { ordersWebhookURL: 'https://pos.example.com?x=1' },
      'ordersWebhookURL must be a base URL without query or fragment',
    ],
    [{ ordersWebhookURL: 'https://u:p@pos.example.com' }, 'ordersWebhookURL must not contain credentials'],
    [{ ordersWebhookURL: 'https://pos.example.com', getMerchantURL: {} }, 'getMerchantURL.baseURL is required'],
    [
      { ordersWebhookURL: 'https://pos.example.com', getMerchantURL: { baseURL: 'https://pos.example.com' } },
      'getMerchantURL.apiKey is required',
    ],
    [
      { ordersWebhookURL: 'https://pos.example.com', getMerchantURL: { apiKey: 'k' } },
      'getMerchantURL.baseURL is required',
    ],
    [
      { ordersWebhookURL: 'https://pos.example.com', getMerchantURL: { baseURL: 'nope', apiKey: 'k' } },
      'getMerchantURL.baseURL must be an absolute http(s) URL',
    ],
    [
      { ordersWebhookURL: 'https://pos.example.com', getMerchantURL: { baseURL: 'https://x', apiKey: '  ' } },
      'getMerchantURL.apiKey must not be empty',
    ],
    [{ ordersWebhookURL: 'https://pos.example.com', merchantId: 'abc' }, 'merchantId must be a uuid'],
    [
      { ordersWebhookURL: 'https://pos.example.com', merchantId: '00000000-0000-4000-8000-000000000000' },
      'merchantId must be the merchant of the access token',
    ],
  ])('400 for %j', async (payload, title) => {
    const before = await adminMerchant(m.merchantId);
    const res = await onboard(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title, status: 400 });
    // Nothing half-written.
    expect((await adminMerchant(m.merchantId)).onboarding).toEqual(before.onboarding);
  });

  it('accepts merchantId in the body or as ?merchantId= when it is the token merchant (D21)', async () => {
    const body = await onboard({ ordersWebhookURL: 'https://pos.example.com', merchantId: m.merchantId });
    expect(body.statusCode).toBe(200);
    const query = await onboard(
      { ordersWebhookURL: 'https://pos.example.com' },
      m.token,
      `/v1/merchantOnboarding?merchantId=${m.merchantId}`,
    );
    expect(query.statusCode).toBe(200);
    const foreign = await onboard(
      { ordersWebhookURL: 'https://pos.example.com' },
      m.token,
      '/v1/merchantOnboarding?merchantId=00000000-0000-4000-8000-000000000000',
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ title: 'merchantId must be the merchant of the access token', status: 400 });
  });

  it('400 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: { ...bearer(m.token), 'content-type': 'application/json' },
      payload: '{"ordersWebhookURL": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title: 'Body is not valid JSON', status: 400 });
  });

  it('production accepts https webhook targets only (D12)', async () => {
    const prod = await createTestApp({
      database: t.database,
      env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '11111111-2222-4333-8444-555555555555' },
    });
    try {
      const res = await prod.app.inject({
        method: 'PUT',
        url: '/v1/merchantOnboarding',
        headers: bearer(m.token),
        payload: { ordersWebhookURL: 'http://pos.example.com' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ title: 'ordersWebhookURL must use https', status: 400 });
    } finally {
      await prod.close();
    }
  });
});
