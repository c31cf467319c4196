// The homologation routes around a run (operator-api.md#homologation): what a start refuses,
// the audit entry of an operator's start, a RUNNING run's pending criteria, the finished run's
// status, and 404 on every route in production (D25).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReport } from '../../src/modules/homologation/index.js';
import { createProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

let t: TestApp;
let merchant: MerchantCredentials;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_WRITE: '10000', CLEAVER_RATE_LIMIT_READ: '10000' } });
  merchant = await createMerchant(t.app, 'Açougue Rotas');
  await createProduct(t.app, merchant.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  await createProduct(t.app, merchant.merchantId, { name: 'Hambúrguer', price: 9.5, unit: 'UN' });
});
afterAll(async () => {
  await t?.close();
});

const startUrl = (m: MerchantCredentials, keyId = m.keyId) =>
  `/admin/v1/merchants/${m.merchantId}/integrationKeys/${keyId}/homologations`;

describe('starting a run', () => {
  it('refuses timings it cannot honour, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ timings: { durationMs: 600_001 } }, 'timings.durationMs'],
      [{ timings: { pollBurstMax: 0 } }, 'timings.pollBurstMax'],
      [{ timings: { pollMinIntervalMs: 5_000, pollMaxIntervalMs: 1_000 } }, 'pollMinIntervalMs'],
    ];
    for (const [payload, field] of cases) {
      const r = await t.app.inject({ method: 'POST', url: startUrl(merchant), headers: adminHeaders, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().status).toBe(400);
      expect(r.json().title).toContain(field);
    }
  });

  it('answers 404 for a key of another merchant and for an unknown run', async () => {
    const other = await createMerchant(t.app, 'Açougue Vizinho');
    const r = await t.app.inject({
      method: 'POST',
      url: startUrl(merchant, other.keyId),
      headers: adminHeaders,
      payload: {},
    });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ status: 404, title: 'Integration key not found' });
    const list = await t.app.inject({ method: 'GET', url: startUrl(merchant, other.keyId), headers: adminHeaders });
    expect(list.statusCode).toBe(404);
    expect(list.json()).toEqual({ status: 404, title: 'Integration key not found' });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/homologations/00000000-0000-4000-8000-000000000000',
      headers: adminHeaders,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 404, title: 'Homologation run not found' });
  });

  it('an operator start is audited; a RUNNING run shows pending criteria, then a signed FAILED report (no POS answered)', {
    timeout: 30_000,
  }, async () => {
    const m = await createMerchant(t.app, 'Açougue Silencioso');
    await createProduct(t.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const r = await t.app.inject({
      method: 'POST',
      url: startUrl(m),
      headers: adminHeaders,
      payload: { timings: { durationMs: 1_500, waitForPosMs: 1, scenarioSpacingMs: 50, confirmDeadlineMs: 100 } },
    });
    expect(r.statusCode).toBe(201);
    const run = r.json();
    expect(run).toMatchObject({ keyId: m.keyId, merchantId: m.merchantId, status: 'RUNNING' });
    expect(run.timings).toMatchObject({ durationMs: 1_500, scenarioSpacingMs: 50, cancellationDeadlineMs: 60_000 });
    expect(run.criteria.length).toBe(15);
    expect(new Set(run.criteria.map((c: { result: string }) => c.result))).toEqual(new Set(['pending']));
    expect(run.signature).toBeUndefined();

    const audit = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/audit?action=homologation.start',
      headers: adminHeaders,
    });
    expect(audit.statusCode).toBe(200);
    expect(audit.json().some((e: { target: unknown }) => JSON.stringify(e.target).includes(m.keyId))).toBe(true);

    let report = run;
    while (report.status === 'RUNNING') {
      await new Promise((res) => setTimeout(res, 100));
      report = (
        await t.app.inject({ method: 'GET', url: `/admin/v1/homologations/${run.id}`, headers: adminHeaders })
      ).json();
    }
    // Nobody polled or answered: required criteria are not observed or failed, so FAILED.
    expect(report.status).toBe('FAILED');
    const byId = Object.fromEntries(report.criteria.map((c: { id: string; result: string }) => [c.id, c.result]));
    expect(byId['token-reuse']).toBe('not_observed');
    expect(byId['all-acknowledged']).toBe('fail');
    const key = (
      await t.app.inject({ method: 'GET', url: '/v1/homologations/signingKey', headers: bearer(m.token) })
    ).json();
    expect(verifyReport(report, key.publicKey)).toBe(true);
    expect(verifyReport({ ...report, criteria: report.criteria.slice(1) }, key.publicKey)).toBe(false);
  });
});

describe('production (D25)', () => {
  it('answers 404 on every homologation route', async () => {
    const prod = await createTestApp({
      env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b' },
    });
    try {
      const m = await createMerchant(prod.app, 'Açougue Produção');
      const id = '00000000-0000-4000-8000-000000000000';
      const calls = [
        { method: 'POST' as const, url: '/v1/homologations', headers: bearer(m.token), payload: {} },
        { method: 'GET' as const, url: `/v1/homologations/${id}`, headers: bearer(m.token) },
        { method: 'GET' as const, url: '/v1/homologations/signingKey', headers: bearer(m.token) },
        { method: 'POST' as const, url: startUrl(m), headers: adminHeaders, payload: {} },
        { method: 'GET' as const, url: startUrl(m), headers: adminHeaders },
        { method: 'GET' as const, url: `/admin/v1/homologations/${id}`, headers: adminHeaders },
      ];
      for (const call of calls) {
        const res = await prod.app.inject(call);
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
        expect(res.json()).toEqual({ title: 'Route not found', status: 404 });
      }
    } finally {
      await prod.close();
    }
  });
});
