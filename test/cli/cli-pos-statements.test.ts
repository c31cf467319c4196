// `cleaver pos statements` (D45) as a shop runs it, through @cleaver/pos-client against a real
// server: the list as a table and as the service's CSV, one statement, its lines, a closed
// statement's totals; usage errors exit 2 with one line naming the problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { confirmBody } from '../support/order-session.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant } from '../support/test-app.js';
import { runCli } from './run-cli.js';

describe('cleaver pos statements against a running server', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let posEnv: Record<string, string>;
  let statementId: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    const me = await createMerchant(server.app, 'Açougue da Planilha');
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: me.merchantId, CLEAVER_CLIENT_SECRET: me.clientSecret };
    const product = await createProduct(server.app, me.merchantId, { name: 'Alcatra', price: 59.9, unit: 'KG' });
    const order = await createOrder(server.app, me.merchantId, {
      type: 'TAKEOUT',
      items: [{ productId: product.id, quantity: 2 }],
      payments: { methods: [{ value: 119.8, type: 'PENDING', method: 'DEBIT' }] },
    });
    const confirmed = await server.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(me.token),
      payload: confirmBody,
    });
    expect(confirmed.statusCode).toBe(202);
    const concluded = await server.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${order.id}/events`,
      headers: adminHeaders,
      payload: { eventType: 'CONCLUDED' },
    });
    expect(concluded.statusCode).toBe(202);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the statements as a table and as CSV, shows one and its lines', async () => {
    const list = await runCli(['pos', 'statements'], posEnv);
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID\s+PERIOD START\s+PERIOD END\s+STATE\s+GROSS\s+COMMISSION\s+COLLECTED\s+NET$/);
    // 119.80 concluded, 12 % commission (14.38), all of it paid at the counter: net −14.38.
    expect(rows[1]).toMatch(/\s+OPEN\s+119\.80\s+14\.38\s+119\.80\s+-14\.38$/);
    statementId = rows[1].split(/\s+/)[0];

    const csv = await runCli(['pos', 'statements', 'list', '--csv', '--state', 'OPEN'], posEnv);
    expect(csv.code, csv.stderr).toBe(0);
    const csvRows = csv.stdout.trimEnd().split('\r\n');
    expect(csvRows[0]).toMatch(/^id,merchantId,periodStart,periodEnd,state,gross,/);
    expect(csvRows[1]).toContain(`${statementId},`);
    expect(csvRows[1]).toContain(',OPEN,119.80,0.00,0.00,14.38,119.80,0.00,-14.38,BRL,');

    const show = await runCli(['pos', 'statements', 'show', statementId], posEnv);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^net:\s+-14\.38$/m);

    const lines = await runCli(['pos', 'statements', 'lines', statementId, '--csv'], posEnv);
    expect(lines.code, lines.stderr).toBe(0);
    expect(
      lines.stdout
        .trimEnd()
        .split('\r\n')
        .map((r) => r.split(',').slice(2, 5)),
    ).toEqual([
      ['kind', 'value', 'netEffect'],
      ['ORDER', '119.80', '119.80'],
      ['COMMISSION', '14.38', '-14.38'],
      ['COLLECTED_BY_MERCHANT', '119.80', '-119.80'],
    ]);
    const json = await runCli(['pos', 'statements', 'lines', statementId, '--json'], posEnv);
    expect(JSON.parse(json.stdout).lines.map((l: { kind: string }) => l.kind)).toEqual([
      'ORDER',
      'COMMISSION',
      'COLLECTED_BY_MERCHANT',
    ]);
  });

  it('refuses what it cannot do with one line and exit 2, and a missing statement with the API’s 404', async () => {
    for (const [args, message] of [
      [['pos', 'statements', 'show', 'nope'], 'STATEMENT_ID must be a uuid, got "nope"'],
      [['pos', 'statements', 'list', '--state', 'DONE'], '--state takes OPEN, CLOSED, PAID'],
      [['pos', 'statements', 'sum'], 'unknown statements action "sum": list, show or lines'],
      [['pos', 'token', '--csv'], '--csv applies to "pos statements" only'],
    ] as const) {
      const r = await runCli([...args], posEnv);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(`cleaver: ${message} (usage: cleaver --help)`);
    }
    const missing = await runCli(['pos', 'statements', 'show', '00000000-0000-4000-8000-000000000000'], posEnv);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Statement not found');
  });
});
