// Homologation in the console (sandbox): the merchant page lists the runs of its keys and starts
// one per key (support, CSRF-protected, audited like the API); the report page shows every
// criterion with its evidence and the signature, escaped, under the console's CSP; every run is
// listed on the homologation page of the navigation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../support/orders.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login } from './console-session.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('console homologation', () => {
  it('starts a run from the merchant page, lists it, and shows a finished report', { timeout: 30_000 }, async () => {
    const m = await createMerchant(t.app, 'Açougue <b>Console</b>');
    await createProduct(t.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const key = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${m.merchantId}/integrationKeys`,
      headers: adminHeaders,
      payload: { name: 'PDV <script>alert(1)</script>' },
    });
    expect(key.statusCode).toBe(201);
    const keyId = key.json().keyId as string;
    const s = await login(t.app);

    const merchantPage = await s.get(`/console/merchants/${m.merchantId}`);
    expect(merchantPage.statusCode).toBe(200);
    expect(merchantPage.body).toContain('No homologation run yet.');
    expect(merchantPage.body).toContain('Start a run for key PDV &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(merchantPage.body).not.toContain('<script>alert(1)');

    const started = await s.post(`/console/merchants/${m.merchantId}/keys/${keyId}/homologations`, {});
    expect(started.statusCode).toBe(303);
    const runUrl = started.headers.location as string;
    expect(runUrl).toMatch(/^\/console\/homologations\/[0-9a-f-]{36}$/);
    const running = await s.get(runUrl);
    expect(running.statusCode).toBe(200);
    expect(running.headers['content-security-policy']).toMatch(/^default-src 'self';/);
    expect(running.body).toContain('RUNNING');
    expect(running.body).toContain('Signed when the run finishes.');
    expect(running.body).toContain('PDV &lt;script&gt;');
    const audit = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/audit?action=homologation.start',
      headers: adminHeaders,
    });
    expect(JSON.stringify(audit.json())).toContain(keyId);

    // A short run of the other key, to see a finished report.
    const r = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${m.merchantId}/integrationKeys/${m.keyId}/homologations`,
      headers: adminHeaders,
      payload: { timings: { durationMs: 800, waitForPosMs: 1, scenarioSpacingMs: 20 } },
    });
    expect(r.statusCode).toBe(201);
    const id = r.json().id as string;
    await expect
      .poll(
        async () =>
          (await t.app.inject({ method: 'GET', url: `/admin/v1/homologations/${id}`, headers: adminHeaders })).json()
            .status,
        { timeout: 15_000 },
      )
      .toBe('FAILED');
    const report = await s.get(`/console/homologations/${id}`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('FAILED');
    expect(report.body).toContain('Token reused until near expiry, renewed once on a 401');
    expect(report.body).toContain('not observed');
    expect(report.body).toMatch(/Ed25519 over the canonical JSON/);
    const listed = await s.get(`/console/merchants/${m.merchantId}`);
    expect(listed.body).toContain(`/console/homologations/${id}`);
    expect(listed.body).toContain(runUrl);

    // Every run of every key has a page of its own in the navigation, newest first, each named by
    // its key and start time (not a truncated id), filterable by merchant and status.
    const all = await s.get('/console/homologations');
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain('<a href="/console/homologations" aria-current="page">Homologation</a>');
    expect(all.body.indexOf(`href="/console/homologations/${id}"`)).toBeLessThan(all.body.indexOf(`href="${runUrl}"`));
    expect(all.body).toContain('PDV &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(all.body).toContain('Açougue &lt;b&gt;Console&lt;/b&gt;');
    expect(all.body).toMatch(/<a href="\/console\/homologations\/[0-9a-f-]{36}">Started <time/);
    expect(all.body).not.toMatch(/<code title="[0-9a-f-]{36}">[0-9a-f]{8}<\/code>/);
    const failedOnly = await s.get(`/console/homologations?merchantId=${m.merchantId}&status=FAILED`);
    expect(failedOnly.body).toContain(`href="/console/homologations/${id}"`);
    expect(failedOnly.body).not.toContain(`href="${runUrl}"`);
    expect(report.body).toContain('<h1>Homologation of key ');

    const missing = await s.get('/console/homologations/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
  });
});
