// D27: the profile is settable from the CLI (`cleaver keys create --profile`, `cleaver keys
// set-profile`) and from the console's key table, with the same checks as the operator API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { runCli } from '../cli/run-cli.js';
import { login } from '../console/console-session.js';
import { ADMIN_TOKEN, adminHeaders } from '../support/test-app.js';
import { createMerchantOnly } from './od-support.js';

let server: RunningApp;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startApp();
  env = { CLEAVER_URL: server.url, CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN };
});
afterAll(() => server.close());

async function keysOf(merchantId: string): Promise<Array<{ keyId: string; name: string; profile: string }>> {
  const res = await server.app.inject({ url: `/admin/v1/merchants/${merchantId}`, headers: adminHeaders });
  return res.json().integrationKeys;
}

describe('the profile from the CLI', { timeout: 90_000 }, () => {
  it('keys create --profile opendelivery, keys set-profile; a bad value is a usage error', async () => {
    const merchantId = await createMerchantOnly(server.app, 'Açougue CLI');
    const created = await runCli(['keys', 'create', merchantId, '--name', 'pdv-od', '--profile', 'opendelivery'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/profile:\s+opendelivery/);
    const key = (await keysOf(merchantId)).find((k) => k.name === 'pdv-od');
    expect(key?.profile).toBe('opendelivery');

    const json = await runCli(
      ['keys', 'set-profile', merchantId, String(key?.keyId), '--profile', 'cleaver', '--json'],
      env,
    );
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      keyId: key?.keyId,
      name: 'pdv-od',
      profile: 'cleaver',
      extraEventTypes: [],
      createdAt: expect.any(String),
      lastUsedAt: null,
      presence: expect.objectContaining({ state: 'never' }),
    });
    const positional = await runCli(['keys', 'set-profile', merchantId, String(key?.keyId), 'opendelivery'], env);
    expect(positional.code, positional.stderr).toBe(0);
    expect(positional.stdout).toContain('now has the opendelivery profile');
    expect((await keysOf(merchantId)).find((k) => k.keyId === key?.keyId)?.profile).toBe('opendelivery');

    const bad = await runCli(['keys', 'create', merchantId, '--profile', 'ifood'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--profile must be cleaver or opendelivery, not "ifood"');
    const missing = await runCli(['keys', 'set-profile', merchantId, String(key?.keyId)], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--profile is required');
    const unknown = await runCli(['keys', 'set-profile', merchantId, crypto.randomUUID(), '--profile', 'cleaver'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('404 Integration key not found');
    const help = await runCli(['keys', '--help']);
    expect(help.stdout).toContain('cleaver keys set-profile MERCHANT_ID KEY_ID --profile cleaver|opendelivery');
  });
});

describe('the profile from the console', () => {
  it('creates a key with a profile, shows it in the key table and changes it', async () => {
    const merchantId = await createMerchantOnly(server.app, 'Açougue Console');
    const s = await login(server.app);
    const created = await s.post(`/console/merchants/${merchantId}/keys`, { name: 'pdv-od', profile: 'opendelivery' });
    expect(created.statusCode).toBe(201);
    expect(created.body).toContain('profile opendelivery');
    const key = (await keysOf(merchantId))[0];
    expect(key.profile).toBe('opendelivery');
    const page = await s.get(`/console/merchants/${merchantId}`);
    expect(page.body).toMatch(
      new RegExp(`id="p-${key.keyId}" name="profile"><option>cleaver</option><option selected>opendelivery</option>`),
    );

    const changed = await s.post(`/console/merchants/${merchantId}/keys/${key.keyId}/profile`, { profile: 'cleaver' });
    expect(changed.statusCode).toBe(303);
    expect((await keysOf(merchantId))[0].profile).toBe('cleaver');
    const bad = await s.post(`/console/merchants/${merchantId}/keys/${key.keyId}/profile`, { profile: 'ifood' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('“ifood” is not one of the choices for Profile.');
    const unknown = await s.post(`/console/merchants/${merchantId}/keys/${crypto.randomUUID()}/profile`, {
      profile: 'cleaver',
    });
    expect(unknown.statusCode).toBe(404);
  });
});
