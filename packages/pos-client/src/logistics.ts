// The logistics partner's client (spec 4.14, 4.15, 5.2): no bearer token; every request carries
// X-App-Id, X-App-MerchantId and X-App-Signature, the lowercase hex HMAC-SHA256 of the exact
// bytes sent. The body is serialised once and those same bytes are signed and sent (and resent
// on 429/503, or after a broken connection: the platform recognises a repeated deliveryUpdate
// by its bytes and changes nothing, and confirmationCode only checks).
import { createHmac } from 'node:crypto';
import { createHttp, type HttpOptions } from './http.js';
import type { ConfirmationCodeRequest, DeliveryUpdateRequest, ValidatedCode } from './types.js';

export interface LogisticsClientOptions extends HttpOptions {
  /** The logistics application id (uuid v4). */
  appId: string;
  /** The logistics integration's client_secret. */
  clientSecret: string;
}

export function signBody(body: string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
}

export function createLogisticsClient(options: LogisticsClientOptions) {
  const http = createHttp(options);

  async function signed(path: string, merchantId: string, body: unknown) {
    const raw = JSON.stringify(body);
    return http.send({
      method: 'POST',
      path,
      body: raw,
      idempotent: true,
      headers: {
        'x-app-id': options.appId,
        'x-app-merchantid': merchantId,
        'x-app-signature': signBody(raw, options.clientSecret),
      },
    });
  }

  return {
    /** Spec 4.14 (204). DELIVERY_ONGOING marks the order dispatched, DELIVERY_FINISHED delivered. */
    async deliveryUpdate(merchantId: string, body: DeliveryUpdateRequest): Promise<void> {
      await signed('/v1/logistics/deliveryUpdate', merchantId, body);
    },
    /** Spec 4.15: 400 `Invalid code provided` means do not mark the order delivered. */
    async confirmationCode(merchantId: string, body: ConfirmationCodeRequest): Promise<ValidatedCode> {
      return (await signed('/v1/logistics/confirmationCode', merchantId, body)).body as ValidatedCode;
    },
  };
}

export type LogisticsClient = ReturnType<typeof createLogisticsClient>;
