// The getting-started guide's program (docs/guides/getting-started.md, and its pt-BR twin) runs
// as a reader runs it: the `<!-- snippet: getting-started -->` block saved as a file, started with
// `node --import tsx` against a real server with its workers, `catalog.json` from
// `cleaver sandbox sample-catalog` beside it. It gets a token, onboards, publishes the catalog,
// then polls until an order placed meanwhile arrives, acknowledges it and exits: nothing of the
// path from the README's quick start may rot.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorClient, type OperatorClient } from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { sampleButcherCatalog } from '../../src/cli/sample-catalog.js';
import { ROOT } from '../cli/run-cli.js';
import { ADMIN_TOKEN, adminHeaders, createMerchant } from '../support/test-app.js';

/** The named block of a guide; the test fails if the guide lost it. */
function snippet(file: string, name: string): string {
  const markdown = readFileSync(join(ROOT, 'docs/guides', file), 'utf8');
  const found = new RegExp(`^<!-- snippet: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(markdown);
  if (!found) throw new Error(`docs/guides/${file} has no ${name} snippet`);
  return found[1];
}

describe('the getting-started guide, run as written', { timeout: 90_000 }, () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let op: OperatorClient;
  // Inside the repository, so that `@cleaver/pos-client` resolves as in the guide (tsconfig paths).
  // Outside node_modules: tsx maps @cleaver/pos-client to its sources (tsconfig.json's paths) only for
  // files outside it; inside, it took the package's exports, dist/, which exists only once
  // something has packed the client (an order between test files, not something to rely on).
  const dir = join(ROOT, 'test-artifacts/getting-started');

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(sampleButcherCatalog(), null, 2));
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it.each([
    ['English', 'getting-started.md'],
    ['pt-BR', 'getting-started.pt-BR.md'],
  ])(
    '%s: token, onboarding, catalog SUCCESS, then the order’s CREATED polled and acknowledged',
    async (_lang, file) => {
      const m = await createMerchant(server.app, `Açougue Primeiros Passos ${file}`);
      const program = join(dir, file.replace(/\.md$/, '.mts'));
      writeFileSync(program, snippet(file, 'getting-started'));
      const child = spawn(process.execPath, ['--import', 'tsx', program], {
        cwd: dir,
        env: {
          ...process.env,
          CLEAVER_URL: server.url,
          CLEAVER_CLIENT_ID: m.merchantId,
          CLEAVER_CLIENT_SECRET: m.clientSecret,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (d) => {
        output += String(d);
      });
      child.stderr?.on('data', (d) => {
        output += String(d);
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toContain('catalog SUCCESS');
        const order = await op.createOrder(m.merchantId, {
          type: 'DELIVERY',
          items: [{ pdvId: 'picanha', quantity: 1.2 }],
        });
        expect(await exited, output).toBe(0);
        const lines = output.trimEnd().split('\n');
        expect(lines[0]).toMatch(/^token valid until \d{4}-\d{2}-\d{2}T/);
        expect(lines[1]).toBe('onboarded');
        expect(lines[2]).toMatch(/^catalog SUCCESS/);
        expect(lines.slice(3)).toEqual([`CREATED order ${order.id}`, 'acknowledged 1 event(s)']);

        // What the program did is what the platform saw: the webhook URL, the catalog, the ack.
        const view = await server.app.inject({
          method: 'GET',
          url: `/admin/v1/orders/${order.id}`,
          headers: adminHeaders,
        });
        expect(view.json().events[0].acknowledgments.every((a: { acknowledged: boolean }) => a.acknowledged)).toBe(
          true,
        );
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    },
  );
});
