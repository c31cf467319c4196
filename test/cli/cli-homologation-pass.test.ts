// `cleaver pos homologation run` when the integration is right, done the way
// examples/pos-integration/README.md says: the reference POS runs as its own process
// (`node --import tsx examples/pos-integration/src/main.ts`, short kitchen and courier steps from
// its environment) and publishes its catalog; then the POS developer's command starts the run,
// follows it and prints the report. The POS learns each delivery code from the sandbox's customer
// (GET /v1/sandbox/orders/{id}/customerDeliveryCode), as it would from the person at the door.
// Every required criterion passes, the report says PASSED, and the command exits 0, which is what
// a CI job of a POS vendor checks.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { TEST_TIMINGS } from '../homologation/reference-pos.js';
import { createMerchant } from '../support/test-app.js';
import { ROOT, runCli } from './run-cli.js';

async function waitFor(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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

  it('the example POS, started as its README says, passes: PASSED with every required criterion, exit 0', {
    timeout: 120_000,
  }, async () => {
    const m = await createMerchant(server.app, 'Açougue Certificado CLI');
    const posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
    const statePath = join(mkdtempSync(join(tmpdir(), 'cleaver-homolog-')), 'pos-state.json');
    const output: string[] = [];
    const pos: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'examples/pos-integration/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...posEnv,
        POS_STATE_FILE: statePath,
        POS_WEBHOOK_URL: 'http://127.0.0.1:1',
        POS_POLL_INTERVAL_MS: '250',
        POS_PREPARATION_MS: '500',
        POS_DELIVERY_MS: '1500',
        POS_KITCHEN_TICK_MS: '100',
        POS_CATALOG_POLL_MS: '100',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pos.stdout?.on('data', (d) => output.push(String(d)));
    pos.stderr?.on('data', (d) => output.push(String(d)));
    const stopped = new Promise<void>((resolve) => pos.once('exit', () => resolve()));
    try {
      const state = () => (existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : undefined);
      await waitFor('the catalog sync', () => state()?.catalog?.status === 'SUCCESS');

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
        posEnv,
      );
      expect(r.stdout, r.stderr + output.join('')).toMatch(/homologation [0-9a-f-]{36}: PASSED/);
      // Long enough for the run's steps: no warning about the duration.
      expect(r.stderr).not.toContain('warning:');
      // Every required criterion passed; the optional ones this POS does not exercise (it has no
      // webhook receiver) are NOT OBSERVED, which does not fail a run.
      expect(r.stdout).not.toMatch(/(FAILED|NOT OBSERVED)\s+yes/);
      expect(r.stdout).toMatch(/PASS\s+yes\s+Delivery code validated before delivered\s+spec 4\.11/);
      expect(r.stdout).toMatch(/signed \(Ed25519\): \S+/);
      expect(r.code, r.stdout + r.stderr).toBe(0);

      const id = /homologation ([0-9a-f-]{36}): PASSED/.exec(r.stdout)?.[1] as string;
      const shown = await runCli(['pos', 'homologation', 'show', id, '--json'], posEnv);
      expect(shown.code).toBe(0);
      const report = JSON.parse(shown.stdout) as {
        status: string;
        warnings?: string[];
        criteria: Array<{ id: string; required: boolean; result: string }>;
      };
      expect(report.status).toBe('PASSED');
      expect(report.warnings).toBeUndefined();
      expect(report.criteria).toHaveLength(15);
      expect(report.criteria.filter((c) => c.required && c.result !== 'pass')).toEqual([]);
      expect(report.criteria.filter((c) => c.result === 'fail')).toEqual([]);
    } finally {
      pos.kill('SIGTERM');
      await stopped;
    }
  });
});
