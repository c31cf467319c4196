// An integration key's page in the console: operators see the key's recent requests
// as its POS reads them with GET /v1/developer/requests (newest first; failed ones with their
// error title and their body, secrets redacted), only that key's, linked from the merchant page.
import { describe, expect, it } from 'vitest';
import { addIntegrationKey, bearer, createMerchant, createTestApp } from '../support/test-app.js';
import { login } from './console-session.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The visible text of a page, tags dropped and spaces squeezed. */
const text = (body: string) =>
  body
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describe("the console's key page", () => {
  it("lists the key's recent requests, failed ones with error and redacted body, in English and Portuguese", async () => {
    const t = await createTestApp();
    try {
      const me = await createMerchant(t.app, 'Açougue do Console');
      const other = await addIntegrationKey(t.app, me.merchantId);
      const ok = await t.app.inject({ url: '/v1/merchant', headers: bearer(me.token) });
      const refused = await t.app.inject({
        method: 'PUT',
        url: '/v1/merchantOnboarding',
        headers: bearer(me.token),
        payload: { ordersWebhookURL: 'nope', getMerchantURL: { baseURL: 'https://pos.example.com', apiKey: 'LEAK' } },
      });
      expect([ok.statusCode, refused.statusCode]).toEqual([200, 400]);
      const foreign = await t.app.inject({ url: `/v1/orders/${UNKNOWN}`, headers: bearer(other.token) });

      const s = await login(t.app);
      const keyUrl = `/console/merchants/${me.merchantId}/keys/${me.keyId}`;
      // The merchant page links each key to its page.
      const merchantPage = await s.get(`/console/merchants/${me.merchantId}`);
      expect(merchantPage.body).toContain(`<a href="${keyUrl}"`);

      const page = await s.get(keyUrl);
      expect(page.statusCode).toBe(200);
      const body = text(page.body);
      expect(body).toContain('Recent requests');
      expect(body).toContain(me.keyId);
      // Newest first: the refused onboarding, then the merchant read.
      const rows = [...page.body.matchAll(/<code class="wrap">(GET|PUT) ([^<]+)<\/code>/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
      expect(rows).toEqual(['PUT /v1/merchantOnboarding', 'GET /v1/merchant']);
      expect(page.body).toContain(`<span lang="en">${refused.json().title}</span>`);
      expect(page.body).toContain(`<code class="wrap">${refused.headers['x-request-id']}</code>`);
      expect(page.body).toContain(`<code class="wrap">${ok.headers['x-request-id']}</code>`);
      expect(body).toContain('"apiKey":"[redacted]"');
      expect(page.body).not.toContain('LEAK');
      // Only this key's requests.
      expect(page.body).not.toContain(foreign.headers['x-request-id'] as string);

      // Failed only.
      const failed = await s.get(`${keyUrl}?failed=1`);
      expect(failed.body).toContain(refused.headers['x-request-id'] as string);
      expect(failed.body).not.toContain(ok.headers['x-request-id'] as string);

      // The other key has its own page, with its own request.
      const otherPage = await s.get(`/console/merchants/${me.merchantId}/keys/${other.keyId}`);
      expect(otherPage.body).toContain(foreign.headers['x-request-id'] as string);
      expect(text(otherPage.body)).toContain('Order not found');

      // In Portuguese.
      const pt = await s.get(keyUrl, { cookie: 'cleaver_lang=pt-BR' });
      expect(text(pt.body)).toContain('Requisições recentes');
      expect(text(pt.body)).toContain('Só as que falharam');

      // A key of nobody, or of another merchant: 404 page.
      const unknown = await s.get(`/console/merchants/${me.merchantId}/keys/${UNKNOWN}`);
      expect(unknown.statusCode).toBe(404);
      expect(text(unknown.body)).toContain('There is no such integration key.');
      const elsewhere = await createMerchant(t.app, 'Outro Açougue');
      const wrongMerchant = await s.get(`/console/merchants/${elsewhere.merchantId}/keys/${me.keyId}`);
      expect(wrongMerchant.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('says when the key made no request', async () => {
    const t = await createTestApp();
    try {
      const me = await createMerchant(t.app);
      const s = await login(t.app);
      const page = await s.get(`/console/merchants/${me.merchantId}/keys/${me.keyId}`);
      expect(page.statusCode).toBe(200);
      expect(text(page.body)).toContain('No request from this key in the last 24 hours.');
      const failed = await s.get(`/console/merchants/${me.merchantId}/keys/${me.keyId}?failed=1`);
      expect(text(failed.body)).toContain('No failed request from this key in the last 24 hours.');
    } finally {
      await t.close();
    }
  });
});
