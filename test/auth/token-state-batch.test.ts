// Tokens new to a process are checked against the database together (auth-service.ts,
// tokenStates): each token must still get its own answer, whatever else shares the statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/lib/clock.js';
import { checkTokenStates } from '../../src/modules/auth/auth-repository.js';
import { createAuthService } from '../../src/modules/auth/auth-service.js';
import { connectPos, createKey } from '../opendelivery/od-support.js';
import {
  addIntegrationKey,
  adminHeaders,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

let t: TestApp;
let a: MerchantCredentials;
let b: MerchantCredentials;
let revokedToken: string;
let deletedKeyToken: string;
let odToken: string;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '100000' } });
  a = await createMerchant(t.app, 'Açougue A');
  b = await createMerchant(t.app, 'Açougue B');
  // A second key of A whose token is revoked (RFC 7009) …
  const second = await addIntegrationKey(t.app, a.merchantId);
  revokedToken = second.token;
  const revoke = await t.app.inject({
    method: 'POST',
    url: '/oauth/revoke',
    payload: { client_id: a.merchantId, client_secret: second.clientSecret, token: revokedToken },
  });
  expect(revoke.statusCode).toBe(200);
  // … a third whose key is deleted …
  const third = await addIntegrationKey(t.app, a.merchantId);
  deletedKeyToken = third.token;
  const del = await t.app.inject({
    method: 'DELETE',
    url: `/admin/v1/merchants/${a.merchantId}/integrationKeys/${third.keyId}`,
    headers: adminHeaders,
  });
  expect(del.statusCode).toBe(204);
  // … and an opendelivery key of B (D27), whose profile comes with its state.
  odToken = (await connectPos(t.app, await createKey(t.app, b.merchantId, 'opendelivery'))).token;
});
afterAll(() => t.close());

describe('token states read together', () => {
  it('answers each token for itself when new tokens of different states arrive at once', async () => {
    // A second process: every token is new to it, so each one is checked in the database.
    const fresh = createAuthService({ db: t.database.db, config: t.config, clock: systemClock });
    const tokens = [a.token, revokedToken, b.token, deletedKeyToken, odToken, a.token];
    const results = await Promise.allSettled(tokens.map((token) => fresh.verifyAccessToken(token)));
    const outcome = results.map((r) =>
      r.status === 'fulfilled'
        ? { merchantId: r.value.merchantId, keyId: r.value.keyId, profile: r.value.profile }
        : { status: (r.reason as { status?: number }).status, title: (r.reason as Error).message },
    );
    expect(outcome).toEqual([
      { merchantId: a.merchantId, keyId: a.keyId, profile: 'cleaver' },
      { status: 401, title: 'Access token revoked' },
      { merchantId: b.merchantId, keyId: b.keyId, profile: 'cleaver' },
      { status: 401, title: 'Integration key no longer exists' },
      { merchantId: b.merchantId, keyId: expect.any(String), profile: 'opendelivery' },
      { merchantId: a.merchantId, keyId: a.keyId, profile: 'cleaver' },
    ]);
  });

  it('reads the states of many tokens in one statement, in the order asked', async () => {
    const known = { keyId: a.keyId, merchantId: a.merchantId, jti: '00000000-0000-4000-8000-000000000001' };
    const otherMerchant = { ...known, merchantId: b.merchantId };
    const unknownKey = { ...known, keyId: '00000000-0000-4000-8000-00000000000f' };
    const states = await checkTokenStates(t.database.db, [known, otherMerchant, unknownKey, known]);
    expect(states).toEqual([
      { keyActive: true, revoked: false, profile: 'cleaver' },
      { keyActive: false, revoked: false, profile: null },
      { keyActive: false, revoked: false, profile: null },
      { keyActive: true, revoked: false, profile: 'cleaver' },
    ]);
    expect(await checkTokenStates(t.database.db, [])).toEqual([]);
  });
});
