// Issue "Hardening" 1 (D12, D31): every outbound connection to an address a merchant gave is
// checked at connect time in production, before any byte is sent, and the catalog pull is no
// exception. A canary TCP server on 127.0.0.1 stands for the inside of our network: every hostile
// target points at its port, and it must never see a connection. Registration refuses what can
// be known then, with a 400 naming the field.
import type { LookupAddress } from 'node:dns';
import { lookup as systemLookup } from 'node:dns';
import { createServer, type Server, type Socket } from 'node:net';
import { errors } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFn } from '../../src/lib/net/address-guard.js';
import { describeOutboundError, publicOutboundError } from '../../src/lib/net/outbound-agent.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const PUBLIC_ADDRESS = '93.184.216.34';
/** Names under the attacker's control; `flip.test` answers public first, loopback afterwards (rebinding). */
let flips = 0;
const FAKE_DNS: Record<string, () => LookupAddress[]> = {
  'loopback.test': () => [{ address: '127.0.0.1', family: 4 }],
  'metadata.test': () => [{ address: '169.254.169.254', family: 4 }],
  'mapped.test': () => [{ address: '::ffff:127.0.0.1', family: 6 }],
  'flip.test': () => (flips++ === 0 ? [{ address: PUBLIC_ADDRESS, family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
};
const fakeLookup = ((hostname: string, options: object, callback: (e: Error | null, a: LookupAddress[]) => void) => {
  const answer = FAKE_DNS[hostname];
  if (answer) return process.nextTick(() => callback(null, answer()));
  return systemLookup(hostname, { ...options, all: true }, callback);
}) as unknown as LookupFn;

let t: TestApp;
let canary: Server;
let port: number;
const connections: Socket[] = [];

beforeAll(async () => {
  canary = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  port = (canary.address() as { port: number }).port;
  t = await createTestApp({
    env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b' },
    lookup: fakeLookup,
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => canary.close(resolve));
});

function onboard(token: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: '/v1/merchantOnboarding', headers: bearer(token), payload: body });
}

const hostileBases = () => [
  [`https://127.0.0.1:${port}`, 'loopback'],
  [`https://2130706433:${port}`, 'loopback'],
  [`https://0x7f000001:${port}`, 'loopback'],
  [`https://0177.0.0.1:${port}`, 'loopback'],
  [`https://[::1]:${port}`, 'loopback'],
  [`https://[::ffff:127.0.0.1]:${port}`, 'IPv4-mapped IPv6'],
  [`https://169.254.169.254:${port}`, 'link-local (cloud metadata)'],
  [`https://10.0.0.1:${port}`, 'private'],
  [`https://localhost:${port}`, 'loopback'],
  [`https://loopback.test:${port}`, 'loopback'],
  [`https://metadata.test:${port}`, 'link-local (cloud metadata)'],
  [`https://mapped.test:${port}`, 'IPv4-mapped IPv6'],
];

describe('registration refuses internal addresses in production (400 naming the field)', () => {
  it('getMerchantURL.baseURL in every spelling of loopback and private space', async () => {
    const me = await createMerchant(t.app);
    for (const [baseURL, reason] of hostileBases()) {
      const res = await onboard(me.token, {
        ordersWebhookURL: 'https://pos.example.com',
        getMerchantURL: { baseURL, apiKey: 'k' },
      });
      expect({ baseURL, status: res.statusCode, body: res.json() }).toEqual({
        baseURL,
        status: 400,
        body: {
          title: `getMerchantURL.baseURL must point to a public internet address (${reason} is not allowed)`,
          status: 400,
        },
      });
    }
  });

  it('ordersWebhookURL likewise, and plain http', async () => {
    const me = await createMerchant(t.app);
    const res = await onboard(me.token, { ordersWebhookURL: `https://[::1]:${port}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      title: 'ordersWebhookURL must point to a public internet address (loopback is not allowed)',
      status: 400,
    });
    const http = await onboard(me.token, {
      ordersWebhookURL: 'https://pos.example.com',
      getMerchantURL: { baseURL: 'http://pos.example.com', apiKey: 'k' },
    });
    expect(http.statusCode).toBe(400);
    expect(http.json()).toEqual({ title: 'getMerchantURL.baseURL must use https', status: 400 });
  });
});

describe('the catalog pull is guarded at connect time', () => {
  it('a name that resolved publicly at registration and privately at pull time is refused before any byte', async () => {
    const me = await createMerchant(t.app);
    flips = 0;
    const res = await onboard(me.token, {
      ordersWebhookURL: 'https://pos.example.com',
      getMerchantURL: { baseURL: `https://flip.test:${port}`, apiKey: 'k' },
    });
    expect(res.statusCode).toBe(200);
    const pull = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/catalogPull`,
      headers: adminHeaders,
    });
    expect(pull.statusCode).toBe(202);
    await t.services.catalog.worker.drain();
    expect(connections).toHaveLength(0);
    const status = await t.app.inject({
      method: 'GET',
      url: `/v1/merchantStatus?merchantId=${me.merchantId}`,
      headers: bearer(me.token),
    });
    expect(status.json()).toMatchObject({
      status: 'FAIL',
      moreInfo: `Pull failed: GET https://flip.test:${port}/v1/merchant could not be completed (the address is not allowed (only public https addresses are reached))`,
    });
    // The operator still sees the exact reason.
    const syncs = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/merchants/${me.merchantId}/catalogSyncs`,
      headers: adminHeaders,
    });
    expect(syncs.json()[0].details.pullError).toMatch(/127\.0\.0\.1 is not a public address \(loopback\)/);
  });
});

describe('failure texts a merchant reads reveal nothing about the target', () => {
  it('refused, reset, unreachable and DNS failures read the same', () => {
    const texts = ['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].map((code) =>
      publicOutboundError(Object.assign(new Error(`connect ${code} 10.0.0.1:22`), { code }), 1000),
    );
    expect(new Set(texts)).toEqual(new Set(['the connection could not be completed']));
  });

  it("undici's own timeouts read as timeouts, told apart by their code (undici is loaded lazily)", () => {
    for (const error of [new errors.HeadersTimeoutError(), new errors.BodyTimeoutError()]) {
      expect(publicOutboundError(error, 1000)).toBe('no answer within 1000 ms');
      expect(describeOutboundError(error, 1000)).toBe('Timed out after 1000 ms');
    }
    const connect = new errors.ConnectTimeoutError();
    expect(publicOutboundError(connect, 1000)).toBe('the connection could not be completed');
    expect(describeOutboundError(connect, 1000)).toBe(`Connect timeout: ${connect.message}`);
  });
});
