import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './webhook-signing.js';

describe('signWebhook (D10)', () => {
  const input = {
    appId: 'a1b2c3d4-0000-4000-8000-000000000001',
    merchantId: 'a1b2c3d4-0000-4000-8000-000000000002',
    webhookId: 'a1b2c3d4-0000-4000-8000-000000000003',
    timestampSec: 1_767_225_600,
    body: '{"eventType":"CREATED","reason":"açougue"}',
    secret: 'cs_test_secret_ü',
  };

  it('matches known vectors computed independently (openssl dgst -sha256 -hmac)', () => {
    const h = signWebhook(input);
    expect(h['x-app-signature']).toBe('109c62802b06b23adbd115739cebd5fc16ebaaeb9ba2adb2a3ba84bb0ee65033');
    expect(h).toMatchObject({
      'content-type': 'application/json',
      'x-app-id': input.appId,
      'x-app-merchantid': input.merchantId,
      'webhook-id': input.webhookId,
      'webhook-timestamp': '1767225600',
    });
    // Standard Webhooks' own signer, given the same key bytes, produces the same header.
    const wh = new Webhook(Buffer.from(input.secret, 'utf8'), { format: 'raw' });
    expect(h['webhook-signature']).toBe(wh.sign(input.webhookId, new Date(input.timestampSec * 1000), input.body));
  });

  it('changes with any byte of the body', () => {
    const a = signWebhook(input);
    const b = signWebhook({ ...input, body: `${input.body} ` });
    expect(a['x-app-signature']).not.toBe(b['x-app-signature']);
    expect(a['webhook-signature']).not.toBe(b['webhook-signature']);
  });
});
