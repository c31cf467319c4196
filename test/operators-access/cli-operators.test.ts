// `cleaver operators …` and `cleaver audit …` against a running server: bootstrap the first
// admin with the bootstrap token (password on stdin), give it a token, act with that token, read
// and export the audit log. The CLI goes through the API, so its actions are audited with its
// user agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { type CliResult, runCli } from '../cli/run-cli.js';
import { ADMIN_TOKEN } from '../support/test-app.js';

/** runCli with standard input (for --password-stdin). */
const runWithInput = (args: string[], env: Record<string, string>, input: string): Promise<CliResult> =>
  runCli(args, env, { stdin: input });

describe('cleaver operators and audit', { timeout: 90_000 }, () => {
  let server: RunningApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startApp();
    env = { CLEAVER_URL: server.url, CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN };
  });
  afterAll(() => server.close());

  it('has help', async () => {
    for (const command of ['operators', 'audit']) {
      const r = await runCli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout).toContain('Usage');
    }
    expect((await runCli(['--help'])).stdout).toContain('operators create|list|update');
  });

  it('bootstraps the first admin, gives it a token, and acts with that token', async () => {
    const created = await runWithInput(
      [
        'operators',
        'create',
        '--email',
        'ana@cleaver.test',
        '--name',
        'Ana Lima',
        '--role',
        'admin',
        '--password-stdin',
        '--json',
      ],
      env,
      'a long passphrase of ana\n',
    );
    expect(created.code, created.stderr).toBe(0);
    const ana = JSON.parse(created.stdout) as { id: string; passwordSet: boolean; role: string };
    expect(ana).toMatchObject({ role: 'admin', passwordSet: true });

    const token = await runCli(['operators', 'token', 'create', ana.id, '--name', 'laptop', '--json'], env);
    expect(token.code, token.stderr).toBe(0);
    const { token: secret, id: tokenId } = JSON.parse(token.stdout) as { token: string; id: string };
    expect(secret).toMatch(/^cop_/);

    const asAna = { CLEAVER_URL: server.url, CLEAVER_ADMIN_TOKEN: secret };
    const viewer = await runCli(
      ['operators', 'create', '--email', 'vera@cleaver.test', '--name', 'Vera', '--role', 'viewer'],
      asAna,
    );
    expect(viewer.code, viewer.stderr).toBe(0);
    expect(viewer.stdout).toMatch(/role:\s+viewer/);
    const list = await runCli(['operators', 'list'], asAna);
    expect(list.stdout).toMatch(/ana@cleaver\.test\s+Ana Lima\s+admin\s+active/);
    const veraId = /operator id:\s+(\S+)/.exec(viewer.stdout)?.[1] as string;
    const disabled = await runCli(['operators', 'update', veraId, '--disable', '--json'], asAna);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ disabled: true });

    // The audit log names Ana, her token and the CLI.
    const audit = await runCli(['audit', 'list', '--actor', 'ana@cleaver.test', '--json'], env);
    expect(audit.code, audit.stderr).toBe(0);
    const { entries } = JSON.parse(audit.stdout) as {
      entries: Array<{ action: string; tokenId: string; userAgent: string; channel: string }>;
    };
    expect(entries.map((e) => e.action)).toEqual(['operator.update', 'operator.create']);
    expect(entries.every((e) => e.tokenId === tokenId && e.userAgent === 'cleaver-cli' && e.channel === 'api')).toBe(
      true,
    );

    const revoked = await runCli(['operators', 'token', 'revoke', ana.id, tokenId], env);
    expect(revoked.code).toBe(0);
    const refused = await runCli(['operators', 'list'], asAna);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('401 Invalid operator token');
  });

  it('exports the audit log as JSON lines on stdout, with filters', async () => {
    const r = await runCli(['audit', 'export', '--action', 'operator'], env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string });
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.every((e) => e.action.startsWith('operator.'))).toBe(true);
    const bad = await runCli(['audit', 'export', '--since', 'yesterday'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('400');
  });

  it('refuses usage errors with exit 2', async () => {
    expect((await runCli(['operators', 'create', '--email', 'x@y.z'], env)).code).toBe(2);
    expect((await runCli(['operators', 'create', '--email', 'x@y.z', '--name', 'X', '--role', 'root'], env)).code).toBe(
      2,
    );
    expect((await runCli(['operators', 'update', 'some-id'], env)).code).toBe(2);
    expect((await runCli(['audit', 'nothing'], env)).code).toBe(2);
  });
});
