// D36: nothing of the feed is needed to start, and the POS-facing contract does not depend on it.
// Two apps on one database, one configured with a broker (CLEAVER_NATS_URL) and one without, give
// a POS byte for byte the same answers: the contract, its merchant record, its poll, its order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

let plain: TestApp;
let brokered: TestApp;
beforeAll(async () => {
  plain = await createTestApp();
  brokered = await createTestApp({
    database: plain.database,
    env: { CLEAVER_NATS_URL: 'nats://127.0.0.1:4222', CLEAVER_NATS_STREAM: 'CLEAVER_CONTRACT_CHECK' },
  });
});
afterAll(async () => {
  await brokered?.close();
  await plain?.close();
});

describe('with or without a broker', () => {
  it('the POS-facing answers are byte-identical', async () => {
    const me = await createMerchant(plain.app, 'Açougue Sem Broker');
    const order = await createSimpleOrder(plain.app, me.merchantId);
    const ask = async (url: string) => {
      const [a, b] = [
        await plain.app.inject({ url, headers: bearer(me.token) }),
        await brokered.app.inject({ url, headers: bearer(me.token) }),
      ];
      expect(b.statusCode, url).toBe(a.statusCode);
      expect(b.headers['content-type'], url).toBe(a.headers['content-type']);
      expect(b.body, url).toBe(a.body);
      return a;
    };
    const contract = await ask('/openapi.json');
    expect(contract.statusCode).toBe(200);
    expect((await ask('/v1/merchant')).statusCode).toBe(200);
    expect((await ask('/v1/events:polling')).statusCode).toBe(200);
    expect((await ask(`/v1/orders/${order.id}`)).statusCode).toBe(200);
    expect((await ask('/v1/events:polling?eventType=CANCELLED')).statusCode).toBe(204);
  });
});
