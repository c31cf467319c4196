import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: adminHeaders, payload: payload as object });

describe('operator merchants', () => {
  it('creates, lists, reads and updates a merchant', async () => {
    const id = '3f2b7c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
    const created = await admin('POST', '/merchants', { name: '  Casa de Carnes  ', id, status: 'UNAVAILABLE' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id,
      name: 'Casa de Carnes',
      status: 'UNAVAILABLE',
      createdAt: expect.any(String),
    });
    const list = await admin('GET', '/merchants');
    expect(list.json().map((x: { id: string }) => x.id)).toContain(id);
    const detail = await admin('GET', `/merchants/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id,
      name: 'Casa de Carnes',
      status: 'UNAVAILABLE',
      pdvExternalId: null,
      onboarding: { ordersWebhookURL: null, getMerchantURL: null, webhookKeyId: null },
      integrationKeys: [],
      lastCatalogSync: null,
    });
    const patched = await admin('PATCH', `/merchants/${id}`, { status: 'AVAILABLE' });
    expect(patched.json().status).toBe('AVAILABLE');
  });

  it.each([
    [{}, 'name is required'],
    [{ name: '' }, 'name must NOT have fewer than 1 characters'],
    [{ name: '   ' }, 'name must not be empty'],
    [{ name: 'x', status: 'OPEN' }, 'status must be one of AVAILABLE, UNAVAILABLE'],
    [{ name: 'x', id: 'nope' }, 'id must be a uuid'],
  ])('400 for %j', async (payload, title) => {
    const res = await admin('POST', '/merchants', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title, status: 400 });
  });

  it('409 for a duplicate id', async () => {
    const id = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    expect((await admin('POST', '/merchants', { name: 'A', id })).statusCode).toBe(201);
    const dup = await admin('POST', '/merchants', { name: 'B', id });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ title: 'A merchant with this id already exists', status: 409 });
  });

  it('404 for an unknown merchant, 400 for a malformed id', async () => {
    const unknown = await admin('GET', '/merchants/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ title: 'Merchant not found', status: 404 });
    const bad = await admin('GET', '/merchants/xyz');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ title: 'merchantId must be a uuid (params)', status: 400 });
    const keys = await admin('POST', '/merchants/00000000-0000-4000-8000-000000000000/integrationKeys', {});
    expect(keys.statusCode).toBe(404);
    expect(keys.json()).toEqual({ title: 'Merchant not found', status: 404 });
  });
});

describe('operator integration keys', () => {
  it('shows the secret only at creation and lists keys without secrets', async () => {
    const m = await createMerchant(t.app);
    const created = await admin('POST', `/merchants/${m.merchantId}/integrationKeys`, { name: 'balcão' });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const key = created.json();
    expect(key).toEqual({
      keyId: expect.any(String),
      clientId: m.merchantId,
      clientSecret: expect.stringMatching(/^cs_[0-9a-f]{32}_/),
      name: 'balcão',
      createdAt: expect.any(String),
    });
    const detail = (await admin('GET', `/merchants/${m.merchantId}`)).json();
    expect(detail.integrationKeys.map((k: { keyId: string }) => k.keyId)).toEqual([m.keyId, key.keyId]);
    expect(JSON.stringify(detail)).not.toContain(key.clientSecret);
    expect(detail.integrationKeys[0].lastUsedAt).not.toBeNull();
  });

  it('404 when deleting an unknown or already deleted key', async () => {
    const m = await createMerchant(t.app);
    expect((await admin('DELETE', `/merchants/${m.merchantId}/integrationKeys/${m.keyId}`)).statusCode).toBe(204);
    const again = await admin('DELETE', `/merchants/${m.merchantId}/integrationKeys/${m.keyId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ title: 'Integration key not found', status: 404 });
  });
});

describe('operator logistics apps', () => {
  it('registers an app with a uuid v4 id and a secret, lists it, deactivates it', async () => {
    const m = await createMerchant(t.app);
    const res = await admin('POST', '/logisticsApps', { name: 'Motoboys SA', merchantIds: [m.merchantId] });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.appId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created).toMatchObject({ name: 'Motoboys SA', merchantIds: [m.merchantId] });
    expect(created.clientSecret.length).toBeGreaterThanOrEqual(32);
    const list = (await admin('GET', '/logisticsApps')).json();
    expect(list.find((a: { appId: string }) => a.appId === created.appId)).toMatchObject({ active: true });
    expect(JSON.stringify(list)).not.toContain(created.clientSecret);
    expect((await admin('DELETE', `/logisticsApps/${created.appId}`)).statusCode).toBe(204);
    const after = (await admin('GET', '/logisticsApps')).json();
    expect(after.find((a: { appId: string }) => a.appId === created.appId)).toMatchObject({ active: false });
  });

  it('400 for an unknown merchant, 404 for an unknown app', async () => {
    const res = await admin('POST', '/logisticsApps', {
      name: 'X',
      merchantIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title: 'merchantIds[0] is not a known merchant', status: 400 });
    const del = await admin('DELETE', '/logisticsApps/00000000-0000-4000-8000-000000000000');
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ title: 'Logistics app not found', status: 404 });
  });
});
