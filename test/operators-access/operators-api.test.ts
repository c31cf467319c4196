// operator-api.md#operators-and-audit: the bootstrap token creates the first admin; operators,
// roles, personal tokens (role cap, expiry, shown once, revocable), disabling and revoking access;
// what a viewer may not see.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { createOperator, PASSWORD } from './support.js';

const clock = manualClock(new Date());
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: object, payload?: object) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: headers as Record<string, string>, payload });

describe('bootstrap', () => {
  it('creates the first admin with CLEAVER_ADMIN_TOKEN; the answer holds no password or hash', async () => {
    const res = await api('POST', '/operators', adminHeaders, {
      email: 'first.admin@cleaver.test',
      name: 'First Admin',
      role: 'admin',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'first.admin@cleaver.test',
      name: 'First Admin',
      role: 'admin',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      disabled: false,
      disabledAt: null,
      passwordSet: true,
      totpEnabled: false,
    });
    expect(res.body).not.toContain(PASSWORD);
    expect(res.body).not.toContain('argon2');
    const { rows } = await t.database.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM operators WHERE id = $1',
      [body.id],
    );
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('says who the bootstrap token is', async () => {
    const res = await api('GET', '/me', adminHeaders);
    expect(res.json()).toEqual({
      actor: 'bootstrap-token',
      actorType: 'bootstrap',
      role: 'admin',
      operator: null,
      tokenId: null,
    });
  });

  it('has no account of its own: /me/tokens answers 409', async () => {
    const res = await api('POST', '/me/tokens', adminHeaders, {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      title: 'The bootstrap token is not an operator account: create an operator and use its token',
      status: 409,
    });
  });
});

describe('operators', () => {
  it('refuses a bad body with a title naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{ email: 'x@y.z', name: 'N', role: 'root' }, 'role'],
      [{ email: 'not-an-email', name: 'N', role: 'viewer' }, 'email must be an email address'],
      [
        { email: 'x@y.z', name: 'N', role: 'viewer', password: 'short' },
        'password must be at least 12 characters long',
      ],
      [{ name: 'N', role: 'viewer' }, 'email'],
    ];
    for (const [payload, title] of cases) {
      const res = await api('POST', '/operators', adminHeaders, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, title: expect.stringContaining(title) });
    }
  });

  it('refuses a second operator with the same email, whatever its case (409)', async () => {
    await api('POST', '/operators', adminHeaders, { email: 'dup@cleaver.test', name: 'A', role: 'viewer' });
    const res = await api('POST', '/operators', adminHeaders, { email: 'DUP@cleaver.test', name: 'B', role: 'viewer' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ title: 'An operator with this email already exists', status: 409 });
  });

  it('lists operators in pages with a Link header', async () => {
    for (let i = 0; i < 3; i++) {
      await api('POST', '/operators', adminHeaders, { email: `page${i}@cleaver.test`, name: `P${i}`, role: 'viewer' });
    }
    const all = (await api('GET', '/operators?limit=1000', adminHeaders)).json() as Array<{ id: string }>;
    const seen: string[] = [];
    let url: string | undefined = '/admin/v1/operators?limit=2';
    while (url) {
      const res: LightMyRequestResponse = await t.app.inject({ method: 'GET', url, headers: adminHeaders });
      seen.push(...(res.json() as Array<{ id: string }>).map((o) => o.id));
      url = (res.headers.link as string | undefined)?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    }
    expect(seen).toEqual(all.map((o) => o.id));
    expect(seen.length).toBeGreaterThanOrEqual(5);
  });

  it('changes a role: the operator’s existing tokens act with the new role at once', async () => {
    const op = await createOperator(t.app, 'admin');
    expect((await api('POST', '/merchants', op.headers, { name: 'Antes' })).statusCode).toBe(201);
    const patched = await api('PATCH', `/operators/${op.id}`, adminHeaders, { role: 'viewer' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ role: 'viewer' });
    const res = await api('POST', '/merchants', op.headers, { name: 'Depois' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ title: 'Forbidden: this needs the admin role (yours is viewer)', status: 403 });
    const empty = await api('PATCH', `/operators/${op.id}`, adminHeaders, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ title: 'body must set role or disabled', status: 400 });
    const missing = await api('PATCH', '/operators/0f0e0d0c-0b0a-4908-8706-050403020100', adminHeaders, {
      role: 'viewer',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ title: 'Operator not found', status: 404 });
  });

  it('disabling revokes every token and session at once; enabling does not bring them back', async () => {
    const op = await createOperator(t.app, 'support');
    expect((await api('GET', '/merchants', op.headers)).statusCode).toBe(200);
    const off = await api('PATCH', `/operators/${op.id}`, adminHeaders, { disabled: true });
    expect(off.json()).toMatchObject({ disabled: true, disabledAt: expect.any(String) });
    const res = await api('GET', '/merchants', op.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ title: 'Invalid operator token', status: 401 });
    const on = await api('PATCH', `/operators/${op.id}`, adminHeaders, { disabled: false });
    expect(on.json()).toMatchObject({ disabled: false, disabledAt: null });
    expect((await api('GET', '/merchants', op.headers)).statusCode).toBe(401);
    const tokens = (await api('GET', `/operators/${op.id}/tokens`, adminHeaders)).json();
    expect(tokens).toEqual([expect.objectContaining({ active: false, revokedAt: expect.any(String) })]);
    expect(JSON.stringify(tokens)).not.toContain(op.token);
  });

  it('revokeAccess ends the sessions and tokens without disabling', async () => {
    const op = await createOperator(t.app, 'viewer');
    await api('POST', `/operators/${op.id}/tokens`, adminHeaders, {});
    const res = await api('POST', `/operators/${op.id}/revokeAccess`, adminHeaders);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sessions: 0, tokens: 2 });
    expect((await api('GET', '/me', op.headers)).statusCode).toBe(401);
    expect((await api('GET', `/operators/${op.id}`, adminHeaders)).json()).toMatchObject({ disabled: false });
  });
});

describe('personal tokens', () => {
  it('are shown once, act with their role, and say who they are', async () => {
    const op = await createOperator(t.app, 'support');
    const res = await api('POST', `/operators/${op.id}/tokens`, adminHeaders, { name: 'cli', role: 'viewer' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(/^cop_[0-9a-f]{32}_[\w-]{43}$/),
      role: 'viewer',
      expiresAt: new Date(clock.now().getTime() + 90 * 86_400_000).toISOString(),
      name: 'cli',
      createdAt: clock.now().toISOString(),
    });
    const { rows } = await t.database.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM operator_tokens WHERE id = $1',
      [created.id],
    );
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(created.token);
    const me = await api('GET', '/me', bearer(created.token));
    expect(me.json()).toMatchObject({ actor: op.email, actorType: 'token', role: 'viewer', tokenId: created.id });
    const listed = await api('GET', `/operators/${op.id}/tokens`, bearer(created.token));
    expect(listed.body).not.toContain(created.token);
  });

  it('never get a role above the operator’s, nor above the caller’s', async () => {
    const op = await createOperator(t.app, 'support');
    const high = await api('POST', `/operators/${op.id}/tokens`, adminHeaders, { role: 'admin' });
    expect(high.statusCode).toBe(400);
    expect(high.json()).toEqual({ title: "role must not be higher than the operator's role (support)", status: 400 });
    const viewerToken = (await api('POST', '/me/tokens', op.headers, { role: 'viewer' })).json().token as string;
    const escalate = await api('POST', '/me/tokens', bearer(viewerToken), { role: 'support' });
    expect(escalate.statusCode).toBe(400);
    expect(escalate.json()).toEqual({ title: 'role must not be higher than your own role (viewer)', status: 400 });
    const defaulted = await api('POST', '/me/tokens', bearer(viewerToken), {});
    expect(defaulted.json().role).toBe('viewer');
  });

  it('expire at expiresAt, which must be in the future and within 366 days', async () => {
    const op = await createOperator(t.app, 'viewer');
    const soon = new Date(clock.now().getTime() + 60_000).toISOString();
    const token = (await api('POST', '/me/tokens', op.headers, { expiresAt: soon })).json().token as string;
    expect((await api('GET', '/me', bearer(token))).statusCode).toBe(200);
    clock.advance(61_000);
    expect((await api('GET', '/me', bearer(token))).statusCode).toBe(401);
    for (const [expiresAt, title] of [
      [new Date(clock.now().getTime() - 1000).toISOString(), 'expiresAt must be in the future'],
      [new Date(clock.now().getTime() + 367 * 86_400_000).toISOString(), 'expiresAt must be at most 366 days ahead'],
    ]) {
      const res = await api('POST', '/me/tokens', op.headers, { expiresAt });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ title, status: 400 });
    }
  });

  it('stop working at once when revoked; a forged token is refused', async () => {
    const op = await createOperator(t.app, 'viewer');
    const created = (await api('POST', '/me/tokens', op.headers, {})).json();
    expect((await api('DELETE', `/me/tokens/${created.id}`, op.headers)).statusCode).toBe(204);
    expect((await api('GET', '/me', bearer(created.token))).statusCode).toBe(401);
    const again = await api('DELETE', `/me/tokens/${created.id}`, op.headers);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ title: 'Token not found', status: 404 });
    const forged = `${op.token.slice(0, -4)}AAAA`;
    expect((await api('GET', '/me', bearer(forged))).json()).toEqual({ title: 'Invalid operator token', status: 401 });
    // Someone else's token id: not found for this operator.
    const other = await createOperator(t.app, 'viewer');
    const foreign = (await api('POST', '/me/tokens', other.headers, {})).json();
    expect((await api('DELETE', `/me/tokens/${foreign.id}`, op.headers)).statusCode).toBe(404);
  });
});

describe('what a viewer sees', () => {
  it('gets an order without its delivery code; support sees it', async () => {
    const viewer = await createOperator(t.app, 'viewer');
    const support = await createOperator(t.app, 'support');
    const m = await createMerchant(t.app, 'Açougue Visto');
    const order = await createSimpleOrder(t.app, m.merchantId);
    const seen = await api('GET', `/orders/${order.id}`, viewer.headers);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().deliveryCode).toBe('****');
    expect(seen.body).not.toContain(`"${order.deliveryCode}"`);
    expect((await api('GET', `/orders/${order.id}`, support.headers)).json().deliveryCode).toBe(order.deliveryCode);
  });

  it('cannot call the routes that answer with a secret', async () => {
    const viewer = await createOperator(t.app, 'viewer');
    const m = await createMerchant(t.app, 'Açougue Secreto');
    for (const [url, payload] of [
      [`/merchants/${m.merchantId}/integrationKeys`, {}],
      ['/logisticsApps', { name: 'x', merchantIds: [] }],
      [`/operators/${viewer.id}/tokens`, {}],
    ] as const) {
      const res = await api('POST', url, viewer.headers, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ title: 'Forbidden: this needs the admin role (yours is viewer)', status: 403 });
    }
    const detail = await api('GET', `/merchants/${m.merchantId}`, viewer.headers);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toContain(m.clientSecret);
  });
});
