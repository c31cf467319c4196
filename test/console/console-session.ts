// Logging in to the console through HTTP (inject), as a browser would: login page, form post,
// session cookie, CSRF token read from the page.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN } from '../support/test-app.js';

export interface ConsoleSession {
  cookie: string;
  csrf: string;
  /** `extra.cookie` is added to the session's cookie (a language or zone preference). */
  get(url: string, extra?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, form: Record<string, string>, extra?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export const formBody = (form: Record<string, string>) => new URLSearchParams(form).toString();
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** `name=value` of a Set-Cookie header (the first cookie of that name). */
export function setCookie(res: LightMyRequestResponse, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}

export const csrfOf = (html: string): string => {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field in page');
  return m[1];
};

/** The login page's nonce cookie and CSRF token. */
export async function loginForm(app: FastifyInstance): Promise<{ cookie: string; csrf: string }> {
  const page = await app.inject({ method: 'GET', url: '/console/login' });
  const cookie = setCookie(page, 'cleaver_console_login')?.split(';')[0];
  if (!cookie) throw new Error('login page set no cookie');
  return { cookie, csrf: csrfOf(page.body) };
}

export async function login(app: FastifyInstance, token = ADMIN_TOKEN): Promise<ConsoleSession> {
  return loginWith(app, { token });
}

/** An operator account's login: email, password and, when enrolled, a one-time code. */
export function loginAs(app: FastifyInstance, email: string, password: string, code?: string): Promise<ConsoleSession> {
  return loginWith(app, { email, password, ...(code ? { code } : {}) });
}

/** The login form posted with these fields (token, or email/password/code). */
export async function postLogin(app: FastifyInstance, fields: Record<string, string>, headers = {}) {
  const form = await loginForm(app);
  return app.inject({
    method: 'POST',
    url: '/console/login',
    headers: { ...FORM, cookie: form.cookie, ...headers },
    payload: formBody({ _csrf: form.csrf, next: '/console/merchants', ...fields }),
  });
}

const withCookie = (cookie: string, extra: Record<string, string>) => ({
  ...extra,
  cookie: extra.cookie ? `${cookie}; ${extra.cookie}` : cookie,
});

async function loginWith(app: FastifyInstance, fields: Record<string, string>): Promise<ConsoleSession> {
  const res = await postLogin(app, fields);
  if (res.statusCode !== 303) throw new Error(`login: ${res.statusCode} ${res.body}`);
  const cookie = setCookie(res, 'cleaver_console')?.split(';')[0] as string;
  const merchants = await app.inject({ method: 'GET', url: '/console/merchants', headers: { cookie } });
  const csrf = csrfOf(merchants.body);
  return {
    cookie,
    csrf,
    get: (url, extra = {}) => app.inject({ method: 'GET', url, headers: withCookie(cookie, extra) }),
    post: (url, body, extra = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, ...withCookie(cookie, extra) },
        payload: formBody({ _csrf: csrf, ...body }),
      }),
  };
}
