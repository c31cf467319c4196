// `cleaver platform tail` (D36): the platform feed from the command line, with a personal token
// of the platform role: one page with --once and the cursor to go on from, then a live tail whose
// long poll prints an item as it happens; usage errors exit 2 naming the option.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorClient } from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { createSimpleOrder } from '../support/orders.js';
import { ADMIN_TOKEN, bearer, createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver platform tail', { timeout: 60_000 }, () => {
  let server: RunningApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startApp();
    // The marketplace's service token: an operator of the platform role and its personal token.
    const op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
    const account = await op.createOperator({
      email: `marketplace-${Date.now()}@cleaver.test`,
      name: 'Marketplace',
      role: 'platform',
    });
    const token = await op.createOperatorToken(account.id, { name: 'feed' });
    env = { CLEAVER_URL: server.url, CLEAVER_ADMIN_TOKEN: token.token };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('prints a page with --once and the cursor, then follows the feed live', async () => {
    const me = await createMerchant(server.app, 'Açougue Feed CLI');
    const order = await createSimpleOrder(server.app, me.merchantId);

    // Order items only: making the merchant's product by hand is a catalog item too (D36).
    const page = await runCli(
      ['platform', 'tail', '--once', '--kinds', 'order', '--merchant', me.merchantId, '--json'],
      env,
    );
    expect(page.code, page.stderr).toBe(0);
    const items = page.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; orderId: string; cursor: string });
    expect(items.map((i) => [i.type, i.orderId])).toEqual([['CREATED', order.id]]);

    const table = await runCli(['platform', 'tail', '--once', '--kinds', 'order', '--merchant', me.merchantId], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^CURSOR\s+OCCURRED_AT\s+KIND\s+TYPE/);
    expect(table.stdout).toMatch(new RegExp(`order\\s+CREATED\\s+${me.merchantId}\\s+${order.id}`));
    expect(table.stderr).toContain(`go on with --after ${items[0].cursor}`);

    // Live: the tail waits on the feed's long poll; the confirmation shows up while it runs.
    const tail = runCli(
      ['platform', 'tail', '--after', items[0].cursor, '--kinds', 'order', '--merchant', me.merchantId, '--json'],
      env,
      {
        timeoutMs: 4_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    const confirm = await server.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(me.token),
      payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-9' },
    });
    expect(confirm.statusCode).toBe(202);
    const live = await tail;
    expect(live.code, live.stderr).toBe(0);
    const followed = live.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    expect(followed.map((i) => i.type)).toEqual(['CONFIRMED']);
    expect(followed[0].data).toMatchObject({ orderExternalCode: 'PDV-9' });
  });

  it('refuses a wrong option with exit 2, naming it', async () => {
    const kinds = await runCli(['platform', 'tail', '--once', '--kinds', 'orders'], env);
    expect(kinds.code).toBe(2);
    expect(kinds.stderr).toContain('--kinds takes order, merchant, catalog, webhook');
    const after = await runCli(['platform', 'tail', '--once', '--after', 'yesterday'], env);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('--after must be a feed cursor');
    const help = await runCli(['platform', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('cleaver platform tail');
  });
});
