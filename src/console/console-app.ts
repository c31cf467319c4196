// The operator console (issue 8): server-rendered HTML under /console, served by the API process.
// Behind the operator token through a login page and a signed session cookie; CSRF token on every
// POST; CSP `default-src 'self'` (all assets local, no inline script or style). Hidden from the
// OpenAPI document: these are pages, not API routes. Routes call the services in-process.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import { forbidden } from '../lib/errors.js';
import { toErrorResponse } from '../plugins/error-handler.js';
import type { Services } from '../services.js';
import { catalogPages } from './catalog-pages.js';
import { type ConsoleKit, formOf, queryOf } from './console-kit.js';
import type { Html } from './html.js';
import { errorPage, loginPage, type PageContext, type Section } from './layout.js';
import { merchantsPages } from './merchants-pages.js';
import { ordersPages } from './orders-pages.js';
import { sandboxPages } from './sandbox-pages.js';
import {
  createSessions,
  LOGIN_COOKIE,
  LOGIN_COOKIE_TTL_SEC,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_SEC,
} from './session.js';
import { webhooksPages } from './webhooks-pages.js';

export interface ConsoleDeps {
  services: Services;
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
  if (!raw || !/^\/console(\/[A-Za-z0-9\-._~%/?=&]*)?$/.test(raw) || raw.includes('//') || raw.includes('..'))
    return '/console/merchants';
  return raw;
}

const PUBLIC = { public: true } as const;

export const consoleRoutes: FastifyPluginAsync<ConsoleDeps> = async (app, { services }) => {
  const { config, clock } = services;
  const sessions = createSessions(config);
  const assets: Record<string, Asset> = {
    'console.css': loadAsset('console.css', 'text/css; charset=utf-8'),
    'console.js': loadAsset('console.js', 'text/javascript; charset=utf-8'),
    'favicon.svg': loadAsset('favicon.svg', 'image/svg+xml'),
  };

  // Sections appear when the service behind them exists (and the sandbox only in sandbox).
  const sections: Section[] = ['merchants', 'orders', 'webhooks'];
  if (config.env === 'sandbox') sections.push('sandbox');

  const ctx = (request: FastifyRequest): PageContext => ({
    env: config.env,
    csrfToken: request.consoleSession?.csrfToken ?? '',
    sections,
  });
  const kit: ConsoleKit = {
    services,
    sections,
    ctx,
    send: (reply: FastifyReply, body: Html, status = 200) =>
      reply.code(status).type('text/html; charset=utf-8').send(body.__html),
  };

  // Pages, not API: out of /openapi.json (and so out of the security suite's completeness check).
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });

  await app.register(formbody);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    const isPublic = (request.routeOptions.config as { public?: boolean }).public === true;
    if (!isPublic) reply.header('cache-control', 'no-store');
    const session = sessions.verify(readCookie(request.headers.cookie, SESSION_COOKIE), clock.now().getTime());
    if (session) {
      request.consoleSession = session;
      return;
    }
    if (isPublic || !request.routeOptions.url) return;
    if (request.headers['x-console-fragment'] === '1') {
      return reply.code(401).type('text/plain; charset=utf-8').send('Session expired: log in again');
    }
    const next = request.method === 'GET' ? request.url : '/console/merchants';
    return reply.redirect(`/console/login?next=${encodeURIComponent(next)}`, 303);
  });

  // Synchronizer token: every POST carries the session's CSRF token (the login form has its own).
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST' || (request.routeOptions.config as { public?: boolean }).public) return;
    const token = formOf(request)._csrf;
    const expected = request.consoleSession?.csrfToken;
    if (!token || !expected || !safeEqual(token, expected)) {
      throw forbidden('Invalid or missing CSRF token: reload the page and try again');
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const { body } = toErrorResponse(error);
    if (body.status >= 500) request.log.error({ err: error }, 'console request failed');
    const status = body.status === 415 ? 400 : body.status;
    kit.send(reply, errorPage(request.consoleSession ? ctx(request) : undefined, status, body.title), status);
  });
  app.setNotFoundHandler((request, reply) => {
    kit.send(reply, errorPage(request.consoleSession ? ctx(request) : undefined, 404, 'Page not found'), 404);
  });

  app.get('/assets/:name', { config: PUBLIC }, async (request, reply) => {
    const asset = assets[(request.params as { name: string }).name];
    if (!asset) return kit.send(reply, errorPage(undefined, 404, 'Page not found'), 404);
    reply.header('etag', asset.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });

  app.get('/', async (_request, reply) => reply.redirect('/console/merchants', 303));

  app.get('/login', { config: PUBLIC }, async (request, reply) => {
    const next = safeNext(queryOf(request).next);
    if (request.consoleSession) return reply.redirect(next, 303);
    const nonce = sessions.createLoginNonce();
    reply.header('set-cookie', `${LOGIN_COOKIE}=${nonce.cookie}; ${sessions.cookieAttributes(LOGIN_COOKIE_TTL_SEC)}`);
    reply.header('cache-control', 'no-store');
    return kit.send(reply, loginPage({ csrfToken: nonce.csrfToken, next, env: config.env }));
  });

  app.post('/login', { config: PUBLIC }, async (request, reply) => {
    const form = formOf(request);
    const loginCookie = readCookie(request.headers.cookie, LOGIN_COOKIE);
    reply.header('cache-control', 'no-store');
    if (!sessions.checkLoginCsrf(loginCookie, form._csrf)) {
      throw forbidden('Invalid or missing CSRF token: reload the login page and try again');
    }
    const next = safeNext(form.next);
    if (!form.token || !safeEqual(form.token, config.adminToken)) {
      return kit.send(
        reply,
        loginPage({ csrfToken: form._csrf, next, error: 'Invalid operator token', env: config.env }),
        401,
      );
    }
    const { cookie } = sessions.create(clock.now().getTime());
    reply.header('set-cookie', [
      `${SESSION_COOKIE}=${cookie}; ${sessions.cookieAttributes(SESSION_TTL_SEC)}`,
      `${LOGIN_COOKIE}=; ${sessions.cookieAttributes(0)}`,
    ]);
    return reply.redirect(next, 303);
  });

  app.post('/logout', async (request, reply) => {
    if (request.consoleSession) sessions.revoke(request.consoleSession);
    reply.header('set-cookie', `${SESSION_COOKIE}=; ${sessions.cookieAttributes(0)}`);
    return reply.redirect('/console/login', 303);
  });

  await app.register(merchantsPages, { kit });
  await app.register(catalogPages, { kit });
  await app.register(ordersPages, { kit });
  await app.register(webhooksPages, { kit });
  if (config.env === 'sandbox') await app.register(sandboxPages, { kit });
};
