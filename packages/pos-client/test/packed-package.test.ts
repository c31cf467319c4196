// The tarball a JavaScript shop installs (issue "Integrator kit", item 1): packed, installed into
// an empty folder outside the workspace, and used against a real running Cleaver server from
// plain Node: an ES module (.mjs), CommonJS (.cjs), and TypeScript type-checked with
// moduleResolution nodenext, node16 and bundler, compiled by tsc and run by node.
import { readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createMerchant } from '../../../test/support/test-app.js';
import { createOperatorClient, type OperatorClient } from '../src/index.js';
import { consumerTsconfig, listFiles, type PackedPackage, packAndInstall, run, runOk, TSC } from './packed.js';
import { type RunningApp, startApp, startAppWorkers } from './support.js';

// What every flavour does, in its own syntax: token, onboarding, catalog upload-and-wait,
// merchant status, the polling loop confirming the order it is given, a typed 404.
const CATALOG = {
  entityType: 'MERCHANT',
  merchantStatus: 'AVAILABLE',
  updatedObjects: [
    {
      id: 'loja-1',
      categories: [{ id: 'bovinos', name: 'Bovinos', itemOfferId: ['oferta-picanha'] }],
      itemOffers: [{ id: 'oferta-picanha', itemId: 'picanha', price: { value: 89.9 } }],
      items: [{ id: 'picanha', name: 'Picanha', unit: 'KG' }],
    },
  ],
};

const BODY = `
const client = createPosClient({
  baseUrl: process.env.CLEAVER_URL,
  clientId: process.env.CLEAVER_CLIENT_ID,
  clientSecret: process.env.CLEAVER_CLIENT_SECRET,
});
const { accessToken } = await client.token();
const config = await client.onboard({ ordersWebhookURL: 'http://127.0.0.1:9' });
const sync = await client.uploadCatalog(CATALOG, { wait: true, intervalMs: 100, timeoutMs: 30000 });
const status = await client.merchantStatus();
const stop = new AbortController();
const confirmed = [];
const summary = await runEventLoop(
  client,
  async (event) => {
    if (event.eventType !== 'CREATED' || event.orderId !== process.env.ORDER_ID) return;
    const order = await client.getOrder(event.orderId);
    await client.confirm(order.id, { createdAt: order.createdAt, orderExternalCode: 'PDV-' + FLAVOUR });
    confirmed.push(order.id);
  },
  { signal: stop.signal, intervalMs: 50, onAcknowledged: () => stop.abort() },
);
let notFound = [];
try {
  await client.getOrder('00000000-0000-4000-8000-000000000000');
} catch (error) {
  if (!(error instanceof CleaverApiError)) throw error;
  notFound = [error.name, error.status, error.title];
}
console.log(JSON.stringify({
  flavour: FLAVOUR,
  tokenLength: accessToken.length,
  webhook: config.ordersWebhookURL,
  sync: sync && sync.status,
  status: status.status,
  confirmed,
  acknowledged: summary.acknowledged,
  notFound,
}));
`;

const MJS = `import { CleaverApiError, createPosClient, runEventLoop } from '@cleaver/pos-client';
const FLAVOUR = 'mjs';
const CATALOG = ${JSON.stringify(CATALOG)};
${BODY}`;

// CommonJS has no top-level await: the same body inside an async function.
const CJS = `const { CleaverApiError, createPosClient, runEventLoop } = require('@cleaver/pos-client');
const FLAVOUR = 'cjs';
const CATALOG = ${JSON.stringify(CATALOG)};
(async () => {
${BODY}
})().catch((error) => {
  console.error(error);
  process.exit(1);
});`;

// TypeScript: typed values, and errors the types must catch (an unused @ts-expect-error fails).
const TS = `import {
  CleaverApiError,
  createPosClient,
  type EventLoopSummary,
  type MerchantUpdateRequest,
  runEventLoop,
} from '@cleaver/pos-client';
const FLAVOUR: string = 'ts';
const CATALOG: MerchantUpdateRequest = ${JSON.stringify(CATALOG)};
// @ts-expect-error the body of confirm needs createdAt and orderExternalCode
const _wrong = () => createPosClient({ baseUrl: '', clientId: '', clientSecret: '' }).confirm('id', {});
// @ts-expect-error entityType is one of MERCHANT, ITEM, ITEM_OFFER
const _badCatalog: MerchantUpdateRequest = { entityType: 'PRODUCT', updatedObjects: [] };
const env = (name: string): string => process.env[name] ?? '';
${BODY.replace(/process\.env\.(CLEAVER_\w+)/g, "env('$1')")
  .replace('const confirmed = [];', 'const confirmed: string[] = [];')
  .replace('const summary =', 'const summary: EventLoopSummary =')
  .replace('let notFound = [];', 'let notFound: unknown[] = [];')}`;

// The same import, compiled to CommonJS by tsc (a .cts file): the package's "require" types.
const CTS = `import { CleaverNetworkError, createPosClient, type PosClient } from '@cleaver/pos-client';
async function main(): Promise<void> {
  const client: PosClient = createPosClient({
    baseUrl: process.env.CLOSED_URL ?? '',
    clientId: 'x',
    clientSecret: 'y',
    retry: { maxAttempts: 1 },
  });
  const error = await client.token().catch((e: unknown) => e);
  console.log(JSON.stringify({ flavour: 'cts', network: error instanceof CleaverNetworkError, stage: (error as CleaverNetworkError).stage }));
}
void main();
`;

describe('the packed @cleaver/pos-client, installed from its tarball', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let op: OperatorClient;
  let pkg: PackedPackage;

  beforeAll(async () => {
    pkg = await packAndInstall();
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  }, 240_000);
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
    pkg?.cleanup();
  });

  it('holds only the build, the README and package.json, and installs with no dependency', () => {
    expect(pkg.files.filter((f) => !f.startsWith('dist/'))).toEqual(['README.md', 'package.json']);
    for (const format of ['esm', 'cjs']) {
      expect(pkg.files).toContain(`dist/${format}/index.js`);
      expect(pkg.files).toContain(`dist/${format}/index.d.ts`);
    }
    expect(pkg.files).toContain('dist/cjs/package.json');
    expect(pkg.files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
    // Nothing came along: the consumer's node_modules holds the package alone.
    expect(
      listFiles(join(pkg.consumerDir, 'node_modules')).filter((f) => !f.startsWith('@cleaver/pos-client/')),
    ).toEqual(['.package-lock.json']);
    const manifest = JSON.parse(readFileSync(join(pkg.installedDir, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.engines).toEqual({ node: '>=18' });
  });

  it('uses nothing newer than Node 18 (the build targets ES2022; these are the runtime APIs it must not touch)', () => {
    const newer = [
      'AbortSignal.any(',
      'Promise.withResolvers(',
      'Array.fromAsync(',
      'Object.groupBy(',
      'Map.groupBy(',
      '.toSorted(',
      '.toReversed(',
      '.toSpliced(',
      '.isWellFormed(',
      'import.meta.dirname',
      'import.meta.filename',
      'process.getBuiltinModule',
      'navigator.',
    ];
    for (const file of listFiles(join(pkg.installedDir, 'dist')).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(pkg.installedDir, 'dist', file), 'utf8');
      for (const api of newer) expect(code.includes(api), `${file} uses ${api}`).toBe(false);
    }
  });

  async function integrate(flavour: string, command: string[]) {
    const m = await createMerchant(server.app, `Açougue ${flavour}`);
    const product = await op.createProduct(m.merchantId, { name: 'Fraldinha', price: 59.9, unit: 'KG' });
    const order = await op.createOrder(m.merchantId, {
      type: 'DELIVERY',
      items: [{ productId: product.id as string, quantity: 1 }],
    });
    const result = await runOk(process.execPath, command, {
      cwd: pkg.consumerDir,
      env: {
        CLEAVER_URL: server.url,
        CLEAVER_CLIENT_ID: m.merchantId,
        CLEAVER_CLIENT_SECRET: m.clientSecret,
        ORDER_ID: order.id,
      },
    });
    const output = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(output).toEqual({
      flavour,
      tokenLength: expect.any(Number),
      webhook: 'http://127.0.0.1:9',
      sync: 'SUCCESS',
      status: 'SUCCESS',
      confirmed: [order.id],
      acknowledged: 1,
      notFound: ['CleaverApiError', 404, 'Order not found'],
    });
    expect(output.tokenLength).toBeGreaterThan(20);
    const seen = await op.getOrder(order.id);
    expect(seen.lastEvent).toBe('CONFIRMED');
    expect((seen.events as Array<{ eventType: string }>).map((e) => e.eventType)).toEqual(['CREATED', 'CONFIRMED']);
  }

  it('works from import (.mjs) with plain node', async () => {
    writeFileSync(join(pkg.consumerDir, 'app.mjs'), MJS);
    await integrate('mjs', ['app.mjs']);
  });

  it('works from require (.cjs) with plain node', async () => {
    writeFileSync(join(pkg.consumerDir, 'app.cjs'), CJS);
    await integrate('cjs', ['app.cjs']);
  });

  it('type-checks from TypeScript (nodenext, node16, bundler); tsc output runs with plain node', async () => {
    writeFileSync(join(pkg.consumerDir, 'app.ts'), TS);
    writeFileSync(join(pkg.consumerDir, 'app-cjs.cts'), CTS);
    const configs = {
      'tsconfig.nodenext.json': consumerTsconfig({ module: 'nodenext', outDir: 'out' }, ['app.ts', 'app-cjs.cts']),
      'tsconfig.node16.json': consumerTsconfig({ module: 'node16', noEmit: true }, ['app.ts', 'app-cjs.cts']),
      'tsconfig.bundler.json': consumerTsconfig({ module: 'preserve', moduleResolution: 'bundler', noEmit: true }, [
        'app.ts',
      ]),
    };
    for (const [name, text] of Object.entries(configs)) {
      writeFileSync(join(pkg.consumerDir, name), text);
      const checked = await run(process.execPath, [TSC, '-p', name], { cwd: pkg.consumerDir });
      expect(checked.stdout + checked.stderr, name).toBe('');
      expect(checked.code, name).toBe(0);
    }
    await integrate('ts', ['out/app.js']);
    // A port nobody listens on: the connection is refused, so the request never left.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const cts = await runOk(process.execPath, ['out/app-cjs.cjs'], {
      cwd: pkg.consumerDir,
      env: { CLOSED_URL: `http://127.0.0.1:${port}` },
    });
    expect(JSON.parse(cts.stdout)).toEqual({ flavour: 'cts', network: true, stage: 'connect' });
    // tsc runs several times over: on a loaded 2-core machine that is well over the default 30 s.
  }, 180_000);

  it('the types catch a wrong call (the @ts-expect-error lines are needed)', async () => {
    writeFileSync(join(pkg.consumerDir, 'wrong.ts'), TS.replaceAll('// @ts-expect-error', '//'));
    writeFileSync(
      join(pkg.consumerDir, 'tsconfig.wrong.json'),
      consumerTsconfig({ module: 'nodenext', noEmit: true }, ['wrong.ts']),
    );
    const checked = await run(process.execPath, [TSC, '-p', 'tsconfig.wrong.json'], { cwd: pkg.consumerDir });
    expect(checked.code).not.toBe(0);
    expect(checked.stdout).toContain('wrong.ts(11,');
    expect(checked.stdout).toContain('Type \'"PRODUCT"\' is not assignable');
    // tsc runs several times over: on a loaded 2-core machine that is well over the default 30 s.
  }, 180_000);
});
