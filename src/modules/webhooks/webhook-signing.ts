// D10: every webhook carries two signatures over the exact body bytes, both keyed with the
// UTF-8 bytes of the client_secret of the integration key that registered the URL:
// - X-App-Signature: lowercase hex HMAC-SHA256 of the body (Open Delivery, spec 5.2 style);
// - Standard Webhooks: webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
// Standard Webhooks libraries expect a `whsec_<base64>` secret: the POS passes
// `whsec_` + base64(utf8 client_secret) to them (see the receiver tests).
import { hmacSha256Base64, hmacSha256Hex } from '../../lib/crypto.js';

export interface WebhookHeadersInput {
  appId: string;
  merchantId: string;
  webhookId: string;
  /** Unix seconds of this attempt (Standard Webhooks: receivers reject stale timestamps). */
  timestampSec: number;
  body: string;
  secret: string;
}

/** The headers of one queued delivery, signed at `now` with the merchant's key secret. */
export function signDelivery(
  appId: string,
  row: { merchant_id: string; occurrence_id: string; body: string },
  secret: string,
  now: Date,
): Record<string, string> {
  return signWebhook({
    appId,
    merchantId: row.merchant_id,
    webhookId: row.occurrence_id,
    timestampSec: Math.floor(now.getTime() / 1000),
    body: row.body,
    secret,
  });
}

export function signWebhook(input: WebhookHeadersInput): Record<string, string> {
  const key = Buffer.from(input.secret, 'utf8');
  const body = Buffer.from(input.body, 'utf8');
  const signedContent = Buffer.concat([Buffer.from(`${input.webhookId}.${input.timestampSec}.`, 'utf8'), body]);
  return {
    'content-type': 'application/json',
    'x-app-id': input.appId,
    'x-app-merchantid': input.merchantId,
    'x-app-signature': hmacSha256Hex(key, body),
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(input.timestampSec),
    'webhook-signature': `v1,${hmacSha256Base64(key, signedContent)}`,
  };
}
