// The sandbox Open Delivery POS (`cleaver sandbox od-pos`, D29): its menu is real Open Delivery,
// it answers the platform's pull with ETags, and the command publishes a menu end to end.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPosClient } from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { startOdPos } from '../../src/cli/od-pos.js';
import { odButcherMenu, odId, odMenuProducts } from '../../src/cli/od-pos-menu.js';
import { ROOT, runCli } from '../cli/run-cli.js';
import { merchantRecord, productByPdv } from '../support/catalog.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { assertOdMerchant, notifyAndSettle, registerPos } from './od-support.js';

describe('the sandbox menu', () => {
  it('is an Open Delivery Merchant, changed or not', () => {
    expect(() => assertOdMerchant(odButcherMenu())).not.toThrow();
    expect(() => assertOdMerchant(odButcherMenu({ prices: { picanha: 91.9 }, status: 'UNAVAILABLE' }))).not.toThrow();
    // The check has teeth: a menu that is not Open Delivery is refused with the field named.
    const broken = { ...odButcherMenu(), items: [{ ...odButcherMenu().items[0], unit: 'BOX' }] };
    expect(() => assertOdMerchant(broken)).toThrow(/not an Open Delivery Merchant: \/items\/0\/unit/);
  });

  it('has sandbox orders placed from the products it creates', () => {
    expect(odMenuProducts()).toContainEqual({ pdvId: odId('item', 'picanha'), unit: 'KG' });
    expect(odMenuProducts()).toContainEqual({ pdvId: odId('item', 'hamburguer-180'), unit: 'UN' });
  });
});

describe('the sandbox POS against the platform', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves its menu behind X-API-KEY with an ETag: the second pull is a 304, nothing re-processed', async () => {
    const server = await startOdPos({ menu: odButcherMenu() });
    try {
      const me = await createMerchant(t.app);
      await registerPos(t, me, server.url, server.apiKey);
      expect((await notifyAndSettle(t, me)).status).toBe('SUCCESS');
      const again = await notifyAndSettle(t, me);
      expect(again.moreInfo).toMatch(
        /answered 304 Not Modified to If-None-Match "[0-9a-f]{32}"; nothing was re-processed\.$/,
      );
      server.setMenu(odButcherMenu({ prices: { picanha: 92.5 } }));
      const changed = await notifyAndSettle(t, me);
      expect(changed.moreInfo).toMatch(
        /^Categories: 0 created, 0 updated, 3 unchanged, 0 removed\. Products: 0 created, 1 updated, 7 unchanged, 0 removed\./,
      );
      expect(productByPdv(await merchantRecord(t, me), odId('item', 'picanha'))?.price).toBe(92.5);
      expect(server.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        'GET /v1/merchant 200',
        'GET /v1/merchant 304',
        'GET /v1/merchant 200',
      ]);
      const refused = await fetch(`${server.url}/v1/merchant`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ title: 'Invalid X-API-KEY', status: 401 });
    } finally {
      await server.close();
    }
  });
});

describe('cleaver sandbox od-pos', { timeout: 90_000 }, () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  beforeAll(async () => {
    server = await startApp();
    workers = await startAppWorkers(server);
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it('--once: registers itself, notifies, and the platform pulls its menu (exit 0, SUCCESS)', async () => {
    const m = await createMerchant(server.app);
    const env = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
    const run = await runCli(['sandbox', 'od-pos', '--once', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ posUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(lines).toContainEqual({ pos: { method: 'GET', path: '/v1/merchant', status: 200 } });
    const sync = lines.find((l) => 'sync' in l)?.sync as { status: string; moreInfo: string };
    expect(sync.status).toBe('SUCCESS');
    expect(sync.moreInfo).toMatch(/^Categories: 3 created, 0 updated, 0 unchanged, 0 removed\. Products: 8 created/);
    const client = createPosClient({ baseUrl: server.url, clientId: m.merchantId, clientSecret: m.clientSecret });
    const record = await client.getMerchant();
    expect(record.products.map((p) => p.pdv_external_id).sort()).toEqual(
      odMenuProducts()
        .map((p) => p.pdvId)
        .sort(),
    );
  });

  it('without POS credentials: exit 3 and a message', async () => {
    const run = await runCli(['sandbox', 'od-pos', '--once'], { CLEAVER_URL: server.url });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('No POS credentials');
  });
});

describe('cleaver sandbox demo --od-pos', () => {
  it('publishes the catalog through the Open Delivery POS and places orders from it', { timeout: 90_000 }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['DATABASE_URL', 'CLEAVER_ADMIN_TOKEN', 'CLEAVER_SECRET_KEY', 'PORT', 'CLEAVER_DATA_DIR'])
      delete env[name];
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-od-demo-'));
    const child = spawn(
      process.execPath,
      [
        'bin/cleaver.js',
        'sandbox',
        'demo',
        '--od-pos',
        '--data-dir',
        dataDir,
        '--port',
        '0',
        '--order-every',
        '0.3',
        '--orders',
        '1',
        '--json',
      ],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr: string[] = [];
    child.stderr.on('data', (d) => stderr.push(String(d)));
    const lines: Array<Record<string, unknown>> = [];
    const placed = new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!line.startsWith('{')) return;
        lines.push(JSON.parse(line));
        if (lines.some((l) => 'placed' in l)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`demo exited ${code}: ${stderr.join('')}`)));
    });
    try {
      await placed;
      const info = lines.find((l) => 'clientSecret' in l) as Record<string, string>;
      expect(info).toMatchObject({
        catalogSync: 'SUCCESS',
        odPosUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      });
      const client = createPosClient({ baseUrl: info.url, clientId: info.clientId, clientSecret: info.clientSecret });
      const merchant = await client.getMerchant();
      expect(merchant.products.map((p) => p.pdv_external_id)).toContain(odId('item', 'picanha'));
      const [event] = await client.pollEvents();
      const order = await client.getOrder(event.orderId);
      const ids = new Set(odMenuProducts().map((p) => p.pdvId));
      expect(order.items.every((i) => ids.has(i.id))).toBe(true);
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (c) => resolve(c)),
    );
    expect(code).toBe(0);
  });
});
