// Console access: login, session cookie, logout, CSRF, CSP, HTML errors, escaping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.js';
import { csrfOf, FORM, formBody, login, loginForm, setCookie } from './console-session.js';

let t: TestApp;
const clock = manualClock();

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_LOGIN: '100000' } });
});
afterAll(async () => {
  await t.close();
});

describe('login', () => {
  it('sends a request without a session to the login page, keeping where it was going', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console/orders?status=CREATED' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/console/login?next=${encodeURIComponent('/console/orders?status=CREATED')}`);
    const page = await t.app.inject({ method: 'GET', url: res.headers.location as string });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<label for="token">Operator token</label>');
    expect(page.body).toContain('value="/console/orders?status=CREATED"');
  });

  it('shows an error for a wrong token and sets no session', async () => {
    const form = await loginForm(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/login',
      headers: { ...FORM, cookie: form.cookie },
      payload: formBody({ _csrf: form.csrf, token: 'not-the-operator-token-0123456789abcdef' }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // The message is inside the form that was used (the token form, the second one).
    const tokenForm = res.body.slice(res.body.indexOf('id="token-login-h"'));
    expect(tokenForm).toContain('<p class="alert" role="alert" id="login-error-token">Invalid operator token</p>');
    expect(res.body.slice(0, res.body.indexOf('id="token-login-h"'))).not.toContain('role="alert"');
    expect(setCookie(res, 'cleaver_console')).toBeUndefined();
  });

  it('refuses a login post without the login CSRF token (403 page)', async () => {
    const form = await loginForm(t.app);
    for (const [cookie, payload] of [
      [form.cookie, formBody({ token: t.config.adminToken })],
      ['', formBody({ _csrf: form.csrf, token: t.config.adminToken })],
      [form.cookie, formBody({ _csrf: `${form.csrf}x`, token: t.config.adminToken })],
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/console/login', headers: { ...FORM, cookie }, payload });
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('This form has expired (or came from another site): reload the page and try again.');
      expect(setCookie(res, 'cleaver_console')).toBeUndefined();
    }
  });

  it('sets an http-only, SameSite=Strict session cookie scoped to /console and redirects to next', async () => {
    const form = await loginForm(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/login',
      headers: { ...FORM, cookie: form.cookie },
      payload: formBody({ _csrf: form.csrf, token: t.config.adminToken, next: '/console/orders' }),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/orders');
    const cookie = setCookie(res, 'cleaver_console') as string;
    expect(cookie).toMatch(
      /^cleaver_console=[\w-]+\.\d+\.[\w+/-]+; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=28800$/,
    );
    expect(cookie).not.toContain('Secure');
  });

  it('never redirects outside the console after login', async () => {
    for (const next of ['https://evil.example/', '//evil.example/console', '/console/../admin', '/v1/merchant']) {
      const form = await loginForm(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/login',
        headers: { ...FORM, cookie: form.cookie },
        payload: formBody({ _csrf: form.csrf, token: t.config.adminToken, next }),
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/console/merchants');
    }
  });

  it('ends the session on logout (the old cookie no longer works)', async () => {
    const s = await login(t.app);
    const out = await s.post('/console/logout', {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/console/login');
    expect(setCookie(out, 'cleaver_console')).toMatch(/^cleaver_console=; .*Max-Age=0/);
    const after = await s.get('/console/merchants');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toMatch(/^\/console\/login/);
  });

  it('expires the session after 8 hours and refuses a tampered cookie', async () => {
    const s = await login(t.app);
    expect((await s.get('/console/merchants')).statusCode).toBe(200);
    const [id, exp, sig] = s.cookie.split('=')[1].split('.');
    const forged = `cleaver_console=${id}.${Number(exp) + 3600}.${sig}`;
    const res = await t.app.inject({ method: 'GET', url: '/console/merchants', headers: { cookie: forged } });
    expect(res.statusCode).toBe(303);
    clock.advance(8 * 3600 * 1000 + 1000);
    expect((await s.get('/console/merchants')).statusCode).toBe(303);
  });

  it('answers the live fragment without a session with 401, not a login page', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/console/orders/0190a2c4-0000-7000-8000-000000000001/timeline',
      headers: { 'x-console-fragment': '1' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('Session expired: log in again');
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    const secure = await createTestApp({ env: { CLEAVER_PUBLIC_URL: 'https://cleaver.example' } });
    try {
      const page = await secure.app.inject({ method: 'GET', url: '/console/login' });
      expect(setCookie(page, 'cleaver_console_login')).toContain('; Secure');
      const form = {
        cookie: setCookie(page, 'cleaver_console_login')?.split(';')[0] as string,
        csrf: csrfOf(page.body),
      };
      const res = await secure.app.inject({
        method: 'POST',
        url: '/console/login',
        headers: { ...FORM, cookie: form.cookie },
        payload: formBody({ _csrf: form.csrf, token: secure.config.adminToken }),
      });
      expect(setCookie(res, 'cleaver_console')).toMatch(/HttpOnly; SameSite=Strict; Max-Age=28800; Secure$/);
    } finally {
      await secure.close();
    }
  });
});

describe('CSRF', () => {
  it('refuses a POST without the CSRF token (403) and changes nothing', async () => {
    const s = await login(t.app);
    for (const payload of [formBody({ name: 'No token' }), formBody({ name: 'No token', _csrf: 'forged' })]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/merchants',
        headers: { ...FORM, cookie: s.cookie },
        payload,
      });
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('This form has expired (or came from another site): reload the page and try again.');
    }
    expect(await t.services.merchants.listMerchants()).toEqual([]);
  });

  it("refuses another session's token", async () => {
    const a = await login(t.app);
    const b = await login(t.app);
    expect(a.csrf).not.toBe(b.csrf);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/merchants',
      headers: { ...FORM, cookie: a.cookie },
      payload: formBody({ _csrf: b.csrf, name: 'Cross' }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('This form has expired');
  });

  it('puts the token in every form of a page', async () => {
    const s = await login(t.app);
    const { merchantId } = await createMerchantVia(s);
    const page = await s.get(`/console/merchants/${merchantId}`);
    const forms = page.body.match(/<form[^>]*method="post"[\s\S]*?<\/form>/g) ?? [];
    expect(forms.length).toBeGreaterThanOrEqual(3);
    for (const f of forms) expect(f).toContain(`name="_csrf" value="${s.csrf}"`);
  });
});

async function createMerchantVia(s: Awaited<ReturnType<typeof login>>, name = 'Açougue Central') {
  const res = await s.post('/console/merchants', { name });
  expect(res.statusCode).toBe(303);
  const merchantId = /\/console\/merchants\/([0-9a-f-]{36})/.exec(res.headers.location as string)?.[1] as string;
  return { merchantId };
}

describe('pages', () => {
  it('sends CSP default-src self and no-store on every console answer', async () => {
    const s = await login(t.app);
    for (const res of [
      await s.get('/console/merchants'),
      await t.app.inject({ method: 'GET', url: '/console/login' }),
      await s.get('/console/nowhere'),
    ]) {
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'self';/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const css = await t.app.inject({ method: 'GET', url: '/console/assets/console.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-security-policy']).toMatch(/^default-src 'self';/);
  });

  it('renders a merchant named <script> escaped', async () => {
    const s = await login(t.app);
    const name = `<script>alert("x")</script>&'`;
    const { merchantId } = await createMerchantVia(s, name);
    for (const url of [
      '/console/merchants',
      `/console/merchants/${merchantId}`,
      `/console/orders?merchantId=${merchantId}`,
    ]) {
      const res = await s.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('<script>alert');
      expect(res.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    }
  });

  it('renders errors as HTML pages while the API keeps JSON', async () => {
    const s = await login(t.app);
    const missing = await s.get('/console/merchants/0190a2c4-0000-7000-8000-000000000001');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.body).toContain('<h1>Not found</h1>');
    // In the operator's words, with the API's title in small print under it.
    expect(missing.body).toContain('<p>There is no such merchant.</p>');
    expect(missing.body).toContain('<q lang="en">Merchant not found</q>');
    const notAnId = await s.get('/console/orders/not-an-id');
    expect(notAnId.statusCode).toBe(404);
    expect(notAnId.body).toContain('There is no such order.');
    const noRoute = await s.get('/console/nowhere');
    expect(noRoute.statusCode).toBe(404);
    expect(noRoute.body).toContain('There is no such page.');
    const empty = await s.post('/console/merchants', { name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Name must not be empty.');
    const api = await t.app.inject({ method: 'GET', url: '/admin/v1/merchants/nope', headers: adminHeaders });
    expect(api.statusCode).toBe(400);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toMatchObject({ status: 400 });
    const apiRoute = await t.app.inject({ method: 'GET', url: '/admin/v1/nowhere', headers: adminHeaders });
    expect(apiRoute.json()).toEqual({ title: 'Route not found', status: 404 });
  });

  it('keeps console routes out of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: object };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  });
});
