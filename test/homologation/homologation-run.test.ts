// Homologation runs (operator-api.md#homologation) against a real server on 127.0.0.1, with
// short timings: the reference POS of examples/pos-integration passes every criterion, and a
// deliberately sloppy POS, homologated at the same time on another merchant, fails exactly the
// criteria it breaks, each with evidence. The report is signed: it verifies, a tampered copy
// does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPosClient } from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { verifyReport } from '../../src/modules/homologation/index.js';
import { ADMIN_TOKEN, createMerchant } from '../support/test-app.js';
import { REFERENCE_CATALOG as CATALOG, startReferencePos, TEST_TIMINGS } from './reference-pos.js';
import { startSloppyPos } from './sloppy-pos.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
// The deadlines are generous (the machine may be loaded); the sloppy POS breaks none of them.
const TIMINGS = { durationMs: 24_000, ...TEST_TIMINGS };

interface Report {
  id: string;
  keyId: string;
  status: string;
  signature?: string;
  orders: Array<{ orderId: string; deliveryCode: string }>;
  criteria: Array<{ id: string; required: boolean; result: string; evidence: string[] }>;
}

describe('homologation run', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };

  beforeAll(async () => {
    server = await startApp({
      env: { CLEAVER_RATE_LIMIT_AUTH: '100000', CLEAVER_RATE_LIMIT_READ: '100000', CLEAVER_RATE_LIMIT_WRITE: '100000' },
    });
    workers = await startAppWorkers(server);
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  const getRun = async (id: string) => {
    const r = await server.app.inject({ method: 'GET', url: `/admin/v1/homologations/${id}`, headers: admin });
    expect(r.statusCode).toBe(200);
    return r.json() as Report;
  };
  const codeOf = (runId: () => string) => async (orderId: string) =>
    (await getRun(runId())).orders.find((o) => o.orderId === orderId.toLowerCase())?.deliveryCode;
  async function waitFinished(id: string): Promise<Report> {
    for (;;) {
      const run = await getRun(id);
      if (run.status !== 'RUNNING') return run;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const results = (run: Report) => Object.fromEntries(run.criteria.map((c) => [c.id, c.result]));

  it('the reference POS passes every criterion while a sloppy POS fails exactly what it breaks, at the same time', {
    timeout: 90_000,
  }, async () => {
    // The reference POS's merchant has a catalog (its KG products feed the kg-items scenario).
    const good = await createMerchant(server.app, 'Açougue Homologado');
    const goodClient = createPosClient({
      baseUrl: server.url,
      clientId: good.merchantId,
      clientSecret: good.clientSecret,
    });
    await goodClient.uploadCatalog(CATALOG, { wait: true, intervalMs: 100 });
    const sloppy = await createMerchant(server.app, 'Açougue Desleixado');
    const sloppyClient = createPosClient({
      baseUrl: server.url,
      clientId: sloppy.merchantId,
      clientSecret: sloppy.clientSecret,
    });
    await sloppyClient.uploadCatalog(CATALOG, { wait: true, intervalMs: 100 });

    // The operator starts the reference POS's run; the sloppy POS starts its own with its token.
    const started = await server.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${good.merchantId}/integrationKeys/${good.keyId}/homologations`,
      headers: admin,
      payload: { timings: TIMINGS },
    });
    expect(started.statusCode).toBe(201);
    const goodRun = started.json() as Report;
    expect(goodRun).toMatchObject({ keyId: good.keyId, status: 'RUNNING' });
    const sloppyStart = await fetch(`${server.url}/v1/homologations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sloppy.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ timings: TIMINGS }),
    });
    expect(sloppyStart.status).toBe(201);
    const sloppyRun = (await sloppyStart.json()) as Report;

    // One RUNNING run per key.
    const again = await server.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${good.merchantId}/integrationKeys/${good.keyId}/homologations`,
      headers: admin,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: 409, title: 'This integration key already has a RUNNING homologation run' });
    // A POS cannot read another key's run.
    const foreign = await fetch(`${server.url}/v1/homologations/${goodRun.id}`, {
      headers: { authorization: `Bearer ${sloppy.token}` },
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ status: 404, title: 'Homologation run not found' });

    const reference = startReferencePos({
      baseUrl: server.url,
      clientId: good.merchantId,
      clientSecret: good.clientSecret,
      deliveryCodeOf: codeOf(() => goodRun.id),
    });
    const sloppyPos = await startSloppyPos({
      baseUrl: server.url,
      clientId: sloppy.merchantId,
      clientSecret: sloppy.clientSecret,
      deliveryCodeOf: codeOf(() => sloppyRun.id),
    });
    let goodReport: Report;
    let sloppyReport: Report;
    try {
      [goodReport, sloppyReport] = await Promise.all([waitFinished(goodRun.id), waitFinished(sloppyRun.id)]);
    } finally {
      await reference.stop();
      await sloppyPos.stop();
    }

    const evidenceOf = (run: Report) => Object.fromEntries(run.criteria.map((c) => [c.id, c.evidence]));
    expect(results(goodReport), JSON.stringify(evidenceOf(goodReport), null, 1)).toEqual({
      'token-reuse': 'pass',
      'polling-cadence': 'pass',
      'ack-after-action': 'pass',
      'all-acknowledged': 'pass',
      'no-duplicate-action': 'pass',
      'confirm-deadline': 'pass',
      'cancellation-deadline': 'pass',
      'lifecycle-after-denial': 'pass',
      'tracking-after-dispatch': 'pass',
      'code-before-delivered': 'pass',
      // Polling only: the reference POS takes no webhook, so the probe finds nobody to answer.
      'signatures-checked': 'not_observed',
      'retry-backoff': 'pass',
      'catalog-no-resend-loop': 'pass',
      // D38: the reference POS puts KG lines on the scale before an order leaves the kitchen.
      'kg-weighed': 'pass',
      // D41 (optional): the reference POS types the kilograms; it has no label to scan.
      'label-weighing': 'not_observed',
    });
    expect(goodReport.criteria.find((c) => c.id === 'kg-weighed')?.required).toBe(false);
    expect(goodReport.criteria.find((c) => c.id === 'signatures-checked')?.required).toBe(false);
    expect(goodReport.status).toBe('PASSED');

    expect(results(sloppyReport), JSON.stringify(evidenceOf(sloppyReport), null, 1)).toEqual({
      'token-reuse': 'fail',
      'polling-cadence': 'fail',
      'ack-after-action': 'fail',
      'all-acknowledged': 'pass',
      'no-duplicate-action': 'fail',
      'confirm-deadline': 'pass',
      'cancellation-deadline': 'pass',
      'lifecycle-after-denial': 'pass',
      'tracking-after-dispatch': 'pass',
      'code-before-delivered': 'pass',
      'signatures-checked': 'fail',
      // Hammering: the request the sandbox answered 429/503 came back at once.
      'retry-backoff': 'fail',
      // It uploads no catalog during the run.
      'catalog-no-resend-loop': 'not_observed',
      // It dispatches orders of KG lines without weighing them (optional: the run still grades it).
      'kg-weighed': 'fail',
      'label-weighing': 'not_observed',
    });
    expect(sloppyReport.status).toBe('FAILED');
    const sloppyEvidence = evidenceOf(sloppyReport);
    expect(sloppyEvidence['token-reuse'].join('\n')).toMatch(/distinct token\(s\)/);
    expect(sloppyEvidence['ack-after-action'].join('\n')).toMatch(/acknowledged at \+[\d.]+s before any answer/);
    expect(sloppyEvidence['no-duplicate-action'].join('\n')).toMatch(/confirm sent \d+ times/);
    expect(sloppyEvidence['signatures-checked'].join('\n')).toMatch(/wrong signature → 200/);
    expect(sloppyEvidence['polling-cadence'].join('\n')).toMatch(/burst/);

    // Signed: the public key verifies the report; any change breaks it.
    const key = (await (
      await fetch(`${server.url}/v1/homologations/signingKey`, { headers: { authorization: `Bearer ${good.token}` } })
    ).json()) as { algorithm: string; publicKey: string };
    expect(key.algorithm).toBe('Ed25519');
    expect(verifyReport(goodReport as unknown as Record<string, unknown>, key.publicKey)).toBe(true);
    expect(verifyReport(sloppyReport as unknown as Record<string, unknown>, key.publicKey)).toBe(true);
    const tampered = { ...sloppyReport, status: 'PASSED' };
    expect(verifyReport(tampered as unknown as Record<string, unknown>, key.publicKey)).toBe(false);

    // Kept with the key, newest first, readable by the POS itself.
    const list = await server.app.inject({
      method: 'GET',
      url: `/admin/v1/merchants/${good.merchantId}/integrationKeys/${good.keyId}/homologations`,
      headers: admin,
    });
    expect(list.statusCode).toBe(200);
    expect((list.json() as Report[]).map((r) => r.id)).toEqual([goodRun.id]);
    const own = await fetch(`${server.url}/v1/homologations/${sloppyRun.id}`, {
      headers: { authorization: `Bearer ${sloppy.token}` },
    });
    expect(own.status).toBe(200);
    expect(((await own.json()) as Report).signature).toBe(sloppyReport.signature);
  });
});
