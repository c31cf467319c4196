// Verifies a webhook notification (D10). The platform signs every notification twice, with the
// UTF-8 bytes of the client secret of the integration key that registered the webhook URL:
// - X-App-Signature: lowercase hex HMAC-SHA256 of the raw body (Open Delivery);
// - Standard Webhooks: webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
// Every scheme present must verify; at least one must be present. Verify the RAW body bytes:
// a body parsed and re-serialised is not what was signed. The secret is the client secret as
// issued, or the `whsec_` + base64 form that Standard Webhooks libraries take (the same key).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
import type { EventRecord } from './types.js';

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest allowed distance between webhook-timestamp and now (default 300 s). */
  toleranceSec?: number;
  now?: () => number;
}

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value[0] : value;
}

function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface VerifiedWebhook {
  event: EventRecord;
  /** Which schemes were present and verified. */
  schemes: Array<'x-app-signature' | 'standard-webhooks'>;
  /** webhook-id: the same on every retry of one occurrence, so a receiver can de-duplicate. */
  webhookId?: string;
}

export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const schemes: VerifiedWebhook['schemes'] = [];

  const appSignature = header(headers, 'x-app-signature');
  if (appSignature !== undefined) {
    if (!/^[0-9a-f]{64}$/.test(appSignature)) throw new WebhookVerificationError('X-App-Signature is malformed');
    const expected = createHmac('sha256', key).update(body).digest();
    if (!equalBytes(expected, Buffer.from(appSignature, 'hex'))) {
      throw new WebhookVerificationError('X-App-Signature does not match the body');
    }
    schemes.push('x-app-signature');
  }

  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (id !== undefined || timestamp !== undefined || signature !== undefined) {
    if (!id || !timestamp || !signature) {
      throw new WebhookVerificationError('webhook-id, webhook-timestamp and webhook-signature must all be present');
    }
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is malformed');
    const nowSec = Math.floor((options.now ?? Date.now)() / 1000);
    const tolerance = options.toleranceSec ?? 300;
    if (Math.abs(nowSec - Number(timestamp)) > tolerance) {
      throw new WebhookVerificationError('webhook-timestamp is outside the tolerance (replay or clock skew)');
    }
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
    // The header may carry several space-separated signatures (key rotation); one must match.
    const matches = signature
      .split(' ')
      .filter((s) => s.startsWith('v1,'))
      .some((s) => equalBytes(expected, Buffer.from(s.slice(3), 'base64')));
    if (!matches) throw new WebhookVerificationError('webhook-signature does not match the body');
    schemes.push('standard-webhooks');
  }

  if (schemes.length === 0) throw new WebhookVerificationError('the notification carries no signature');
  let event: EventRecord;
  try {
    event = JSON.parse(body.toString('utf8')) as EventRecord;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  return { event, schemes, webhookId: id };
}
