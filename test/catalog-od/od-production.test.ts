// D29 with D12/D31: a pull asked for by an Open Delivery notification goes through the
// connect-time address guard in production. A canary TCP server on 127.0.0.1 stands for the
// inside of our network: the merchant's name resolves publicly at registration and to the
// canary at pull time (DNS rebinding), and the canary must never see a connection.
import type { LookupAddress } from 'node:dns';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFn } from '../../src/lib/net/address-guard.js';
import { operatorSyncs } from '../support/catalog.js';
import { bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { notifyAndSettle } from './od-support.js';

let lookups = 0;
/** Every name is public, but `pos.test` answers loopback after its first lookup (registration). */
const fakeLookup = ((hostname: string, _options: object, callback: (e: Error | null, a: LookupAddress[]) => void) => {
  const rebound = hostname === 'pos.test' && lookups++ > 0;
  const answer = [{ address: rebound ? '127.0.0.1' : '93.184.216.34', family: 4 }];
  process.nextTick(() => callback(null, answer));
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

describe('production: the pull an empty POST /v1/merchantUpdate asks for is guarded', () => {
  it('a hostile address is refused before any byte; the POS reads a reason that reveals nothing', async () => {
    const me = await createMerchant(t.app);
    lookups = 0;
    const onboard = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(me.token),
      payload: {
        ordersWebhookURL: 'https://pos.example.com',
        getMerchantURL: { baseURL: `https://pos.test:${port}`, apiKey: 'k' },
      },
    });
    expect(onboard.statusCode, onboard.body).toBe(200);
    const status = await notifyAndSettle(t, me);
    expect(connections).toHaveLength(0);
    expect(status).toMatchObject({
      status: 'FAIL',
      moreInfo: `Pull failed: GET https://pos.test:${port}/v1/merchant could not be completed (the address is not allowed (only public https addresses are reached))`,
    });
    const [sync] = await operatorSyncs(t, me.merchantId);
    expect(sync.details?.pullError).toMatch(/127\.0\.0\.1 is not a public address \(loopback\)/);
  });
});
