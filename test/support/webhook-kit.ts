// Webhook delivery tests' shared kit: an app with a fast retry schedule (D11), a receiver on
// 127.0.0.1 registered as the merchant's webhook, the operator's delivery list, Standard Webhooks
// verification of what arrived (D10).
import { Webhook } from 'standardwebhooks';
import { afterEach, expect } from 'vitest';
import type { RecordedEvent } from '../../src/modules/events/index.js';
import { recordEvents } from './event-factory.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp, type TestAppOptions } from './test-app.js';
import { startWebhookReceiver } from './webhook-receiver.js';

export const FAST = '0,0.05,0.05,0.05,0.05,0.05';

export const cleanups: Array<() => Promise<void>> = [];
/** Closes what setup() opened after each test; call once at the top of a test file. */
export function closeAfterEach(): void {
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });
}

export async function setup(options: TestAppOptions = {}, schedule = FAST) {
  const t = await createTestApp({ ...options, env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: schedule, ...options.env } });
  const receiver = await startWebhookReceiver();
  cleanups.push(() => t.close());
  cleanups.push(() => receiver.close());
  cleanups.push(() => t.services.webhooks.stop());
  const merchant = await createMerchant(t.app);
  await onboard(t, merchant, receiver.url);
  return { t, receiver, merchant, webhooks: t.services.webhooks };
}

export async function onboard(t: TestApp, merchant: { token: string }, url: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchantOnboarding',
    headers: bearer(merchant.token),
    payload: { ordersWebhookURL: url },
  });
  expect(res.statusCode, res.body).toBe(200);
}

export async function deliveries(t: TestApp, merchantId: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/admin/v1/merchants/${merchantId}/webhookDeliveries${query}`,
    headers: adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Array<{
    id: string;
    webhookId: string;
    eventType: string;
    orderId: string;
    status: string;
    target: string | null;
    attemptCount: number;
    nextAttemptAt: string | null;
    lastError: string | null;
    event: Record<string, unknown>;
    attempts: Array<{ attemptNo: number; statusCode: number | null; error: string | null; durationMs: number }>;
  }>;
}

export const record = (t: TestApp, events: RecordedEvent[]) =>
  recordEvents(t.database.db, t.services.webhooks.enqueueForEvent, events);

export function verifyStandard(secret: string, body: string, headers: Record<string, unknown>) {
  const wh = new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
  return wh.verify(body, {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  });
}
