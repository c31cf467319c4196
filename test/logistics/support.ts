import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { hmacSha256Hex } from '../../src/lib/crypto.js';
import { newId } from '../../src/lib/ids.js';
import { adminHeaders } from '../support/test-app.js';

export interface LogisticsApp {
  appId: string;
  clientSecret: string;
}

/** Registers a logistics partner through the operator API (OPERATOR-API.md). */
export async function createLogisticsApp(app: FastifyInstance, merchantIds: string[]): Promise<LogisticsApp> {
  const res = await app.inject({
    method: 'POST',
    url: '/admin/v1/logisticsApps',
    headers: adminHeaders,
    payload: { name: 'Entregas Rápidas', merchantIds },
  });
  if (res.statusCode !== 201) throw new Error(`logistics app: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const sign = (secret: string, body: string | Buffer) => hmacSha256Hex(secret, body);

/** A signed call with the exact bytes given; `headers` override the computed ones. */
export function signedCall(
  app: FastifyInstance,
  partner: LogisticsApp,
  merchantId: string,
  path: 'deliveryUpdate' | 'confirmationCode',
  body: string | Buffer,
  headers: Record<string, string | undefined> = {},
): Promise<LightMyRequestResponse> {
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'x-app-id': partner.appId,
    'x-app-merchantid': merchantId,
    'x-app-signature': sign(partner.clientSecret, body),
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return app.inject({ method: 'POST', url: `/v1/logistics/${path}`, headers: defined, payload: body });
}

/** A complete spec 4.14 body. */
export function deliveryUpdate(
  order: { id: string; displayId?: unknown },
  merchant: { id: string; name?: string },
  event: { type: string; message?: string; datetime?: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    deliveryId: extra.deliveryId ?? newId(),
    orderId: order.id,
    orderDisplayId: String(order.displayId ?? 'ABCD'),
    merchant: { id: merchant.id, name: merchant.name ?? 'Açougue' },
    event: { message: 'update', datetime: '2026-03-02T15:00:00Z', ...event },
    customerName: 'Maria Souza',
    ...extra,
  };
}

export function expectError(
  expect: (v: unknown) => { toEqual(v: unknown): void },
  res: LightMyRequestResponse,
  status: number,
  title: string,
): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}
