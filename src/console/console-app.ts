// The operator console (architecture.md#operator-console): server-rendered HTML under /console, served by the API process.
// Operators log in with email, password and (when enrolled) a one-time code, or with the
// bootstrap token; the session is a server-side row named by a signed cookie. Every route has a
// role rule (allow() on its registration, console-access.ts; a route without one stops the start), every
// action is audited, CSRF token on every POST, CSP `default-src 'self'` (all assets local, no
// inline script or style). Hidden from the OpenAPI document: these are pages, not API routes.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { reportDatabaseOutage } from '../db/failover.js';
import { safeEqual } from '../lib/crypto.js';
import { type Access, allows } from '../modules/operators/index.js';
import {
  auditContextOf,
  auditOperatorActions,
  checkAccess,
  requireAccessRules,
  ruledRoutesOf,
} from '../plugins/auth-hooks.js';
import { toErrorResponse } from '../plugins/error-handler.js';
import type { Services } from '../services.js';
import { accountPages } from './account-pages.js';
import { auditPages } from './audit-pages.js';
import { availabilityPages } from './availability-pages.js';
import { butcheryPages } from './butchery-pages.js';
import { catalogPages } from './catalog-pages.js';
import { confirmStep } from './confirm-step.js';
import { allow } from './console-access.js';
import { badCsrf, ConsoleError, knownTitle, notFoundPage } from './console-errors.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import { retryForm } from './form-retry.js';
import { homologationPages } from './homologation-pages.js';
import type { Html } from './html.js';
import { isLang, langCookie, langOf, messagesOf } from './i18n.js';
import { keyPages } from './key-pages.js';
import { type Attention, type BaseContext, errorPage, loginPage, type PageContext, type Section } from './layout.js';
import { merchantsPages } from './merchants-pages.js';
import { noticesPages } from './notices-pages.js';
import { operatorsPages } from './operators-pages.js';
import { ordersPages } from './orders-pages.js';
import { sandboxPages } from './sandbox-pages.js';
import { createSessions, LOGIN_COOKIE, LOGIN_COOKIE_TTL_SEC, readCookie, SESSION_COOKIE } from './session.js';
import { statementsPages } from './statements-pages.js';
import { localizeTimes, rememberZone, zoneOf } from './time-zone.js';
import { webhooksPages } from './webhooks-pages.js';

export interface ConsoleDeps {
  services: Services;
  /** Login attempts per minute per address (shared through Redis like the API's budgets). */
  loginLimiter?: onRequestHookHandler;
}

const CSP = "default-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; object-src 'none'";

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function loadAsset(name: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

/** Where to go after login: a console path only (no open redirect). */
function safeNext(raw: string | undefined): string {
  if (!raw || !/^\/console(\/[A-Za-z0-9\-._~%/?=&+,:]*)?$/.test(raw) || raw.includes('//') || raw.includes('..'))
    return '/console/merchants';
  return raw;
}

const isPublic = (request: FastifyRequest) => (request.routeOptions.config as { public?: boolean }).public === true;

export const consoleRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { services, loginLimiter }) => {
  const { config, clock, operatorSessions, audit } = services;
  const sessions = createSessions(config);
  const assets: Record<string, Asset> = {
    'console.css': loadAsset('console.css', 'text/css; charset=utf-8'),
    'console.js': loadAsset('console.js', 'text/javascript; charset=utf-8'),
    'favicon.svg': loadAsset('favicon.svg', 'image/svg+xml'),
  };
  const maxAgeSec = config.operatorSecurity.sessionMaxSec;

  // Sections appear when the service behind them exists (and the sandbox only in sandbox).
  const sections: Section[] = ['merchants', 'orders', 'webhooks', 'notices'];
  if (services.homologation) sections.push('homologations');
  if (config.env === 'sandbox') sections.push('sandbox');
  sections.push('operators', 'audit', 'account');

  /** Where "switch language" comes back to: this page, or for a form's answer the page of the form. */
  const hereOf = (request: FastifyRequest): string => {
    if (request.method === 'GET') return safeNext(request.url);
    const referer = typeof request.headers.referer === 'string' ? request.headers.referer : '';
    try {
      const back = new URL(referer, 'http://x');
      return safeNext(`${back.pathname}${back.search}`);
    } catch {
      return safeNext(undefined);
    }
  };
  const base = (request: FastifyRequest): BaseContext => {
    const lang = langOf(request);
    return { env: config.env, lang, t: messagesOf(lang), here: hereOf(request) };
  };
  // The console's rules as its routes declared them (console-access.ts), read once every route is
  // registered: what a page asks before it offers an action (`ctx.can('POST /console/…')`).
  let rules: Map<string, Access> | undefined;
  const rulesOf = () => {
    rules ??= new Map(
      ruledRoutesOf(app)
        .filter((r) => r.url.startsWith('/console'))
        .map((r) => [`${r.method} ${r.url.length > 1 ? r.url.replace(/\/+$/, '') : r.url}`, r.access]),
    );
    return rules;
  };
  const ctx = (request: FastifyRequest): PageContext => {
    const actor = request.consoleSession ? request.actor : undefined;
    return {
      ...base(request),
      csrfToken: request.consoleSession?.csrfToken ?? '',
      sections,
      timeZone: zoneOf(request),
      attention: request.consoleAttention,
      actor: actor ? { name: actor.actor, role: actor.role } : undefined,
      can(route) {
        const access = rulesOf().get(route);
        if (!access) throw new Error(`console asked about a route with no rule: ${route}`);
        return actor !== undefined && allows(actor.role, access);
      },
    };
  };
  const kit: ConsoleKit = {
    services,
    sections,
    ctx,
    base,
    send: (reply: FastifyReply, body: Html, status = 200) =>
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('content-language', langOf(reply.request))
        .header('vary', 'Cookie, Accept-Language')
        .send(localizeTimes(body.__html, zoneOf(reply.request), langOf(reply.request))),
  };

  /** The banner's endpoints in trouble (layout.ts): named ones, at most this many. */
  const ATTENTION_NAMED = 3;
  async function attentionOf(): Promise<Attention> {
    const { items, total } = await services.webhooks.troubledEndpoints(ATTENTION_NAMED);
    const names = total ? await services.merchants.merchantNames(items.map((i) => i.merchantId)) : new Map();
    return {
      total,
      examples: items.map((i) => ({
        merchantId: i.merchantId,
        name: names.get(i.merchantId) ?? i.merchantId,
        state: i.state === 'disabled' ? 'disabled' : 'failing',
        since: i.failingSince ? new Date(i.failingSince) : null,
      })),
    };
  }

  // Pages, not API: out of /openapi.json (and so out of the security suite's completeness check).
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  requireAccessRules(app, { allowPublic: true });

  await app.register(formbody);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    if (!isPublic(request)) reply.header('cache-control', 'no-store');
    const session = sessions.verify(readCookie(request.headers.cookie, SESSION_COOKIE), clock.now().getTime());
    const actor = session ? await operatorSessions.check(session.id) : undefined;
    if (session && actor) {
      request.consoleSession = session;
      request.actor = actor;
      checkAccess(request);
      rememberZone(request, reply);
      return;
    }
    if (isPublic(request) || !request.routeOptions.url) return;
    if (request.headers['x-console-fragment'] === '1') {
      return reply.code(401).type('text/plain; charset=utf-8').send('Session expired: log in again');
    }
    const next = request.method === 'GET' ? request.url : '/console/merchants';
    return reply.redirect(`/console/login?next=${encodeURIComponent(next)}`, 303);
  });

  // Synchronizer token: every POST carries the session's CSRF token (the login form has its own).
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST' || isPublic(request)) return;
    const token = formOf(request)._csrf;
    const expected = request.consoleSession?.csrfToken;
    if (!token || !expected || !safeEqual(token, expected)) throw badCsrf();
  });

  // A full page (not a live fragment, nor an asset or export) carries the banner of webhook
  // endpoints in trouble: one indexed query (troubledEndpoints), so it is on every page.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' || !request.consoleSession || request.headers['x-console-fragment'] === '1') return;
    if (isPublic(request) || request.routeOptions.url?.endsWith('/export')) return;
    request.consoleAttention = await attentionOf();
  });

  // After the CSRF check: a destructive action without `confirm=yes` gets a confirmation page.
  app.addHook('preHandler', confirmStep(kit));

  app.addHook('onSend', auditOperatorActions(audit, 'console'));

  app.setErrorHandler((error, request, reply) => {
    const { body, headers } = toErrorResponse(error);
    if (body.status >= 500 && !reportDatabaseOutage(error, 'console requests')) {
      request.log.error({ err: error }, 'console request failed');
    }
    request.auditReason = body.title;
    const status = body.status === 415 ? 400 : body.status;
    if (headers['retry-after']) reply.header('retry-after', headers['retry-after']);
    const b = base(request);
    const pageCtx = request.consoleSession ? ctx(request) : undefined;
    // The console's own messages are in the operator's language; a service's refusal is the
    // API's title (fixed by the spec), shown under a translated explanation; anything else
    // (a 5xx) never shows its internals.
    const message =
      error instanceof ConsoleError
        ? { text: error.describe(b.t) }
        : status >= 500
          ? { text: b.t.errors.unexpected }
          : { text: knownTitle(body.title, b.t), apiTitle: body.title };
    // A refused form comes back filled in (form-retry.ts); the login form has its own page.
    const retry =
      status === 400 && pageCtx
        ? retryForm(
            request,
            pageCtx,
            message.text ?? body.title,
            error instanceof ConsoleError ? error.field : undefined,
          )
        : undefined;
    kit.send(reply, errorPage(b, pageCtx, status, message, retry), status);
  });
  app.setNotFoundHandler((request, reply) => {
    const b = base(request);
    kit.send(
      reply,
      errorPage(b, request.consoleSession ? ctx(request) : undefined, 404, { text: b.t.errors.pageNotFound }),
      404,
    );
  });

  app.get('/assets/:name', allow('public'), async (request, reply) => {
    const asset = assets[(request.params as { name: string }).name];
    if (!asset) throw notFoundPage((t) => t.errors.pageNotFound);
    reply.header('etag', asset.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });

  app.get('/', allow('viewer'), async (_request, reply) => reply.redirect('/console/merchants', 303));

  // The language switch (a link on every page and on the login page): remembered in a cookie,
  // then back to the page it was chosen on. Public, as the login page offers it too.
  app.get('/language', allow('public'), async (request, reply) => {
    const q = queryOf(request);
    if (!isLang(q.lang)) throw notFoundPage((t) => t.errors.pageNotFound);
    reply.header('set-cookie', langCookie(q.lang));
    return reply.redirect(safeNext(q.next), 303);
  });

  app.get('/login', allow('public'), async (request, reply) => {
    const next = safeNext(queryOf(request).next);
    if (request.consoleSession) return reply.redirect(next, 303);
    const nonce = sessions.createLoginNonce();
    reply.header('set-cookie', `${LOGIN_COOKIE}=${nonce.cookie}; ${sessions.cookieAttributes(LOGIN_COOKIE_TTL_SEC)}`);
    reply.header('cache-control', 'no-store');
    return kit.send(reply, loginPage(base(request), { csrfToken: nonce.csrfToken, next }));
  });

  // Email + password (+ one-time code), or the bootstrap token. Every attempt is audited; repeated
  // failures lock the account and the address with backoff; attempts per minute are limited.
  app.post('/login', { ...allow('public'), onRequest: loginLimiter ? [loginLimiter] : [] }, async (request, reply) => {
    const form = formOf(request);
    const loginCookie = readCookie(request.headers.cookie, LOGIN_COOKIE);
    reply.header('cache-control', 'no-store');
    const csrfToken = form._csrf;
    if (!csrfToken || !sessions.checkLoginCsrf(loginCookie, csrfToken)) throw badCsrf();
    const next = safeNext(form.next);
    const byToken = form.email === undefined && form.password === undefined;
    const result = byToken
      ? await operatorSessions.loginWithBootstrapToken(form.token ?? '', request.ip)
      : await operatorSessions.loginWithPassword({
          email: form.email ?? '',
          password: form.password ?? '',
          code: form.code || undefined,
          ip: request.ip,
        });
    const audited = { action: 'session.login', details: { method: byToken ? 'bootstrap-token' : 'password' } };
    if (!result.ok) {
      const status = result.lockedForSec ? 429 : 401;
      await audit.record(auditContextOf(request, 'console'), {
        ...audited,
        statusCode: status,
        reason: result.reason,
        anonymous: { email: result.email, operatorId: result.operatorId },
      });
      if (result.lockedForSec) reply.header('retry-after', String(result.lockedForSec));
      const b = base(request);
      const error = result.lockedForSec
        ? b.t.login.locked(Math.ceil(result.lockedForSec / 60))
        : byToken
          ? b.t.login.badToken
          : b.t.login.badPassword;
      const page = loginPage(b, {
        csrfToken,
        next,
        error,
        errorOn: byToken ? 'token' : 'password',
        email: byToken ? undefined : form.email,
      });
      return kit.send(reply, page, status);
    }
    const opened = await operatorSessions.open(result.actor, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    await audit.record(auditContextOf(request, 'console', result.actor), { ...audited, statusCode: 303 });
    reply.header('set-cookie', [
      `${SESSION_COOKIE}=${sessions.cookieFor(opened.id, opened.expiresAt)}; ${sessions.cookieAttributes(maxAgeSec)}`,
      `${LOGIN_COOKIE}=; ${sessions.cookieAttributes(0)}`,
    ]);
    return reply.redirect(next, 303);
  });

  app.post('/logout', allow('viewer', 'session.logout'), async (request, reply) => {
    if (request.consoleSession) await operatorSessions.close(request.consoleSession.id);
    reply.header('set-cookie', `${SESSION_COOKIE}=; ${sessions.cookieAttributes(0)}`);
    return reply.redirect('/console/login', 303);
  });

  await app.register(merchantsPages, { kit });
  await app.register(keyPages, { kit });
  await app.register(catalogPages, { kit });
  await app.register(butcheryPages, { kit });
  await app.register(availabilityPages, { kit });
  await app.register(ordersPages, { kit });
  await app.register(webhooksPages, { kit });
  await app.register(noticesPages, { kit });
  await app.register(statementsPages, { kit });
  if (config.env === 'sandbox') await app.register(sandboxPages, { kit });
  const homologation = services.homologation;
  if (homologation) await app.register(homologationPages, { kit, homologation });
  await app.register(operatorsPages, { kit });
  await app.register(auditPages, { kit });
  await app.register(accountPages, { kit });
};
