// `cleaver pos catalog …` as a user runs it, against a server with its workers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver pos catalog … against a running server', { timeout: 90_000 }, () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let posEnv: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'cleaver-cli-pos-'));

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    const m = await createMerchant(server.app);
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it('catalog push --wait: progress, then SUCCESS with moreInfo (exit 0); a broken catalog ends FAIL (exit 4)', async () => {
    const sample = await runCli(['sandbox', 'sample-catalog']);
    expect(sample.code).toBe(0);
    const file = join(dir, 'catalog.json');
    writeFileSync(file, sample.stdout);
    const pushed = await runCli(['pos', 'catalog', 'push', file, '--wait', '--interval', '0.1'], posEnv);
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toMatch(/catalog sync (PROCESSING|SUCCESS) \(\d+\.\d s\)/);
    expect(pushed.stdout).toMatch(/status:\s+SUCCESS/);
    expect(pushed.stdout).toContain('moreInfo:');
    expect(pushed.stdout).toMatch(/Categories: [1-9]\d* created, 0 updated, 0 unchanged, 0 removed\./);

    // The same file again: nothing to change, and the counts say so.
    const repushed = await runCli(['pos', 'catalog', 'push', file, '--wait', '--interval', '0.1'], posEnv);
    expect(repushed.code).toBe(0);
    expect(repushed.stdout).toMatch(
      /Categories: 0 created, 0 updated, [1-9]\d* unchanged, 0 removed\. Products: 0 created, 0 updated, [1-9]\d* unchanged, 0 removed\./,
    );

    const status = await runCli(['pos', 'catalog', 'status', '--json'], posEnv);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'SUCCESS' });

    const merchant = await runCli(['pos', 'merchant'], posEnv);
    expect(merchant.code).toBe(0);
    expect(merchant.stdout).toMatch(/picanha\s+Picanha\s+89\.9\s+KG\s+AVAILABLE/);

    const broken = JSON.parse(sample.stdout);
    broken.updatedObjects[0].itemOffers.push({ id: 'oferta-fantasma', itemId: 'fantasma', price: { value: 1 } });
    broken.updatedObjects[0].categories[0].itemOfferId.push('oferta-fantasma');
    writeFileSync(file, JSON.stringify(broken));
    const failed = await runCli(['pos', 'catalog', 'push', file, '--wait', '--interval', '0.1', '--json'], posEnv);
    expect(failed.code).toBe(4);
    const result = JSON.parse(failed.stdout);
    expect(result.status).toBe('FAIL');
    expect(result.moreInfo).toContain('fantasma');

    const invalid = await runCli(['pos', 'catalog', 'push', join(dir, 'missing.json')], posEnv);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('cannot read');
  });
});
