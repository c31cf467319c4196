// Every ```ts and ```js block of the package README is a program: each is written to a file in
// a project that installed the packed tarball, TypeScript blocks type-checked and compiled by
// tsc, and run by plain node against a real server (issue "Integrator kit": no snippet may rot).
// Blocks are named by the `<!-- snippet: NAME -->` line above them; each name has a driver
// below that gives it its environment and checks what it did.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleButcherCatalog } from '../../../src/cli/sample-catalog.js';
import { ADMIN_TOKEN, createMerchant, type MerchantCredentials } from '../../../test/support/test-app.js';
import { createOperatorClient, createPosClient, type OperatorClient } from '../src/index.js';
import {
  cleanEnv,
  consumerTsconfig,
  PACKAGE_DIR,
  type PackedPackage,
  packAndInstall,
  run,
  runOk,
  TSC,
} from './packed.js';
import { type RunningApp, startApp, startAppWorkers } from './support.js';

interface Snippet {
  name: string;
  lang: 'ts' | 'js';
  code: string;
}

/** The README's code blocks; throws on a ts/js block without a name (it would escape the test). */
function readSnippets(markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const block = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = block.exec(markdown); m; m = block.exec(markdown)) {
    const lang = m[1];
    if (lang !== 'ts' && lang !== 'js') continue;
    const before = markdown.slice(0, m.index).trimEnd().split('\n').at(-1) ?? '';
    const name = /^<!-- snippet: ([\w-]+) -->$/.exec(before)?.[1];
    if (!name) throw new Error(`a \`\`\`${lang} block of the README has no <!-- snippet: NAME --> line above it`);
    snippets.push({ name, lang, code: m[2] });
  }
  return snippets;
}

/** A running snippet: its output lines, a way to wait for one, and to stop it. */
function startProgram(file: string, cwd: string, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [file], { cwd, env: cleanEnv(env) });
  const output: string[] = [];
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d) => output.push(...String(d).split('\n')));
  return {
    output,
    async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = output.find((l) => pattern.test(l));
        if (line) return line;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`no line matching ${pattern} (exit ${child.exitCode}):\n${output.join('\n')}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop(): Promise<number | null> {
      child.kill('SIGINT');
      return exit;
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the READMEs (the repository’s and @cleaver/pos-client’s): every snippet runs', () => {
  const snippets = [
    ...readSnippets(readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8')),
    ...readSnippets(readFileSync(join(PACKAGE_DIR, '..', '..', 'README.md'), 'utf8')),
  ];
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let op: OperatorClient;
  let pkg: PackedPackage;
  /** Where each snippet's compiled or copied program is, by name. */
  const programs = new Map<string, string>();

  const envOf = (m: MerchantCredentials, extra: Record<string, string> = {}) => ({
    CLEAVER_URL: server.url,
    CLEAVER_CLIENT_ID: m.merchantId,
    CLEAVER_CLIENT_SECRET: m.clientSecret,
    ...extra,
  });
  const runSnippet = (name: string, env: Record<string, string>) =>
    runOk(process.execPath, [programs.get(name)!], { cwd: pkg.consumerDir, env });
  const placeOrder = async (merchantId: string) => {
    const product = await op.createProduct(merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    return op.createOrder(merchantId, { type: 'DELIVERY', items: [{ productId: product.id as string, quantity: 1 }] });
  };

  beforeAll(async () => {
    pkg = await packAndInstall();
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });

    // Written as they are; TypeScript compiled once, all blocks together, with strict checks.
    const dir = join(pkg.consumerDir, 'readme');
    mkdirSync(dir);
    for (const s of snippets) {
      const ext = s.lang === 'ts' ? 'ts' : /\brequire\(/.test(s.code) ? 'cjs' : 'mjs';
      writeFileSync(join(dir, `${s.name}.${ext}`), s.code);
      programs.set(s.name, ext === 'ts' ? join('readme-out', `${s.name}.js`) : join('readme', `${s.name}.${ext}`));
    }
    writeFileSync(
      join(pkg.consumerDir, 'tsconfig.readme.json'),
      consumerTsconfig({ module: 'nodenext', outDir: 'readme-out', rootDir: 'readme' }, ['readme/*.ts']),
    );
    const compiled = await run(process.execPath, [TSC, '-p', 'tsconfig.readme.json'], { cwd: pkg.consumerDir });
    if (compiled.code !== 0) throw new Error(`the README's TypeScript does not compile:\n${compiled.stdout}`);
  }, 240_000);
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
    pkg?.cleanup();
  });

  // What each snippet is run with and must have done. A README block without a driver fails below.
  let shop: MerchantCredentials;
  const drivers: Record<string, () => Promise<void>> = {
    'quick-start': async () => {
      shop = await createMerchant(server.app, 'Açougue Centro');
      const { stdout } = await runSnippet('quick-start', envOf(shop));
      expect(stdout).toContain('catalog sync SUCCESS: ');
      const config = await createPosClient({
        baseUrl: server.url,
        clientId: shop.merchantId,
        clientSecret: shop.clientSecret,
      }).onboard({ ordersWebhookURL: 'https://pos.example.com' });
      expect(config.ordersWebhookURL).toBe('https://pos.example.com');
    },
    commonjs: async () => {
      const { stdout } = await runSnippet('commonjs', envOf(shop));
      expect(stdout.split('\n')).toEqual(['1 products, merchant AVAILABLE', '404 Order not found', '']);
    },
    retries: async () => {
      const { stdout } = await runSnippet('retries', envOf(shop));
      expect(stdout).toBe('price update SUCCESS\n');
      const merchant = await createPosClient({
        baseUrl: server.url,
        clientId: shop.merchantId,
        clientSecret: shop.clientSecret,
      }).getMerchant();
      expect(merchant.products.map((p) => [p.pdv_external_id, p.price])).toEqual([['picanha', 92.5]]);
    },
    'event-loop': async () => {
      const m = await createMerchant(server.app, 'Açougue Loop');
      const cancelled = await placeOrder(m.merchantId);
      await op.customerCancellation(cancelled.id);
      await createPosClient({
        baseUrl: server.url,
        clientId: m.merchantId,
        clientSecret: m.clientSecret,
      }).acceptCancellation(cancelled.id);
      const good = await placeOrder(m.merchantId);
      const program = startProgram(programs.get('event-loop')!, pkg.consumerDir, envOf(m));
      try {
        await program.waitFor(new RegExp(`^confirmed ${good.id}$`));
        // The cancelled order's CREATED cannot be confirmed: reported through the logger, acknowledged.
        await program.waitFor(/Order is CANCELLED/);
        await program.waitFor(/event handler failed; acknowledging the event/);
      } finally {
        expect(await program.stop()).toBe(0);
      }
      expect(program.output.at(-2)).toMatch(/^stopped after \d+ polls; [1-9]\d* events acknowledged$/);
      expect((await op.getOrder(good.id)).lastEvent).toBe('CONFIRMED');
    },
    webhooks: async () => {
      const m = await createMerchant(server.app, 'Açougue Webhook');
      const port = await freePort();
      const program = startProgram(programs.get('webhooks')!, pkg.consumerDir, envOf(m, { PORT: String(port) }));
      const client = createPosClient({ baseUrl: server.url, clientId: m.merchantId, clientSecret: m.clientSecret });
      try {
        await program.waitFor(new RegExp(`^receiving webhooks on port ${port}$`));
        const order = await placeOrder(m.merchantId);
        await program.waitFor(new RegExp(`^(webhook|poll): CREATED ${order.id}$`));
        // Both routes bring it: the receiver took the webhook (204) and the loop polled it, and
        // it was handled once and acknowledged.
        const deadline = Date.now() + 20_000;
        const delivered = async () =>
          ((await op.getOrder(order.id)).webhookDeliveries as Array<{ status: string }>).some(
            (d) => d.status === 'DELIVERED',
          );
        while ((await client.pollEvents()).length > 0 || !(await delivered())) {
          if (Date.now() > deadline) throw new Error(`still pending:\n${program.output.join('\n')}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(program.output.filter((l) => l.endsWith(`CREATED ${order.id}`))).toHaveLength(1);
      } finally {
        expect(await program.stop()).toBe(0);
      }
    },
    // The repository README's example, run on a merchant that already has the sandbox demo's
    // catalog (the demo first, then the example): it adds its product and removes none of the
    // demo's, so the demo's orders keep working.
    overview: async () => {
      const m = await createMerchant(server.app, 'Açougue Demo');
      const client = createPosClient({ baseUrl: server.url, clientId: m.merchantId, clientSecret: m.clientSecret });
      const demo = await client.uploadCatalog(sampleButcherCatalog(), { wait: true, timeoutMs: 30_000 });
      expect(demo?.status).toBe('SUCCESS');
      const demoProducts = (await client.getMerchant()).products.map((p) => p.pdv_external_id).sort();
      const port = await freePort();
      const program = startProgram(programs.get('overview')!, pkg.consumerDir, envOf(m, { PORT: String(port) }));
      try {
        await program.waitFor(/^catalog sync SUCCESS$/);
        const order = await op.createOrder(m.merchantId, {
          type: 'DELIVERY',
          items: [{ productId: (await client.getMerchant()).products[0].id, quantity: 1 }],
        });
        await program.waitFor(new RegExp(`^confirmed ${order.id}$`));
        // Handled once, by whichever route brought it first; the webhook was delivered (204).
        const deadline = Date.now() + 20_000;
        const delivered = async () =>
          ((await op.getOrder(order.id)).webhookDeliveries as Array<{ eventType: string; status: string }>).some(
            (d) => d.eventType === 'CREATED' && d.status === 'DELIVERED',
          );
        while (!(await delivered())) {
          if (Date.now() > deadline) throw new Error(`webhook not delivered:\n${program.output.join('\n')}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(program.output.filter((l) => /^(webhook|poll): CREATED /.test(l) && l.endsWith(order.id))).toHaveLength(
          1,
        );
        expect((await op.getOrder(order.id)).lastEvent).toBe('CONFIRMED');
      } finally {
        expect(await program.stop()).toBe(0);
      }
      const after = (await client.getMerchant()).products.map((p) => p.pdv_external_id);
      expect(after).toEqual(expect.arrayContaining([...demoProducts, 'maminha']));
      expect(after).toHaveLength(demoProducts.length + 1);
    },
    'dedupe-store': async () => {
      const { stdout } = await runSnippet('dedupe-store', {});
      expect(stdout).toBe('first delivery handled: true\nafter a restart, seen: true\n');
    },
  };

  it('names every ts/js block, and each name has a driver', () => {
    expect(snippets.map((s) => s.name).sort()).toEqual(Object.keys(drivers).sort());
  });

  for (const name of Object.keys(drivers)) {
    it(`snippet "${name}" compiles and runs`, { timeout: 60_000 }, drivers[name]);
  }
});
