// The audit log: one entry per operator action (API and console), with who, when, from where,
// what and the result; failed attempts too; never a secret; append-only in the database; list
// with filters and pages; export as JSON lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, postLogin } from '../console/console-session.js';
import { createProduct } from '../support/orders.js';
import { ADMIN_TOKEN, adminHeaders, bearer, createTestApp, type TestApp } from '../support/test-app.js';
import { type AuditEntry, auditEntries, createOperator, PASSWORD, type TestOperator } from './support.js';

let t: TestApp;
let admin: TestOperator;
let support: TestOperator;
let viewer: TestOperator;
/** Every secret any step saw: none may appear in the audit table. */
const secrets: string[] = [];

const UA = { 'user-agent': 'audit-test/1.0' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOperator(t.app, 'admin', 'Ana Admin');
  support = await createOperator(t.app, 'support', 'Sérgio Suporte');
  viewer = await createOperator(t.app, 'viewer', 'Vera Viewer');
  secrets.push(PASSWORD, admin.token, support.token, viewer.token, ADMIN_TOKEN);
});
afterAll(() => t.close());

const as = (who: TestOperator) => ({ ...who.headers, ...UA });

/** The newest entry of an action (after a step), read through the API. */
async function last(action: string): Promise<AuditEntry> {
  const [entry] = await auditEntries(t.app, `&action=${action}`);
  if (!entry) throw new Error(`no audit entry ${action}`);
  return entry;
}

describe('operator API actions', () => {
  let merchantId: string;
  let keyId: string;

  it('records a merchant created by an admin token: actor, token, role, target, result, ip, user agent', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: as(admin),
      payload: { name: 'Açougue Auditado' },
    });
    expect(res.statusCode).toBe(201);
    merchantId = res.json().id;
    const e = await last('merchant.create');
    expect(e).toMatchObject({
      actor: admin.email,
      actorType: 'token',
      operatorId: admin.id,
      role: 'admin',
      channel: 'api',
      action: 'merchant.create',
      target: { merchantId },
      details: { name: 'Açougue Auditado' },
      result: { status: 201, outcome: 'success', reason: null },
      ip: '127.0.0.1',
      userAgent: 'audit-test/1.0',
    });
    expect(e.tokenId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records key creation and revocation with the key id, and never the secret', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchantId}/integrationKeys`,
      headers: as(admin),
      payload: { name: 'PDV' },
    });
    expect(res.statusCode).toBe(201);
    keyId = res.json().keyId;
    secrets.push(res.json().clientSecret);
    expect(await last('integrationKey.create')).toMatchObject({
      target: { merchantId, keyId },
      result: { status: 201, outcome: 'success' },
    });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${merchantId}/integrationKeys/${keyId}`,
      headers: as(admin),
    });
    expect(del.statusCode).toBe(204);
    expect(await last('integrationKey.revoke')).toMatchObject({
      target: { merchantId, keyId },
      result: { status: 204 },
    });
  });

  it('records a status change with the new status, by the bootstrap token', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${merchantId}`,
      headers: adminHeaders,
      payload: { status: 'UNAVAILABLE' },
    });
    expect(res.statusCode).toBe(200);
    expect(await last('merchant.update')).toMatchObject({
      actor: 'bootstrap-token',
      actorType: 'bootstrap',
      operatorId: null,
      tokenId: null,
      role: 'admin',
      target: { merchantId },
      details: { status: 'UNAVAILABLE' },
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${merchantId}`,
      headers: adminHeaders,
      payload: { status: 'AVAILABLE' },
    });
  });

  it('records order actions by support, with the order id', async () => {
    const product = await createProduct(t.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const created = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchantId}/orders`,
      headers: as(support),
      payload: { type: 'DELIVERY', items: [{ productId: product.id, quantity: 1 }] },
    });
    expect(created.statusCode).toBe(201);
    const orderId = created.json().id as string;
    expect(await last('order.create')).toMatchObject({
      actor: support.email,
      role: 'support',
      target: { merchantId, orderId },
      details: { type: 'DELIVERY' },
    });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${orderId}/customerCancellation`,
      headers: as(support),
      payload: { reason: 'mudou de ideia' },
    });
    expect(cancel.statusCode).toBe(202);
    expect(await last('order.customerCancellation')).toMatchObject({
      target: { orderId },
      details: { reason: 'mudou de ideia' },
      result: { status: 202, outcome: 'success' },
    });
    const conclude = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${orderId}/events`,
      headers: as(support),
      payload: { eventType: 'CANCELLED' },
    });
    expect(conclude.statusCode).toBe(202);
    expect(await last('order.platformEvent')).toMatchObject({
      target: { orderId },
      details: { eventType: 'CANCELLED' },
    });
  });

  it('records failures with the reason: a webhook retry of a missing delivery, a catalog pull', async () => {
    const missing = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const retry = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/webhookDeliveries/${missing}/retry`,
      headers: as(support),
    });
    expect(retry.statusCode).toBe(404);
    expect(await last('webhookDelivery.retry')).toMatchObject({
      target: { deliveryId: missing },
      result: { status: 404, outcome: 'failure', reason: retry.json().title },
    });
    const pull = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchantId}/catalogPull`,
      headers: as(support),
    });
    const e = await last('catalog.pull');
    expect(e.target).toMatchObject({ merchantId });
    expect(e.result.status).toBe(pull.statusCode);
  });

  it('records a refused attempt (403) by a viewer, and nothing for reads', async () => {
    const before = (await auditEntries(t.app)).length;
    const read = await t.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: as(viewer) });
    expect(read.statusCode).toBe(200);
    expect((await auditEntries(t.app)).length).toBe(before);
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: as(viewer),
      payload: { name: 'Não pode' },
    });
    expect(res.statusCode).toBe(403);
    expect(await last('merchant.create')).toMatchObject({
      actor: viewer.email,
      role: 'viewer',
      result: { status: 403, outcome: 'failure', reason: 'Forbidden: this needs the admin role (yours is viewer)' },
    });
  });

  it('records logistics partners, operators and tokens being managed', async () => {
    const app = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/logisticsApps',
      headers: as(admin),
      payload: { name: 'Motoboys', merchantIds: [merchantId] },
    });
    secrets.push(app.json().clientSecret);
    const appId = app.json().appId as string;
    expect(await last('logisticsApp.create')).toMatchObject({ target: { appId }, details: { name: 'Motoboys' } });
    await t.app.inject({ method: 'DELETE', url: `/admin/v1/logisticsApps/${appId}`, headers: as(admin) });
    expect(await last('logisticsApp.deactivate')).toMatchObject({ target: { appId }, result: { status: 204 } });

    const op = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/operators',
      headers: as(admin),
      payload: { email: 'novo@cleaver.test', name: 'Novo', role: 'support', password: 'uma senha bem comprida' },
    });
    secrets.push('uma senha bem comprida');
    const operatorId = op.json().id as string;
    expect(await last('operator.create')).toMatchObject({
      target: { operatorId },
      details: { email: 'novo@cleaver.test', name: 'Novo', role: 'support' },
    });
    const token = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/operators/${operatorId}/tokens`,
      headers: as(admin),
      payload: { name: 'cli', role: 'viewer' },
    });
    secrets.push(token.json().token);
    const tokenId = token.json().id as string;
    expect(await last('operatorToken.create')).toMatchObject({
      target: { operatorId, tokenId },
      details: { name: 'cli', role: 'viewer' },
    });
    await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/operators/${operatorId}/tokens/${tokenId}`,
      headers: as(admin),
    });
    expect(await last('operatorToken.revoke')).toMatchObject({ target: { operatorId, tokenId } });
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/operators/${operatorId}/password`,
      headers: as(admin),
      payload: { password: 'outra senha bem comprida' },
    });
    secrets.push('outra senha bem comprida');
    expect(await last('operator.setPassword')).toMatchObject({ target: { operatorId }, details: {} });
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/operators/${operatorId}`,
      headers: as(admin),
      payload: { disabled: true },
    });
    expect(await last('operator.update')).toMatchObject({ target: { operatorId }, details: { disabled: true } });
  });
});

describe('console actions and logins', () => {
  it('records logins, failed logins, console actions and logouts with channel console', async () => {
    const wrong = await postLogin(t.app, { email: admin.email, password: 'not the password at all' }, UA);
    expect(wrong.statusCode).toBe(401);
    const failed = await last('session.login');
    expect(failed).toMatchObject({
      actor: admin.email,
      actorType: 'anonymous',
      operatorId: admin.id,
      channel: 'console',
      details: { method: 'password' },
      result: { status: 401, outcome: 'failure', reason: 'wrong password' },
      userAgent: 'audit-test/1.0',
    });
    const unknown = await postLogin(t.app, { email: 'nobody@cleaver.test', password: 'whatever it is here' });
    expect(unknown.statusCode).toBe(401);
    expect(await last('session.login')).toMatchObject({
      actor: 'nobody@cleaver.test',
      operatorId: null,
      result: { reason: 'unknown account' },
    });
    const badToken = await postLogin(t.app, { token: 'not-the-bootstrap-token-0123456789' });
    expect(badToken.statusCode).toBe(401);
    expect(await last('session.login')).toMatchObject({
      actor: 'anonymous',
      details: { method: 'bootstrap-token' },
      result: { reason: 'invalid operator token' },
    });

    const s = await loginAs(t.app, admin.email, admin.password);
    expect(await last('session.login')).toMatchObject({
      actor: admin.email,
      actorType: 'operator',
      role: 'admin',
      result: { status: 303, outcome: 'success' },
    });
    const created = await s.post('/console/merchants', { name: 'Casa de Carnes' });
    expect(created.statusCode).toBe(303);
    const merchantId = /merchants\/([0-9a-f-]{36})/.exec(String(created.headers.location))?.[1];
    expect(await last('merchant.create')).toMatchObject({
      actor: admin.email,
      channel: 'console',
      target: { merchantId },
      details: { name: 'Casa de Carnes' },
      result: { status: 303, outcome: 'success' },
    });
    const empty = await s.post('/console/merchants', { name: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(await last('merchant.create')).toMatchObject({
      result: { status: 400, outcome: 'failure', reason: 'Name must not be empty.' },
    });
    const key = await s.post(`/console/merchants/${merchantId}/keys`, { name: 'balcão' });
    expect(key.statusCode).toBe(201);
    secrets.push(/id="client-secret"[^>]*>([^<]+)</.exec(key.body)?.[1] as string);
    expect(await last('integrationKey.create')).toMatchObject({ channel: 'console', target: { merchantId } });
    await s.post('/console/logout', {});
    expect(await last('session.logout')).toMatchObject({ actor: admin.email, channel: 'console' });
  });

  it('records a console password change without the passwords', async () => {
    const s = await loginAs(t.app, support.email, support.password);
    const res = await s.post('/console/account/password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(res.statusCode).toBe(303);
    secrets.push('a brand new passphrase');
    expect(await last('account.changePassword')).toMatchObject({ actor: support.email, details: {} });
  });
});

describe('the log itself', () => {
  it('holds no secret anywhere: passwords, tokens, client secrets', async () => {
    const { rows } = await t.database.db.query('SELECT * FROM audit_log');
    expect(rows.length).toBeGreaterThan(20);
    const text = JSON.stringify(rows);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(text).not.toContain(secret);
    }
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = t.database.db;
    for (const sql of ["UPDATE audit_log SET action = 'x'", 'DELETE FROM audit_log', 'TRUNCATE audit_log']) {
      await expect(db.query(sql)).rejects.toThrow(/audit_log is append-only/);
    }
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(rows[0].n).toBeGreaterThan(20);
  });

  it('filters by actor (email, operator id, token id, bootstrap-token), action family and time', async () => {
    const byEmail = await auditEntries(t.app, `&actor=${encodeURIComponent(support.email.toUpperCase())}`);
    expect(byEmail.length).toBeGreaterThan(3);
    expect(byEmail.every((e) => e.actor === support.email)).toBe(true);
    expect((await auditEntries(t.app, `&actor=${support.id}`)).length).toBe(byEmail.length);
    const tokenId = byEmail.find((e) => e.tokenId)?.tokenId as string;
    expect((await auditEntries(t.app, `&actor=${tokenId}`)).every((e) => e.tokenId === tokenId)).toBe(true);
    const boot = await auditEntries(t.app, '&actor=bootstrap-token');
    expect(boot.length).toBeGreaterThan(0);
    expect(boot.every((e) => e.actorType === 'bootstrap')).toBe(true);
    const orders = await auditEntries(t.app, '&action=order');
    expect(new Set(orders.map((e) => e.action))).toEqual(
      new Set(['order.create', 'order.customerCancellation', 'order.platformEvent']),
    );
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await auditEntries(t.app, `&since=${encodeURIComponent(future)}`)).toEqual([]);
    expect((await auditEntries(t.app, `&until=${encodeURIComponent(future)}`)).length).toBeGreaterThan(20);
    const bad = await t.app.inject({ method: 'GET', url: '/admin/v1/audit?since=yesterday', headers: adminHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400, title: expect.stringContaining('since') });
  });

  it('pages newest first with a Link header, and refuses a forged cursor', async () => {
    const all = await auditEntries(t.app);
    const seen: string[] = [];
    let url: string | undefined = '/admin/v1/audit?limit=7';
    while (url) {
      const res = await t.app.inject({ method: 'GET', url, headers: adminHeaders });
      expect(res.statusCode).toBe(200);
      seen.push(...(res.json() as AuditEntry[]).map((e) => e.id));
      const link = res.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    }
    expect(seen).toEqual(all.map((e) => e.id));
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => b - a));
    const forged = await t.app.inject({ method: 'GET', url: '/admin/v1/audit?cursor=abc', headers: adminHeaders });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ title: 'cursor is not valid: use the one from the Link header', status: 400 });
    const tooMany = await t.app.inject({ method: 'GET', url: '/admin/v1/audit?limit=1001', headers: adminHeaders });
    expect(tooMany.statusCode).toBe(400);
  });

  it('exports the filtered entries as JSON lines, oldest first, for a viewer too', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/audit/export?action=merchant',
      headers: bearer(viewer.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = res.body.trimEnd().split('\n');
    const entries = lines.map((l) => JSON.parse(l) as AuditEntry);
    const listed = await auditEntries(t.app, '&action=merchant');
    expect(entries.map((e) => e.id)).toEqual(listed.map((e) => e.id).reverse());
    expect(entries.every((e) => e.action.startsWith('merchant.'))).toBe(true);
    const console = await loginAs(t.app, admin.email, admin.password);
    const viaConsole = await console.get('/console/audit/export?action=merchant');
    expect(viaConsole.statusCode).toBe(200);
    expect(viaConsole.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(viaConsole.body.trimEnd().split('\n').length).toBe(lines.length);
  });
});
