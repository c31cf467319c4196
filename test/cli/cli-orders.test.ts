import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { createProduct } from '../support/orders.js';
import { ADMIN_TOKEN, createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver orders … and pos events tail against a running server', { timeout: 90_000 }, () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let posEnv: Record<string, string>;
  let adminEnv: Record<string, string>;
  let merchantId: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    const m = await createMerchant(server.app);
    merchantId = m.merchantId;
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
    adminEnv = { CLEAVER_URL: server.url, CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN };
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it('orders create, then pos events tail --once --ack --json prints and acknowledges', async () => {
    const picanha = await createProduct(server.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const burger = await createProduct(server.app, merchantId, { name: 'Hambúrguer', price: 9.5, unit: 'UN' });
    const created = await runCli(
      ['orders', 'create', merchantId, '--product', `${picanha.id}:1.5`, '--product', `${burger.id}:2`, '--json'],
      adminEnv,
    );
    expect(created.code).toBe(0);
    const order = JSON.parse(created.stdout) as { id: string; deliveryCode: string };
    const table = await runCli(['orders', 'create', merchantId, '--product', `${picanha.id}:0.5`], adminEnv);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${picanha.id}\\s+Picanha\\s+0\\.5\\s+KG\\s+44\\.95`));

    const badItem = await runCli(['orders', 'create', merchantId, '--item', 'picanha:-1'], adminEnv);
    expect(badItem.code).toBe(2);
    expect(badItem.stderr).toContain('expected CODE:QUANTITY with QUANTITY > 0');
    const unknown = await runCli(['orders', 'create', merchantId, '--item', 'nao-existe:1'], adminEnv);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^cleaver: 400 /);

    const tail = await runCli(['pos', 'events', 'tail', '--once', '--json'], posEnv);
    expect(tail.code).toBe(0);
    const lines = tail.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((e) => e.eventType === 'CREATED')).toHaveLength(2);
    expect(tail.stderr).toBe('');
    expect(lines.map((e) => e.orderId)).toContain(order.id);

    const acked = await runCli(['pos', 'events', 'tail', '--once', '--ack', '--json'], posEnv);
    expect(acked.code).toBe(0);
    expect(acked.stdout.trim().split('\n')).toHaveLength(2);
    const empty = await runCli(['pos', 'events', 'tail', '--once', '--json'], posEnv);
    expect(empty.stdout.trim()).toBe('');

    const cancel = await runCli(['orders', 'customer-cancel', order.id], adminEnv);
    expect(cancel.code).toBe(0);
    const human = await runCli(['pos', 'events', 'tail', '--once'], posEnv);
    expect(human.stdout).toMatch(new RegExp(`ORDER_CANCELLATION_REQUEST\\s+${order.id}`));

    const missing = await runCli(['pos', 'order', '00000000-0000-4000-8000-000000000000'], posEnv);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 Order not found');
  });
});
