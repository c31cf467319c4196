// `cleaver sandbox demo` and butchery (D37): the demo's catalog has cuts and spices (added through
// the operator API, since an upload never writes cuts), and its sample orders choose them.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createPosClient } from '../../packages/pos-client/src/index.js';
import { SAMPLE_CUTS, sampleCatalogProducts } from '../../src/cli/sample-catalog.js';
import { sampleOrder } from '../../src/cli/sandbox-commands.js';
import { ROOT } from './run-cli.js';

describe('cleaver sandbox demo: cuts', () => {
  it('sample orders name a cut of their product most of the time, and only of that product', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const items = Array.from({ length: 200 }, (_, n) => sampleOrder(n, random).items).flat();
    const withCut = items.filter((i) => i.cutId !== undefined);
    expect(withCut.length).toBeGreaterThan(0);
    for (const item of withCut) {
      expect(SAMPLE_CUTS[item.pdvId as string]?.map((c) => c.id)).toContain(item.cutId);
    }
    const cutProducts = new Set(
      sampleCatalogProducts()
        .filter((p) => p.cutIds)
        .map((p) => p.pdvId),
    );
    expect(items.filter((i) => !cutProducts.has(i.pdvId as string)).every((i) => i.cutId === undefined)).toBe(true);
  });

  it('adds the sample cuts after the upload and its orders carry the chosen cut as their first option', {
    timeout: 90_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-demo-cuts-'));
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
        '0.2',
        '--orders',
        '12',
        '--cancel-every',
        '0',
        '--json',
      ],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stderr: string[] = [];
    child.stderr.on('data', (d) => stderr.push(String(d)));
    const lines: Array<Record<string, unknown>> = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{')) lines.push(JSON.parse(line));
    });
    const waitFor = async (probe: () => boolean) => {
      for (;;) {
        if (probe()) return;
        if (child.exitCode !== null) throw new Error(`demo exited ${child.exitCode}: ${stderr.join('')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    try {
      await waitFor(() => lines.filter((l) => 'placed' in l).length >= 12);
      const info = lines.find((l) => 'clientSecret' in l) as { url: string; clientId: string; clientSecret: string };
      const client = createPosClient({ baseUrl: info.url, clientId: info.clientId, clientSecret: info.clientSecret });
      const merchant = await client.getMerchant();
      const picanha = merchant.products.find((p) => p.pdv_external_id === 'picanha');
      expect(picanha?.cuts).toEqual([
        { id: 'picanha-bifes', name: 'Bifes', spice: { id: 'alho', name: 'Alho' } },
        { id: 'picanha-peca', name: 'Peça inteira', spice: null },
      ]);
      expect(merchant.products.find((p) => p.pdv_external_id === 'carvao-5kg')).not.toHaveProperty('cuts');

      const cutNames = new Map(
        merchant.products.flatMap((p) =>
          (p.cuts ?? []).map((c) => [c.id, c.spice ? `${c.name} – ${c.spice.name}` : c.name] as const),
        ),
      );
      const orders = await Promise.all(
        lines.filter((l) => 'placed' in l).map((l) => client.getOrder(l.placed as string)),
      );
      const firstOptions = orders
        .flatMap((o) => o.items.map((i) => i.options?.[0]))
        .filter((o) => o && cutNames.has(o.id));
      expect(firstOptions.length).toBeGreaterThan(0);
      for (const option of firstOptions) expect(option?.name).toBe(cutNames.get(option?.id as string));
    } finally {
      child.kill('SIGINT');
    }
    expect(await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))).toBe(0);
  });
});
