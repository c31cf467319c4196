// `cleaver sandbox demo` as a user runs it: a child process on a fresh data dir, port 0.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createPosClient, type EventRecord } from '../../packages/pos-client/src/index.js';
import { sampleButcherCatalog } from '../../src/cli/sample-catalog.js';
import { ROOT } from './run-cli.js';

describe('cleaver sandbox demo', () => {
  it('starts on the embedded database, prints working credentials, places orders, stops on SIGINT', {
    timeout: 90_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-demo-'));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['DATABASE_URL', 'CLEAVER_ADMIN_TOKEN', 'CLEAVER_SECRET_KEY', 'PORT', 'CLEAVER_DATA_DIR'])
      delete env[name];
    const child = spawn(
      process.execPath,
      [
        'bin/cleaver.js',
        'sandbox',
        'demo',
        '--data-dir',
        dataDir,
        '--port',
        '0',
        '--order-every',
        '0.3',
        '--orders',
        '4',
        '--cancel-every',
        '2',
        '--json',
      ],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr: string[] = [];
    child.stderr.on('data', (d) => stderr.push(String(d)));
    const lines: Array<Record<string, unknown>> = [];
    const waiters: Array<() => void> = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return; // the server's own start-up lines
      lines.push(JSON.parse(line));
      for (const w of waiters.splice(0)) w();
    });
    const waitLine = async (predicate: (l: Record<string, unknown>) => boolean) => {
      for (;;) {
        const found = lines.find(predicate);
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`demo exited ${child.exitCode}: ${stderr.join('')}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
    };

    try {
      const info = (await waitLine((l) => 'clientSecret' in l)) as {
        url: string;
        clientId: string;
        clientSecret: string;
        adminToken: string;
        catalogSync: string;
        dataDir: string;
      };
      expect(info.catalogSync).toBe('SUCCESS');
      expect(info.dataDir).toBe(dataDir);
      await waitLine((l) => l.customerCancellation !== undefined);
      const placed = lines.filter((l) => 'placed' in l);
      expect(placed.length).toBeGreaterThanOrEqual(2);

      // The printed credentials are what a POS developer needs: they work with the client.
      const client = createPosClient({ baseUrl: info.url, clientId: info.clientId, clientSecret: info.clientSecret });
      const merchant = await client.getMerchant();
      const units = new Set(merchant.products.map((p) => p.unit));
      expect(units).toEqual(new Set(['KG', 'UN']));
      expect(merchant.products.map((p) => p.pdv_external_id)).toEqual(
        expect.arrayContaining(['picanha', 'fraldinha', 'linguica-toscana']),
      );
      const events: EventRecord[] = await client.pollEvents();
      expect(events.filter((e) => e.eventType === 'CREATED').length).toBeGreaterThanOrEqual(2);
      expect(events.map((e) => e.eventType)).toContain('ORDER_CANCELLATION_REQUEST');
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });

  it('orders only what the catalog offers now: a later push that removes products is followed', {
    timeout: 90_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-demo-push-'));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['DATABASE_URL', 'CLEAVER_ADMIN_TOKEN', 'CLEAVER_SECRET_KEY', 'PORT', 'CLEAVER_DATA_DIR'])
      delete env[name];
    const child = spawn(
      process.execPath,
      ['bin/cleaver.js', 'sandbox', 'demo', '--data-dir', dataDir, '--port', '0', '--order-every', '0.4'],
      { cwd: ROOT, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const placedIds = () => [...stdout.matchAll(/placed \(([0-9a-f-]{36}),/g)].map((m) => m[1]);
    try {
      await expect.poll(() => stdout, { timeout: 60_000, interval: 100 }).toMatch(/export CLEAVER_ADMIN_TOKEN=\S+\n/);
      const value = (name: string) => new RegExp(`export ${name}=(\\S+)`).exec(stdout)?.[1] as string;
      const [url, adminToken] = [value('CLEAVER_URL'), value('CLEAVER_ADMIN_TOKEN')];
      const client = createPosClient({
        baseUrl: url,
        clientId: value('CLEAVER_CLIENT_ID'),
        clientSecret: value('CLEAVER_CLIENT_SECRET'),
      });
      // The POS pushes a catalog of one product: everything else the demo published goes.
      const catalog = sampleButcherCatalog();
      if (catalog.entityType !== 'MERCHANT') throw new Error('the sample catalog is a MERCHANT upload');
      const store = catalog.updatedObjects[0];
      store.items = store.items.filter((i) => i.id === 'sal-grosso');
      store.itemOffers = store.itemOffers.filter((o) => o.itemId === 'sal-grosso');
      store.categories = store.categories
        .filter((c) => c.id === 'churrasco')
        .map((c) => ({ ...c, itemOfferId: ['oferta-sal-grosso'] }));
      const sync = await client.uploadCatalog(catalog, { wait: true, intervalMs: 100 });
      expect(sync?.status).toBe('SUCCESS');
      const before = placedIds().length;
      await expect
        .poll(() => placedIds().length, { timeout: 30_000, interval: 100 })
        .toBeGreaterThanOrEqual(before + 4);
      // An order placed while the push was applied may still name older products; later ones cannot.
      for (const id of placedIds().slice(before + 1)) {
        const res = await fetch(`${url}/admin/v1/orders/${id}`, { headers: { authorization: `Bearer ${adminToken}` } });
        const order = (await res.json()) as { items: Array<{ externalCode: string; name: string }> };
        expect(order.items.map((i) => i.name)).toEqual(order.items.map(() => 'Sal grosso 1 kg'));
      }
      expect(stderr).not.toContain('could not place an order');
    } finally {
      child.kill('SIGINT');
    }
    await new Promise((resolve) => child.once('exit', resolve));
  });
});
