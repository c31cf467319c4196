// `cleaver pos homologation run` as a POS developer runs it, against a real server in the
// sandbox: it starts a run of the key, shows progress, prints the graded report and exits 7
// unless every required criterion passed (here no POS answers, so it cannot pass).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { createProduct } from '../support/orders.js';
import { createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver pos homologation', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let posEnv: Record<string, string>;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    const m = await createMerchant(server.app, 'Açougue Homologação CLI');
    await createProduct(server.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('run: progress, then the report; exit 7 when a required criterion did not pass; show reads it again', async () => {
    const r = await runCli(
      [
        'pos',
        'homologation',
        'run',
        '--duration',
        '2',
        '--interval',
        '0.3',
        '--timings',
        '{"scenarioSpacingMs":50,"waitForPosMs":1}',
      ],
      posEnv,
    );
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/^homologation [0-9a-f-]{36} started; keep your POS running/);
    expect(r.stdout).toMatch(/running: \d+ s of 2 s, \d scenario order\(s\) placed/);
    expect(r.stdout).toMatch(/homologation [0-9a-f-]{36}: FAILED/);
    expect(r.stdout).toMatch(/NOT OBSERVED\s+yes\s+Token reused until near expiry/);
    expect(r.stdout).toMatch(/signed \(Ed25519\): \S+/);
    // 2 s is far below what the run's own steps need with these timings (8 × 50 ms between
    // scenarios, 3 × 10 s between injected answers, 60 s to answer): said at the start and again
    // under the failed report, so the failure is not read as the POS's alone.
    const warning =
      "warning: durationMs 2000 is shorter than the 90400 ms this run's steps need (9 scenarios 50 ms apart, " +
      '3 injected answers 10000 ms apart, then 60000 ms to answer): a failure or NOT OBSERVED may only reflect the ' +
      'duration; run again with a longer one\n';
    expect(r.stderr.split(warning)).toHaveLength(3);
    const id = /homologation ([0-9a-f-]{36}): FAILED/.exec(r.stdout)?.[1] as string;

    const shown = await runCli(['pos', 'homologation', 'show', id, '--json'], posEnv);
    expect(shown.code).toBe(7);
    const report = JSON.parse(shown.stdout);
    expect(report).toMatchObject({ id, status: 'FAILED', warnings: [warning.slice('warning: '.length, -1)] });
    expect(report.criteria).toHaveLength(15);
  });

  it('usage errors name the problem (exit 2)', async () => {
    const bad = await runCli(['pos', 'homologation', 'run', '--timings', '{nope'], posEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^cleaver: --timings is not valid JSON/);
    const unknown = await runCli(['pos', 'homologation', 'start'], posEnv);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown subcommand "pos homologation start"');
  });
});
