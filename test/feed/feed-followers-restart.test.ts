// Feed followers outlive a restart of the service (docs/platform-feed.md): `cleaver platform tail
// --json` and the example HTTP consumer (examples/platform-feed-consumer) follow the feed while a
// real `cleaver serve` process is stopped and started again on the same address and data. Both
// wait, try again with a growing pause and read on from their cursor: every item once, in order,
// none lost or doubled, and stdout holds nothing but items (JSON lines for the tail).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOperatorClient, type OperatorClient } from '../../packages/pos-client/src/index.js';
import { closedPort, ROOT, runCli } from '../cli/run-cli.js';
import { type CleaverProcess, startCleaver, stopAllCleavers } from '../proof/processes.js';
import { ADMIN_TOKEN } from '../support/test-app.js';

describe('feed followers across a restart of the service', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-restart-'));
  let consumer: ChildProcess | undefined;

  afterAll(async () => {
    consumer?.kill('SIGTERM');
    await stopAllCleavers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the CLI tail and the example consumer print every order once, before, during and after the restart', async () => {
    const port = await closedPort();
    // The same address and the same data both times: a restart, not a new service.
    const serve = () => startCleaver('all', { PORT: String(port), CLEAVER_DATA_DIR: dataDir });
    let service: CleaverProcess = await serve();
    const url = service.url as string;
    const op: OperatorClient = createOperatorClient({ baseUrl: url, adminToken: ADMIN_TOKEN });
    const merchant = await op.createMerchant({ name: 'Açougue Reinício' });
    await op.createProduct(merchant.id, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const product = (await op.createProduct(merchant.id, { name: 'Linguiça', price: 29.9, unit: 'UN' })) as {
      id: string;
    };
    const account = await op.createOperator({
      email: `feed-restart-${Date.now()}@cleaver.test`,
      name: 'Marketplace',
      role: 'platform',
    });
    const { token } = await op.createOperatorToken(account.id, { name: 'feed' });
    const order = async () =>
      (await op.createOrder(merchant.id, { type: 'DELIVERY', items: [{ productId: product.id, quantity: 1 }] })).id;

    const placed = [await order(), await order()];

    // The tail runs in this process (as `cleaver` would), told to stop once everything is printed.
    const stopTail = new AbortController();
    let tailOut = '';
    const tail = runCli(
      ['platform', 'tail', '--kinds', 'order', '--merchant', merchant.id, '--json'],
      { CLEAVER_URL: url, CLEAVER_ADMIN_TOKEN: token },
      {
        timeoutMs: 150_000,
        signal: stopTail.signal,
        onStdout: (text) => {
          tailOut = text;
        },
      },
    );
    const tailedOrders = () =>
      tailOut
        .split('\n')
        .filter((l) => l.includes('"type":"CREATED"'))
        .map((l) => (JSON.parse(l) as { orderId: string }).orderId);
    consumer = spawn(process.execPath, ['--import', 'tsx', 'examples/platform-feed-consumer/consumer.ts', 'http'], {
      cwd: ROOT,
      env: { ...process.env, CLEAVER_URL: url, CLEAVER_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let consumed = '';
    let consumerErr = '';
    consumer.stdout?.on('data', (d) => {
      consumed += String(d);
    });
    consumer.stderr?.on('data', (d) => {
      consumerErr += String(d);
    });
    const consumedOrders = () =>
      consumed
        .split('\n')
        .filter((l) => l.includes(` order CREATED merchant=${merchant.id} `))
        .map((l) => /order=(\S+)/.exec(l)?.[1]);
    await expect.poll(consumedOrders, { timeout: 30_000, interval: 100 }).toEqual(placed);

    // The restart: the followers are in their long poll when the service goes.
    await service.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    service = await serve();
    placed.push(await order(), await order());

    await expect.poll(consumedOrders, { timeout: 60_000, interval: 200 }).toEqual(placed);
    expect(consumerErr, 'the consumer said the feed did not answer').toMatch(/feed: no answer/);
    expect(consumer.exitCode).toBeNull();

    // The two followers back off on their own schedules: the tail may still be waiting to try
    // again when the consumer has caught up, so it is stopped only once it has printed them all.
    await expect.poll(tailedOrders, { timeout: 60_000, interval: 200 }).toEqual(placed);
    stopTail.abort();
    const tailed = await tail;
    expect(tailed.code, tailed.stderr).toBe(0);
    // stdout: one JSON item a line, nothing else.
    const items = tailed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; orderId: string; cursor: string });
    expect(items.filter((i) => i.type === 'CREATED').map((i) => i.orderId)).toEqual(placed);
    expect(new Set(items.map((i) => i.cursor)).size).toBe(items.length);
    expect(tailed.stderr).toMatch(/the feed does not answer .*; trying again in \d+\.\d s/);
    expect(tailed.stderr).toContain('the feed answers again; reading on');
  });
});
