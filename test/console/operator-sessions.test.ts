// Console logins of operator accounts: server-side sessions with idle and absolute deadlines,
// revocation (logout, disable, revoke access, sign out everywhere), role changes applied at once,
// one-time codes (enrol, confirm, required at login, used once, reset), own password change.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { totpCode } from '../../src/modules/operators/index.js';
import { createOperator, PASSWORD, type TestOperator } from '../operators-access/support.js';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.js';
import { loginAs, postLogin, setCookie } from './console-session.js';

const MINUTE = 60_000;
let t: TestApp;
let clock: ReturnType<typeof manualClock>;
let op: TestOperator;

// One app for the file (a fresh database per test cost a second each on PGlite); every test has
// an operator of its own, so a disabled, locked-out or re-keyed operator never reaches another test.
beforeAll(async () => {
  clock = manualClock(new Date());
  t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_LOGIN: '100000' } });
});
beforeEach(async () => {
  op = await createOperator(t.app, 'admin', 'Olga Operadora');
});
afterAll(() => t.close());

const isLoggedOut = (res: { statusCode: number; headers: Record<string, unknown> }) =>
  res.statusCode === 303 && String(res.headers.location).startsWith('/console/login');

describe('login with an operator account', () => {
  it('opens a session: cookie, who is logged in and the role on every page', async () => {
    const res = await postLogin(t.app, { email: op.email, password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(setCookie(res, 'cleaver_console')).toMatch(
      /^cleaver_console=[\w-]{24}\.\d+\.[\w+/-]+; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=28800$/,
    );
    const s = await loginAs(t.app, op.email, PASSWORD);
    const page = await s.get('/console/merchants');
    expect(page.body).toContain(`<span class="who">${op.email}</span>`);
    expect(page.body).toMatch(/<span class="who">[^<]+<\/span>\s*<span class="badge badge-muted">admin<\/span>/);
    const { rows } = await t.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1 AND revoked_at IS NULL',
      [op.id],
    );
    expect(rows[0].n).toBe(2);
  });

  it('refuses a wrong password and a disabled operator with the same message', async () => {
    const wrong = await postLogin(t.app, { email: op.email, password: 'not it at all, no' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(
      '<p class="alert" role="alert" id="login-error-password">Invalid email, password or one-time code</p>',
    );
    expect(wrong.body).toContain(`value="${op.email}"`);
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/operators/${op.id}`,
      headers: adminHeaders,
      payload: { disabled: true },
    });
    const disabled = await postLogin(t.app, { email: op.email, password: PASSWORD });
    expect(disabled.statusCode).toBe(401);
    expect(disabled.body).toContain('Invalid email, password or one-time code');
  });
});

describe('deadlines', () => {
  it('ends a session after 30 idle minutes, while activity keeps it alive', async () => {
    const s = await loginAs(t.app, op.email, PASSWORD);
    clock.advance(20 * MINUTE);
    expect((await s.get('/console/merchants')).statusCode).toBe(200);
    clock.advance(20 * MINUTE);
    expect((await s.get('/console/merchants')).statusCode).toBe(200);
    clock.advance(31 * MINUTE);
    expect(isLoggedOut(await s.get('/console/merchants'))).toBe(true);
  });

  it('ends a session after 8 hours however active it is', async () => {
    const s = await loginAs(t.app, op.email, PASSWORD);
    for (let i = 0; i < 19; i++) {
      clock.advance(25 * MINUTE);
      expect((await s.get('/console/merchants')).statusCode).toBe(200);
    }
    clock.advance(10 * MINUTE); // 8 h 5 min after login, 10 min after the last request
    expect(isLoggedOut(await s.get('/console/merchants'))).toBe(true);
  });

  it('follows CLEAVER_SESSION_IDLE_SEC and CLEAVER_SESSION_MAX_SEC', async () => {
    const other = await createTestApp({
      clock,
      env: { CLEAVER_SESSION_IDLE_SEC: '120', CLEAVER_SESSION_MAX_SEC: '600' },
      database: t.database,
    });
    try {
      const res = await postLogin(other.app, { email: op.email, password: PASSWORD });
      expect(setCookie(res, 'cleaver_console')).toContain('Max-Age=600');
      const s = await loginAs(other.app, op.email, PASSWORD);
      clock.advance(3 * MINUTE);
      expect(isLoggedOut(await s.get('/console/merchants'))).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('revocation', () => {
  it('logout ends the session on the server: the cookie no longer works', async () => {
    const s = await loginAs(t.app, op.email, PASSWORD);
    await s.post('/console/logout', {});
    expect(isLoggedOut(await s.get('/console/merchants'))).toBe(true);
  });

  it('disabling the operator ends its open sessions at once', async () => {
    const s = await loginAs(t.app, op.email, PASSWORD);
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/operators/${op.id}`,
      headers: adminHeaders,
      payload: { disabled: true },
    });
    expect(isLoggedOut(await s.get('/console/merchants'))).toBe(true);
  });

  it('revokeAccess ends every session and token; the count says how many', async () => {
    const a = await loginAs(t.app, op.email, PASSWORD);
    const b = await loginAs(t.app, op.email, PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/operators/${op.id}/revokeAccess`,
      headers: adminHeaders,
    });
    expect(res.json()).toEqual({ sessions: 2, tokens: 1 });
    expect(isLoggedOut(await a.get('/console/merchants'))).toBe(true);
    expect(isLoggedOut(await b.get('/console/merchants'))).toBe(true);
  });

  it('"sign out everywhere" from the account page ends the operator’s other sessions too', async () => {
    const a = await loginAs(t.app, op.email, PASSWORD);
    const b = await loginAs(t.app, op.email, PASSWORD);
    const res = await a.post('/console/account/sessions/revoke', { confirm: 'yes' });
    expect(res.headers.location).toBe('/console/login');
    expect(isLoggedOut(await b.get('/console/merchants'))).toBe(true);
  });

  it('a role change applies to an open session at its next request', async () => {
    const s = await loginAs(t.app, op.email, PASSWORD);
    expect((await s.get('/console/merchants')).body).toContain('Create a merchant');
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/operators/${op.id}`,
      headers: adminHeaders,
      payload: { role: 'viewer' },
    });
    const page = await s.get('/console/merchants');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Create a merchant');
    const res = await s.post('/console/merchants', { name: 'Não' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Forbidden: this needs the admin role (yours is viewer)');
  });
});

describe('one-time codes', () => {
  async function enrol(): Promise<string> {
    const s = await loginAs(t.app, op.email, PASSWORD);
    const started = await s.post('/console/account/totp', {});
    expect(started.statusCode).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');
    const secret = /id="totp-secret"[^>]*>([A-Z2-7]+)</.exec(started.body)?.[1] as string;
    expect(started.body).toContain(`otpauth://totp/Cleaver:${encodeURIComponent(op.email)}?`);
    const wrong = await s.post('/console/account/totp/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('code is not valid');
    const ok = await s.post('/console/account/totp/confirm', { code: totpCode(secret, clock.now().getTime()) });
    expect(ok.statusCode).toBe(303);
    return secret;
  }

  it('are required at login once enrolled, and each code works once', async () => {
    const secret = await enrol();
    const missing = await postLogin(t.app, { email: op.email, password: PASSWORD });
    expect(missing.statusCode).toBe(401);
    const [entry] = (
      await t.app.inject({ method: 'GET', url: '/admin/v1/audit?action=session.login', headers: adminHeaders })
    ).json();
    expect(entry.result.reason).toBe('one-time code missing');
    // The confirming code was used: the next valid code is the one of the next step.
    clock.advance(30_000);
    const code = totpCode(secret, clock.now().getTime());
    expect((await postLogin(t.app, { email: op.email, password: PASSWORD, code })).statusCode).toBe(303);
    const replay = await postLogin(t.app, { email: op.email, password: PASSWORD, code });
    expect(replay.statusCode).toBe(401);
    const { rows } = await t.database.db.query<{ totp_secret_enc: string }>(
      'SELECT totp_secret_enc FROM operators WHERE id = $1',
      [op.id],
    );
    expect(rows[0].totp_secret_enc).toMatch(/^v1\./);
    expect(rows[0].totp_secret_enc).not.toContain(secret);
  });

  it('an admin removes a lost device; the operator logs in with the password alone again', async () => {
    await enrol();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/operators/${op.id}/totp`,
      headers: adminHeaders,
    });
    expect(res.statusCode).toBe(204);
    expect((await postLogin(t.app, { email: op.email, password: PASSWORD })).statusCode).toBe(303);
  });

  it('the operator turns them off with the password', async () => {
    await enrol();
    clock.advance(30_000);
    const s = await loginAs(t.app, op.email, PASSWORD, totpCode((await secretOf()) as string, clock.now().getTime()));
    const wrong = await s.post('/console/account/totp/disable', { password: 'not the password!!' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('password is not correct');
    expect((await s.post('/console/account/totp/disable', { password: PASSWORD })).statusCode).toBe(303);
    expect((await postLogin(t.app, { email: op.email, password: PASSWORD })).statusCode).toBe(303);
  });

  async function secretOf(): Promise<string | undefined> {
    const { decryptSecret, deriveKey } = await import('../../src/lib/crypto.js');
    const { rows } = await t.database.db.query<{ totp_secret_enc: string }>(
      'SELECT totp_secret_enc FROM operators WHERE id = $1',
      [op.id],
    );
    return decryptSecret(deriveKey(t.config.secretKey, 'operator-totp'), rows[0].totp_secret_enc);
  }
});

describe('own password', () => {
  it('changes with the current one; the old one stops working', async () => {
    const s = await loginAs(t.app, op.email, PASSWORD);
    const wrong = await s.post('/console/account/password', {
      currentPassword: 'not the password!!',
      newPassword: 'a new passphrase here',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('<p>Your current password is not correct.</p>');
    const short = await s.post('/console/account/password', { currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('A password must have at least 12 characters.');
    expect(
      (await s.post('/console/account/password', { currentPassword: PASSWORD, newPassword: 'a new passphrase here' }))
        .statusCode,
    ).toBe(303);
    expect((await postLogin(t.app, { email: op.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await postLogin(t.app, { email: op.email, password: 'a new passphrase here' })).statusCode).toBe(303);
  });

  it('a bootstrap-token session has no account page to change', async () => {
    const { login } = await import('./console-session.js');
    const s = await login(t.app);
    const page = await s.get('/console/account');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You are logged in with the bootstrap token');
    const res = await s.post('/console/account/password', { currentPassword: 'x', newPassword: 'y' });
    expect(res.statusCode).toBe(409);
  });
});
