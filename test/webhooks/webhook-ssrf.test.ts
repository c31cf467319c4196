// D12: in production, webhooks reach public unicast addresses only, checked where the socket is
// opened. A canary listens on 127.0.0.1: every hostile target points at its port, and it must
// never see a connection.
import type { LookupAddress } from 'node:dns';
import { lookup as systemLookup } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFn } from '../../src/lib/net/address-guard.js';
import { createWebhooksService, type WebhooksService } from '../../src/modules/webhooks/index.js';
import { buildEvent, recordEvents } from '../support/event-factory.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// A resolver under the attacker's control: names that resolve to private addresses, as a
// rebinding DNS server would answer at connect time.
const FAKE_DNS: Record<string, LookupAddress[]> = {
  'rebind.test': [{ address: '127.0.0.1', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'loopback6.test': [{ address: '::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'nat64.test': [{ address: '64:ff9b::a00:1', family: 6 }],
  'private.test': [{ address: '10.1.2.3', family: 4 }],
};

const fakeLookup = ((hostname: string, options: object, callback: (e: Error | null, a: LookupAddress[]) => void) => {
  const answer = FAKE_DNS[hostname];
  if (answer) return process.nextTick(() => callback(null, answer));
  return systemLookup(hostname, { ...options, all: true }, callback);
}) as unknown as LookupFn;

let t: TestApp;
let canary: WebhookReceiver;
let merchant: MerchantCredentials;
let worker: WebhooksService;

beforeAll(async () => {
  canary = await startWebhookReceiver();
  t = await createTestApp({
    env: {
      CLEAVER_ENV: 'production',
      CLEAVER_APP_ID: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b',
      CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0',
    },
  });
  merchant = await createMerchant(t.app);
  worker = createWebhooksService({
    db: t.database.db,
    clock: { now: () => new Date() },
    config: t.config,
    auth: t.services.auth,
    lookup: fakeLookup,
  });
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await canary.close();
});

function hostileTargets(port: number): string[] {
  return [
    // IPv4 literals, in every spelling the URL parser turns into a loopback or private address
    `https://127.0.0.1:${port}`,
    `https://127.1:${port}`,
    `https://2130706433:${port}`,
    `https://0x7f000001:${port}`,
    `https://0x7f.0.0.1:${port}`,
    `https://0177.0.0.1:${port}`,
    `https://017700000001:${port}`,
    `https://0.0.0.0:${port}`,
    `https://0:${port}`,
    `https://10.0.0.1:${port}`,
    `https://172.16.5.4:${port}`,
    `https://192.168.1.1:${port}`,
    `https://169.254.169.254:${port}`,
    `https://100.64.0.1:${port}`,
    `https://192.0.0.8:${port}`,
    `https://198.18.0.1:${port}`,
    `https://224.0.0.1:${port}`,
    `https://255.255.255.255:${port}`,
    `https://240.0.0.1:${port}`,
    `https://192.0.2.1:${port}`,
    // IPv6 literals
    `https://[::1]:${port}`,
    `https://[::]:${port}`,
    `https://[::ffff:127.0.0.1]:${port}`,
    `https://[::ffff:169.254.169.254]:${port}`,
    `https://[::ffff:7f00:1]:${port}`,
    `https://[::127.0.0.1]:${port}`,
    `https://[64:ff9b::7f00:1]:${port}`,
    `https://[fe80::1]:${port}`,
    `https://[fc00::1]:${port}`,
    `https://[fd12:3456::1]:${port}`,
    `https://[ff02::1]:${port}`,
    `https://[2002:7f00:1::1]:${port}`,
    `https://[2001:db8::1]:${port}`,
    `https://[100::1]:${port}`,
    // names that resolve to private addresses (system resolver, and a rebinding one)
    `https://localhost:${port}`,
    `https://rebind.test:${port}`,
    `https://metadata.test:${port}`,
    `https://mixed.test:${port}`,
    `https://loopback6.test:${port}`,
    `https://mapped.test:${port}`,
    `https://nat64.test:${port}`,
    `https://private.test:${port}`,
  ];
}

async function onboard(url: string) {
  return t.app.inject({
    method: 'PUT',
    url: '/v1/merchantOnboarding',
    headers: bearer(merchant.token),
    payload: { ordersWebhookURL: url },
  });
}

/**
 * Registers a target. One that registration already refuses (a literal private address, a
 * loopback name) is stored directly, as a URL registered before that check existed would be, so
 * the connect-time guard is still what is proven here.
 */
async function register(url: string): Promise<'registered' | 'refused at registration'> {
  const res = await onboard(url);
  if (res.statusCode === 200) return 'registered';
  expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
  expect(res.json().title).toMatch(/^ordersWebhookURL must point to a public internet address \(.+ is not allowed\)$/);
  await t.database.db.query('UPDATE merchants SET orders_webhook_url = $2, webhook_key_id = $3 WHERE id = $1', [
    merchant.merchantId,
    url,
    merchant.keyId,
  ]);
  return 'refused at registration';
}

async function latestDelivery() {
  const res = await t.app.inject({
    url: `/admin/v1/merchants/${merchant.merchantId}/webhookDeliveries?limit=1`,
    headers: adminHeaders,
  });
  return (res.json() as Array<{ status: string; attempts: Array<{ statusCode: number | null; error: string }> }>)[0];
}

describe('SSRF guard in production (D12)', () => {
  it('refuses every hostile target at connect time; the canary on 127.0.0.1 sees no connection', async () => {
    const targets = hostileTargets(canary.port);
    expect(targets.length).toBeGreaterThanOrEqual(30);
    const outcomes: Array<{ target: string; status: string; error: string }> = [];
    for (const target of targets) {
      await register(target);
      await recordEvents(t.database.db, worker.enqueueForEvent, [buildEvent({ merchantId: merchant.merchantId })]);
      expect(await worker.runOnce()).toBe(1);
      const d = await latestDelivery();
      outcomes.push({ target, status: d.status, error: d.attempts[0]?.error });
    }
    for (const o of outcomes) {
      expect(o, o.target).toMatchObject({
        status: 'FAILED',
        error: expect.stringMatching(/^Refused to connect to .+ is not a public address \(.+\)$/),
      });
    }
    expect(canary.requests).toHaveLength(0);
    expect(canary.connections).toBe(0);
  });

  it('names the reason: metadata, mapped, NAT64, rebinding', async () => {
    const cases: Array<[string, RegExp]> = [
      [`https://169.254.169.254:${canary.port}`, /169\.254\.169\.254 is not a public address \(link-local/],
      [`https://[::ffff:127.0.0.1]:${canary.port}`, /IPv4-mapped IPv6/],
      [`https://nat64.test:${canary.port}`, /nat64\.test: 64:ff9b::a00:1 .*NAT64/],
      [`https://mixed.test:${canary.port}`, /mixed\.test: 127\.0\.0\.1 is not a public address \(loopback\)/],
    ];
    for (const [target, pattern] of cases) {
      await register(target);
      await recordEvents(t.database.db, worker.enqueueForEvent, [buildEvent({ merchantId: merchant.merchantId })]);
      await worker.runOnce();
      expect((await latestDelivery()).attempts[0].error).toMatch(pattern);
    }
    expect(canary.connections).toBe(0);
  });

  it('https only: onboarding refuses http, and a stored http URL is refused at send time', async () => {
    const res = await onboard(`http://example.com`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title: 'ordersWebhookURL must use https', status: 400 });
    // an http URL that got in another way (e.g. registered before the switch to production)
    await t.database.db.query('UPDATE merchants SET orders_webhook_url = $2 WHERE id = $1', [
      merchant.merchantId,
      canary.url,
    ]);
    await recordEvents(t.database.db, worker.enqueueForEvent, [buildEvent({ merchantId: merchant.merchantId })]);
    await worker.runOnce();
    expect((await latestDelivery()).attempts[0].error).toMatch(/^Refused http: URL in production: https only/);
    expect(canary.connections).toBe(0);
  });
});
