import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { ADMIN_TOKEN } from '../support/test-app.js';
import { closedPort, runCli } from './run-cli.js';

describe('cleaver CLI: operator and POS commands against a running server', { timeout: 90_000 }, () => {
  let server: RunningApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startApp();
    env = { CLEAVER_URL: server.url, CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN };
  });
  afterAll(async () => {
    await server.close();
  });

  it('--help everywhere, exit codes documented', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Exit codes:');
    expect(top.stdout).toContain('4   catalog sync finished with FAIL');
    for (const command of ['merchants', 'keys', 'logistics', 'orders', 'pos', 'sandbox', 'serve']) {
      const r = await runCli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toContain('Usage');
    }
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
  });

  it('merchants create --with-key, list as a table and as JSON; the key works for pos token', async () => {
    const created = await runCli(['merchants', 'create', '--name', 'Açougue do Zé', '--with-key', '--json'], env);
    expect(created.code).toBe(0);
    const merchant = JSON.parse(created.stdout) as {
      id: string;
      integrationKey: { clientId: string; clientSecret: string; keyId: string };
    };
    expect(merchant.integrationKey.clientId).toBe(merchant.id);
    // Without --json: the fields, then lines to paste into a shell.
    const shown = await runCli(['merchants', 'create', '--name', 'Açougue Export', '--with-key'], env);
    expect(shown.code).toBe(0);
    const exports = shown.stdout.split('\n').filter((l) => l.startsWith('  export '));
    expect(exports.map((l) => l.replace(/=.*/, ''))).toEqual([
      '  export CLEAVER_URL',
      '  export CLEAVER_CLIENT_ID',
      '  export CLEAVER_CLIENT_SECRET',
    ]);
    expect(exports[0]).toBe(`  export CLEAVER_URL=${server.url}`);
    expect(exports[2]).toMatch(/^ {2}export CLEAVER_CLIENT_SECRET=cs_\S+$/);

    const table = await runCli(['merchants', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+STATUS\s+CREATED$/);
    expect(table.stdout).toContain('Açougue do Zé');
    const list = JSON.parse((await runCli(['merchants', 'list', '--json'], env)).stdout) as Array<{ id: string }>;
    expect(list.map((m) => m.id)).toContain(merchant.id);

    const posEnv = {
      CLEAVER_URL: server.url,
      CLEAVER_CLIENT_ID: merchant.id,
      CLEAVER_CLIENT_SECRET: merchant.integrationKey.clientSecret,
    };
    const token = await runCli(['pos', 'token', '--json'], posEnv);
    expect(token.code).toBe(0);
    const { access_token } = JSON.parse(token.stdout) as { access_token: string };
    const me = await server.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: { authorization: `Bearer ${access_token}` },
      payload: { ordersWebhookURL: 'http://127.0.0.1:9' },
    });
    expect(me.statusCode).toBe(200);

    const onboard = await runCli(['pos', 'onboard', '--webhook-url', 'http://127.0.0.1:7001'], posEnv);
    expect(onboard.code).toBe(0);
    expect(onboard.stdout).toMatch(/ordersWebhookURL:\s+http:\/\/127\.0\.0\.1:7001/);

    // keys revoke: the credentials stop working; pos token now exits 3 with the spec's title.
    const revoked = await runCli(['keys', 'revoke', merchant.id, merchant.integrationKey.keyId], env);
    expect(revoked.code).toBe(0);
    const refused = await runCli(['pos', 'token'], posEnv);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('401 The client credentials were incorrect.');
  });

  it('keys create prints a new secret once; logistics create registers a partner', async () => {
    const merchant = JSON.parse(
      (await runCli(['merchants', 'create', '--name', 'Casa de Carnes', '--json'], env)).stdout,
    );
    const key = await runCli(['keys', 'create', merchant.id, '--name', 'caixa 2'], env);
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/client secret:\s+cs_\S+\s+\(shown only now\)/);

    const app = await runCli(
      ['logistics', 'create', '--name', 'Motoboys SA', '--merchant', merchant.id, '--json'],
      env,
    );
    expect(app.code).toBe(0);
    expect(JSON.parse(app.stdout)).toMatchObject({ name: 'Motoboys SA', merchantIds: [merchant.id] });
  });

  it('the admin token is read from the data dir when not given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-cli-'));
    writeFileSync(join(dataDir, 'admin-token'), `${ADMIN_TOKEN}\n`);
    const r = await runCli(['merchants', 'list', '--json', '--data-dir', dataDir], { CLEAVER_URL: server.url });
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  it('exit codes: 2 usage, 3 auth, 1 API error, 6 unreachable; errors as JSON with --json', async () => {
    const usage = await runCli(['merchants', 'create'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('merchants create needs --name');
    const unknownOption = await runCli(['merchants', 'list', '--bogus'], env);
    expect(unknownOption.code).toBe(2);

    const badToken = await runCli(['merchants', 'list', '--admin-token', 'wrong-token'], { CLEAVER_URL: server.url });
    expect(badToken.code).toBe(3);
    expect(badToken.stderr).toContain('401 Invalid operator token');

    const noCredentials = await runCli(['pos', 'token'], { CLEAVER_URL: server.url });
    expect(noCredentials.code).toBe(3);
    expect(noCredentials.stderr).toContain('No POS credentials');

    const notFound = await runCli(['keys', 'create', '00000000-0000-4000-8000-000000000000', '--json'], env);
    expect(notFound.code).toBe(1);
    expect(JSON.parse(notFound.stdout)).toEqual({
      error: 'api',
      status: 404,
      title: 'Merchant not found',
      request: 'POST /admin/v1/merchants/00000000-0000-4000-8000-000000000000/integrationKeys',
    });

    const port = await closedPort();
    const unreachable = await runCli(['merchants', 'list', '--url', `http://127.0.0.1:${port}`], env);
    expect(unreachable.code).toBe(6);
    expect(unreachable.stderr).toContain('ECONNREFUSED');
    // Said plainly, on one line: where it looked and how to point it elsewhere.
    expect(unreachable.stderr).toContain(
      `: no Cleaver service answers at http://127.0.0.1:${port}: start one (npm start, cleaver sandbox demo) or set CLEAVER_URL (or --url) to where it runs\n`,
    );
    expect(unreachable.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
