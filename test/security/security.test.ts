import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { deriveKey } from '../../src/lib/crypto.js';
import { callerOf, declaredRoutesOf } from '../../src/lib/route-declaration.js';
import { eventIdOf } from '../../src/modules/events/index.js';
import { ruledRoutesOf } from '../../src/plugins/auth-hooks.js';
import { createSimpleOrder } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import { type ProtectedRoute, protectedRoutes, REQUEST_FIXTURES, type RouteContext } from './protected-routes.js';

const clock = manualClock(new Date());
// Built before the tests are collected: the protected routes are the ones this app registered.
// Each route's credential cases take fresh tokens; the per-IP auth budget is not under test here.
const t: TestApp = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_AUTH: '100000' } });
const declared = declaredRoutesOf(t.app);
/** Every /v1 route declared for the merchant's bearer token (spec 5.1), as the app registered it. */
const merchantRoutes = protectedRoutes(declared.filter((r) => callerOf(r.access) === 'merchant'));
let me: MerchantCredentials;
let ctx: RouteContext;

beforeAll(async () => {
  me = await createMerchant(t.app, 'Security Merchant');
  const other = await createMerchant(t.app, 'Other Merchant');
  const order = await createSimpleOrder(t.app, me.merchantId);
  const foreign = await createSimpleOrder(t.app, other.merchantId);
  ctx = {
    merchantId: me.merchantId,
    otherMerchantId: other.merchantId,
    orderId: order.id,
    foreignOrderId: foreign.id,
    createdEventId: eventIdOf('CREATED'),
  };
});
afterAll(() => t.close());

function call(route: Pick<ProtectedRoute, 'method' | 'url' | 'payload'>, headers: Record<string, string>) {
  return t.app.inject({
    method: route.method,
    url: route.url(ctx),
    headers,
    payload: route.payload ? (route.payload(ctx) as object) : undefined,
  });
}

function expect401(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, title?: string) {
  expect(res.statusCode).toBe(401);
  const body = res.json() as { title: string; status: number };
  expect(body.status).toBe(401);
  expect(typeof body.title).toBe('string');
  if (title) expect(body.title).toBe(title);
  expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
}

async function signWith(
  key: Uint8Array,
  claims: Record<string, unknown>,
  alg = 'HS256',
  { issuer = 'cleaver', audience = 'cleaver:merchant-api' } = {},
) {
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ kid: me.keyId, ...claims })
    .setProtectedHeader({ alg })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(me.merchantId)
    .setJti(crypto.randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(key);
}

/** The /admin/v1 routes as declared (src/lib/route-declaration.ts) and registered by the app. */
const declaredAdminRoutes = () =>
  ruledRoutesOf(t.app).filter((r) => r.url.startsWith('/admin/v1') && r.method !== 'HEAD');

describe('completeness', () => {
  it('every route the app serves under /v1, /oauth and /admin/v1 is declared, and the public ones are these', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const known = new Set(declared.map((r) => `${r.method} ${r.path}`));
    expect(served.filter((r) => /^\w+ \/(v1|oauth|admin\/v1)\//.test(r) && !known.has(r))).toEqual([]);
    expect(merchantRoutes.length).toBeGreaterThan(30);
    expect(declaredAdminRoutes().length).toBeGreaterThan(30);
    // Nothing checks a credential before these (the handler checks the client's own); D29: Open
    // Delivery's version discovery is asked before any token exists.
    expect(declared.filter((r) => callerOf(r.access) === 'public').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /oauth/token',
      'POST /oauth/revoke',
      'POST /oauth/refresh',
      'GET /v1/versions/orderingApp',
    ]);
  });

  it('has a request fixture only for declared merchant routes', () => {
    const names = new Set(merchantRoutes.map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(REQUEST_FIXTURES).filter((name) => !names.has(name))).toEqual([]);
  });
});

describe.each(merchantRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it('refuses a request without Authorization', async () => {
    expect401(await call(route, {}), 'Missing bearer token');
  });

  it('refuses a malformed Authorization header', async () => {
    expect401(await call(route, { authorization: 'Token abc' }));
    expect401(await call(route, { authorization: 'Bearer' }));
  });

  it('refuses a forged token (signed with another key)', async () => {
    const forged = await signWith(deriveKey('some-other-secret-key-0123456789abcdef', 'jwt-hs256'), {});
    expect401(await call(route, bearer(forged)), 'Invalid access token');
  });

  it('refuses alg: none', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const unsigned = new UnsecuredJWT({ kid: me.keyId })
      .setIssuer('cleaver')
      .setAudience('cleaver:merchant-api')
      .setSubject(me.merchantId)
      .setJti(crypto.randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .encode();
    expect401(await call(route, bearer(unsigned)), 'Invalid access token');
  });

  it('refuses a token signed with the right key but another algorithm', async () => {
    const key = deriveKey('test-secret-key-0123456789abcdefghijklmnopqrstu', 'jwt-hs256');
    expect401(await call(route, bearer(await signWith(key, {}, 'HS512'))), 'Invalid access token');
  });

  it('refuses a token signed with the right key for another issuer or audience', async () => {
    const key = deriveKey('test-secret-key-0123456789abcdefghijklmnopqrstu', 'jwt-hs256');
    const otherIssuer = await signWith(key, {}, 'HS256', { issuer: 'someone-else' });
    expect401(await call(route, bearer(otherIssuer)), 'Invalid access token');
    const otherAudience = await signWith(key, {}, 'HS256', { audience: 'cleaver:operator-api' });
    expect401(await call(route, bearer(otherAudience)), 'Invalid access token');
    // The same claims with the right issuer and audience pass (the two refusals are about them).
    const fine = await call(route, bearer(await signWith(key, {})));
    expect(fine.statusCode).not.toBe(401);
  });

  it('refuses an expired token', async () => {
    const fresh = await createMerchant(t.app, 'Expiring');
    clock.advance(43_200_000 + 1000);
    try {
      expect401(await call(route, bearer(fresh.token)), 'Access token expired');
    } finally {
      clock.advance(-(43_200_000 + 1000));
    }
  });

  it('refuses a revoked token', async () => {
    const fresh = await createMerchant(t.app, 'Revoking');
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      payload: { client_id: fresh.merchantId, client_secret: fresh.clientSecret, token: fresh.token },
    });
    expect(revoke.statusCode).toBe(200);
    expect401(await call(route, bearer(fresh.token)), 'Access token revoked');
  });

  it('refuses a token of a deleted integration key', async () => {
    const fresh = await createMerchant(t.app, 'Deleting');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${fresh.merchantId}/integrationKeys/${fresh.keyId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    expect401(await call(route, bearer(fresh.token)));
  });
});

// D21: another merchant's order is invisible: every order route (and acknowledgment) answers
// 404 `Order not found`, and changes nothing.
const foreignOrderRoutes = [
  ...merchantRoutes.filter((r) => r.orderRoute),
  ...merchantRoutes.filter((r) => r.path === '/v1/events/acknowledgment'),
];
describe.each(foreignOrderRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it("answers 404 `Order not found` for another merchant's order", async () => {
    const foreignCtx = { ...ctx, orderId: ctx.foreignOrderId };
    const res = await t.app.inject({
      method: route.method,
      url: route.url(foreignCtx),
      headers: bearer(me.token),
      payload: route.payload ? (route.payload(foreignCtx) as object) : undefined,
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 404,
      body: { title: 'Order not found', status: 404 },
    });
  });
});

it('foreign-order calls changed nothing on that order', async () => {
  const view = await t.app.inject({
    method: 'GET',
    url: `/admin/v1/orders/${ctx.foreignOrderId}`,
    headers: adminHeaders,
  });
  expect(view.json()).toMatchObject({ status: 'CREATED', lastEvent: 'CREATED', tracking: [] });
  expect(view.json().events.map((e: { eventType: string }) => e.eventType)).toEqual(['CREATED']);
  expect(view.json().events[0].acknowledgments.every((a: { acknowledged: boolean }) => !a.acknowledged)).toBe(true);
});

describe('every declared /admin/v1 route', () => {
  const NO_ID = '00000000-0000-4000-8000-000000000000';
  it('refuses a missing, a merchant, and a wrong operator token', async () => {
    for (const r of declaredAdminRoutes()) {
      const route = { method: r.method as 'GET', url: () => r.url.replace(/:\w+/g, NO_ID) };
      const cases: Array<[Record<string, string>, string]> = [
        [{}, 'Missing bearer token'],
        [bearer(me.token), 'Invalid operator token'],
        [bearer('not-the-admin-token'), 'Invalid operator token'],
      ];
      for (const [headers, title] of cases) {
        const res = await call(route, headers);
        expect({ route: `${r.method} ${r.url}`, status: res.statusCode, body: res.json() }).toEqual({
          route: `${r.method} ${r.url}`,
          status: 401,
          body: { title, status: 401 },
        });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    }
  });
});
