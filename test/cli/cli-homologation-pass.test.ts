// `cleaver pos homologation run` when the integration is right: the reference POS of
// examples/pos-integration runs against a real server (with its workers) while the POS developer's
// command starts the run, follows it and prints the report; every required criterion passes, the report
// says PASSED, and the command exits 0, which is what a CI job of a POS vendor checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPosClient } from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { REFERENCE_CATALOG, startReferencePos, TEST_TIMINGS } from '../homologation/reference-pos.js';
import { ADMIN_TOKEN, createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver pos homologation run, passing', () => {
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

  it('prints PASSED with every required criterion passed and exits 0 while the reference POS runs', {
    timeout: 120_000,
  }, async () => {
    const m = await createMerchant(server.app, 'Açougue Certificado CLI');
    const client = createPosClient({ baseUrl: server.url, clientId: m.merchantId, clientSecret: m.clientSecret });
    await client.uploadCatalog(REFERENCE_CATALOG, { wait: true, intervalMs: 100 });

    // The courier's delivery code, which in real life the customer gives: read from the newest run
    // of the key (the command starts it; the operator API lists a key's runs newest first).
    const deliveryCodeOf = async (orderId: string) => {
      const r = await server.app.inject({
        method: 'GET',
        url: `/admin/v1/merchants/${m.merchantId}/integrationKeys/${m.keyId}/homologations`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const [run] = r.json() as Array<{ orders: Array<{ orderId: string; deliveryCode: string }> }>;
      return run?.orders.find((o) => o.orderId === orderId.toLowerCase())?.deliveryCode;
    };
    const reference = startReferencePos({
      baseUrl: server.url,
      clientId: m.merchantId,
      clientSecret: m.clientSecret,
      deliveryCodeOf,
    });
    try {
      const r = await runCli(
        [
          'pos',
          'homologation',
          'run',
          '--duration',
          '24',
          '--interval',
          '2',
          '--timings',
          JSON.stringify(TEST_TIMINGS),
        ],
        { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret },
      );
      expect(r.stdout, r.stderr).toMatch(/homologation [0-9a-f-]{36}: PASSED/);
      // Every required criterion passed; the optional ones this POS does not exercise (it has no
      // webhook receiver, its catalog never fails) are NOT OBSERVED, which does not fail a run.
      expect(r.stdout).not.toMatch(/(FAILED|NOT OBSERVED)\s+yes/);
      expect(r.stdout).toMatch(/signed \(Ed25519\): \S+/);
      expect(r.code, r.stdout + r.stderr).toBe(0);

      const id = /homologation ([0-9a-f-]{36}): PASSED/.exec(r.stdout)?.[1] as string;
      const shown = await runCli(['pos', 'homologation', 'show', id, '--json'], {
        CLEAVER_URL: server.url,
        CLEAVER_CLIENT_ID: m.merchantId,
        CLEAVER_CLIENT_SECRET: m.clientSecret,
      });
      expect(shown.code).toBe(0);
      const report = JSON.parse(shown.stdout) as {
        status: string;
        criteria: Array<{ id: string; required: boolean; result: string }>;
      };
      expect(report.status).toBe('PASSED');
      expect(report.criteria).toHaveLength(14);
      expect(report.criteria.filter((c) => c.required && c.result !== 'pass')).toEqual([]);
      expect(report.criteria.filter((c) => c.result === 'fail')).toEqual([]);
    } finally {
      await reference.stop();
    }
  });
});
