// Lockout with backoff after repeated failed logins, per account and per address, and the
// per-minute limit on login attempts (docs/security.md "Sessions and lockout").
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { lockSeconds } from '../../src/modules/operators/index.js';
import { postLogin } from '../console/console-session.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { auditEntries, createOperator, PASSWORD } from './support.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const WRONG = 'definitely not the password';
/** Every inject() comes from 127.0.0.1: one address for all the attempts of a test. */
async function appWith(env: Record<string, string>) {
  const clock = manualClock(new Date());
  t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_LOGIN: '100000', ...env } });
  return { t, clock };
}

describe('lockSeconds', () => {
  const limits = { accountMaxFailures: 5, ipMaxFailures: 20, lockoutSec: 60, maxLockoutSec: 3600 };
  it.each([
    [4, 0],
    [5, 60],
    [6, 120],
    [7, 240],
    [10, 1920],
    [11, 3600],
    [500, 3600],
  ])('%i failures (limit 5) → %i s', (failures, expected) => {
    expect(lockSeconds(failures, 5, limits)).toBe(expected);
  });
});

describe('per account', () => {
  it('locks after 5 failures, refuses even the right password, doubles the lock, and a success resets', async () => {
    const { t, clock } = await appWith({});
    const op = await createOperator(t.app, 'support');
    for (let i = 0; i < 5; i++) {
      const res = await postLogin(t.app, { email: op.email, password: WRONG });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('Invalid email, password or one-time code');
    }
    const locked = await postLogin(t.app, { email: op.email, password: PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('60');
    expect(locked.body).toContain('Too many failed logins: try again in 1 minute');
    expect(locked.headers['set-cookie']).toBeUndefined();
    const [entry] = await auditEntries(t.app, '&action=session.login');
    expect(entry).toMatchObject({
      actor: op.email,
      result: { status: 429, outcome: 'failure', reason: 'locked out after repeated failures' },
    });
    // The email is matched case-insensitively: the lock holds whatever the spelling.
    expect((await postLogin(t.app, { email: op.email.toUpperCase(), password: PASSWORD })).statusCode).toBe(429);

    clock.advance(61_000);
    // One more failure after the lock: locked again, for twice as long.
    expect((await postLogin(t.app, { email: op.email, password: WRONG })).statusCode).toBe(401);
    const longer = await postLogin(t.app, { email: op.email, password: PASSWORD });
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('120');

    clock.advance(121_000);
    expect((await postLogin(t.app, { email: op.email, password: PASSWORD })).statusCode).toBe(303);
    // The success reset the count: four new failures do not lock.
    for (let i = 0; i < 4; i++) {
      expect((await postLogin(t.app, { email: op.email, password: WRONG })).statusCode).toBe(401);
    }
    expect((await postLogin(t.app, { email: op.email, password: PASSWORD })).statusCode).toBe(303);
  });

  it('locks an unknown account the same way (no hint that it does not exist)', async () => {
    const { t } = await appWith({ CLEAVER_LOGIN_MAX_FAILURES: '3' });
    for (let i = 0; i < 3; i++) {
      expect((await postLogin(t.app, { email: 'ghost@cleaver.test', password: WRONG })).statusCode).toBe(401);
    }
    expect((await postLogin(t.app, { email: 'ghost@cleaver.test', password: WRONG })).statusCode).toBe(429);
  });

  it('does not lock other accounts', async () => {
    const { t } = await appWith({ CLEAVER_LOGIN_MAX_FAILURES: '2' });
    const a = await createOperator(t.app, 'viewer');
    const b = await createOperator(t.app, 'viewer');
    for (let i = 0; i < 2; i++) await postLogin(t.app, { email: a.email, password: WRONG });
    expect((await postLogin(t.app, { email: a.email, password: PASSWORD })).statusCode).toBe(429);
    expect((await postLogin(t.app, { email: b.email, password: PASSWORD })).statusCode).toBe(303);
  });
});

describe('per address', () => {
  it('locks an address that fails on many accounts, and the bootstrap token form too', async () => {
    const { t } = await appWith({ CLEAVER_LOGIN_IP_MAX_FAILURES: '4', CLEAVER_LOGIN_MAX_FAILURES: '100' });
    const op = await createOperator(t.app, 'viewer');
    for (let i = 0; i < 4; i++) {
      const res = await postLogin(t.app, { email: `guess-${i}@cleaver.test`, password: WRONG });
      expect(res.statusCode).toBe(401);
    }
    // inject() calls all come from 127.0.0.1: that address is now locked, for every account.
    const locked = await postLogin(t.app, { email: op.email, password: PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const token = await postLogin(t.app, { token: t.config.adminToken });
    expect(token.statusCode).toBe(429);
  });

  it('counts failed bootstrap-token logins against the address', async () => {
    const { t } = await appWith({ CLEAVER_LOGIN_IP_MAX_FAILURES: '3' });
    for (let i = 0; i < 3; i++) {
      const res = await postLogin(t.app, { token: `wrong-token-${i}-0123456789abcdef` });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('Invalid operator token');
    }
    expect((await postLogin(t.app, { token: t.config.adminToken })).statusCode).toBe(429);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past CLEAVER_RATE_LIMIT_LOGIN attempts a minute from one address', async () => {
    const { t } = await appWith({ CLEAVER_RATE_LIMIT_LOGIN: '3' });
    for (let i = 0; i < 3; i++) {
      expect((await postLogin(t.app, { token: t.config.adminToken })).statusCode).toBe(303);
    }
    const limited = await postLogin(t.app, { token: t.config.adminToken });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limited.body).toContain('Too Many Requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
