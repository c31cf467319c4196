import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signBody, verifyWebhook, WebhookVerificationError } from '../src/index.js';

const secret = 'k_4f1c.s3cr3t-of-the-integration-key';
const record = {
  eventId: '0b4f0d1e-7c6a-5c1e-9a55-1d2b3c4d5e6f',
  eventType: 'CREATED',
  orderId: '9f1b6a52-3c2d-4e0f-8a7b-6c5d4e3f2a1b',
  orderURL: 'http://cleaver.test/v1/orders/9f1b6a52-3c2d-4e0f-8a7b-6c5d4e3f2a1b',
  createdAt: '2026-11-22T03:00:00.000Z',
  sourceAppId: '6f1c2a4e-8b3d-4c5e-9a7f-0d2e4b6c8a10',
};
const raw = JSON.stringify(record);
const now = Date.parse('2026-11-22T03:00:05Z');

function signedHeaders(body = raw, at = now) {
  // The reference implementation signs with the raw key bytes: D10 keys with the UTF-8 secret.
  const sw = new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
  const id = 'msg_2a7d3c';
  return {
    'x-app-signature': createHmac('sha256', secret).update(body).digest('hex'),
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at / 1000)),
    'webhook-signature': sw.sign(id, new Date(at), body),
  };
}

describe('verifyWebhook (D10)', () => {
  it('accepts a notification signed with both schemes and returns the event', () => {
    const verified = verifyWebhook(raw, signedHeaders(), secret, { now: () => now });
    expect(verified.event).toEqual(record);
    expect(verified.schemes).toEqual(['x-app-signature', 'standard-webhooks']);
    expect(verified.webhookId).toBe('msg_2a7d3c');
  });

  it('accepts either scheme alone, from a Headers object or a Buffer body', () => {
    const h = signedHeaders();
    expect(verifyWebhook(Buffer.from(raw), { 'X-App-Signature': h['x-app-signature'] }, secret).schemes).toEqual([
      'x-app-signature',
    ]);
    const headers = new Headers({
      'webhook-id': h['webhook-id'],
      'webhook-timestamp': h['webhook-timestamp'],
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${h['webhook-signature']}`,
    });
    expect(verifyWebhook(raw, headers, secret, { now: () => now }).schemes).toEqual(['standard-webhooks']);
  });

  it('refuses a body changed after signing, even by whitespace', () => {
    const h = signedHeaders();
    const reformatted = JSON.stringify(record, null, 1);
    expect(() => verifyWebhook(reformatted, { 'x-app-signature': h['x-app-signature'] }, secret)).toThrow(
      'X-App-Signature does not match the body',
    );
    const { 'x-app-signature': _, ...standard } = h;
    expect(() => verifyWebhook(reformatted, standard, secret, { now: () => now })).toThrow(
      'webhook-signature does not match the body',
    );
  });

  it('refuses a wrong secret, a stale timestamp, missing and malformed headers', () => {
    const h = signedHeaders();
    expect(() => verifyWebhook(raw, h, 'another-secret', { now: () => now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(raw, h, secret, { now: () => now + 301_000 })).toThrow('outside the tolerance');
    expect(() => verifyWebhook(raw, h, secret, { now: () => now + 200_000, toleranceSec: 100 })).toThrow(
      'outside the tolerance',
    );
    expect(() => verifyWebhook(raw, {}, secret)).toThrow('the notification carries no signature');
    expect(() => verifyWebhook(raw, { 'x-app-signature': 'ABC' }, secret)).toThrow('X-App-Signature is malformed');
    expect(() => verifyWebhook(raw, { 'webhook-id': 'x' }, secret)).toThrow('must all be present');
    // Both present: both must verify.
    expect(() =>
      verifyWebhook(raw, { ...h, 'x-app-signature': signBody(raw, 'other') }, secret, { now: () => now }),
    ).toThrow('X-App-Signature does not match the body');
  });

  it('the standardwebhooks reference library accepts what verifyWebhook accepts', () => {
    const h = signedHeaders(raw, Date.now());
    const sw = new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
    expect(sw.verify(raw, h)).toEqual(record);
    expect(verifyWebhook(raw, h, secret).event).toEqual(record);
  });
});

// The vectors every Cleaver client checks (the Pascal and C# clients' tests run the same file):
// the three verifiers must agree on every outcome and every refusal's words.
interface SignatureVector {
  name: string;
  secret?: string;
  headers: Record<string, string>;
  body: string;
  now: number;
  valid: boolean;
  schemes?: string[];
  eventType?: string;
  error?: string;
}
const shared = JSON.parse(
  readFileSync(new URL('../../../clients/signature-vectors.json', import.meta.url), 'utf8'),
) as {
  secret: string;
  cases: SignatureVector[];
};

describe('verifyWebhook on the signature vectors shared with the Pascal and C# clients', () => {
  it.each(shared.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const verify = () => verifyWebhook(c.body, c.headers, c.secret ?? shared.secret, { now: () => c.now * 1000 });
    if (c.valid) {
      const verified = verify();
      expect(verified.schemes).toEqual(c.schemes);
      expect(verified.event.eventType).toBe(c.eventType);
    } else {
      expect(verify).toThrow(new WebhookVerificationError(c.error));
    }
  });
});
