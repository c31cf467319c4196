// `cleaver trigger …` against a real server: the sandbox scenarios from a shell, chained through
// their --json answers, with colour only when asked for, and the production server's 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { SCENARIOS } from '../../src/modules/sandbox/index.js';
import { createProduct } from '../support/orders.js';
import { ADMIN_TOKEN, createMerchant } from '../support/test-app.js';
import { type CliResult, runCli } from './run-cli.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

function expectUsage(r: CliResult, message: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.split('\n').filter(Boolean)).toEqual([expect.stringContaining(message)]);
}

describe('cleaver trigger … against a running sandbox', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let posEnv: Record<string, string>;
  let emptyEnv: Record<string, string>;
  let merchantId: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    const m = await createMerchant(server.app, 'Açougue Gatilho');
    merchantId = m.merchantId;
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
    await createProduct(server.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    await createProduct(server.app, merchantId, { name: 'Hambúrguer', price: 9.5, unit: 'UN' });
    const empty = await createMerchant(server.app, 'Açougue Sem Catálogo');
    emptyEnv = {
      CLEAVER_URL: server.url,
      CLEAVER_CLIENT_ID: empty.merchantId,
      CLEAVER_CLIENT_SECRET: empty.clientSecret,
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('list: a table for people, the server’s array with --json', async () => {
    const table = await runCli(['trigger', 'list'], posEnv);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^SCENARIO\s+EVENTS\s+DESCRIPTION$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(SCENARIOS.map((s) => s.name));
    expect(table.stdout).toMatch(
      /late-customer-cancellation\s+CREATED,DISPATCHED,ORDER_CANCELLATION_REQUEST\s+A DELIVERY/,
    );
    const json = await runCli(['trigger', 'list', '--json'], posEnv);
    expect(JSON.parse(json.stdout).map((s: { name: string }) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
  });

  it('a scenario prints what it created; --json answers chain (the order id into --order and pos events)', async () => {
    const human = await runCli(['trigger', 'cash-with-change'], posEnv);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(
        `^✓ cash-with-change: order \\d{4} ${UUID} DELIVERY INSTANT R\\$ \\d+\\.\\d{2}, delivery code \\d{4}, status CREATED\\n  events: CREATED\\n$`,
      ),
    );
    expect(human.stderr).toBe('');

    const placed = await runCli(['trigger', 'delivery-instant', '--json'], posEnv);
    expect(placed.code).toBe(0);
    const first = JSON.parse(placed.stdout);
    const orderId = first.orders[0].id as string;
    expect(first).toMatchObject({ scenario: 'delivery-instant', events: [{ orderId, eventType: 'CREATED' }] });

    const late = await runCli(['trigger', 'late-customer-cancellation', '--order', orderId, '--json'], posEnv);
    expect(late.code, late.stderr).toBe(0);
    const played = JSON.parse(late.stdout);
    expect(played.orders[0]).toMatchObject({ id: orderId, created: false, status: 'CREATED' });
    expect(played.events.map((e: { eventType: string }) => e.eventType)).toEqual(['ORDER_CANCELLATION_REQUEST']);

    const tail = await runCli(['pos', 'events', 'tail', '--once', '--json'], posEnv);
    const events = tail.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.orderId === orderId)
      .map((e) => e.eventType);
    expect(events.sort()).toEqual(['CREATED', 'ORDER_CANCELLATION_REQUEST']);
  });

  it('all: every scenario, one JSON line each', async () => {
    const all = await runCli(['trigger', 'all', '--json'], posEnv);
    expect(all.code, all.stderr).toBe(0);
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.scenario)).toEqual(SCENARIOS.map((s) => s.name));
    expect(lines.find((l) => l.scenario === 'logistics-delivery').orders[0].status).toBe('DELIVERED');
  });

  it('--merchant plays through the operator API', async () => {
    const r = await runCli(['trigger', 'platform-cancellation', '--merchant', merchantId, '--json'], {
      CLEAVER_URL: server.url,
      CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'CREATED',
      'CANCELLED',
    ]);
  });

  it('a merchant without a catalog: exit 1 with what to do', async () => {
    const r = await runCli(['trigger', 'takeout'], emptyEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'cleaver: 400 The merchant has no AVAILABLE product to order: publish a catalog first: cleaver pos catalog ' +
        'push FILE --wait (cleaver sandbox sample-catalog prints one) (POST /v1/sandbox/scenarios)\n',
    );
  });

  it('usage errors: exit 2, one line', async () => {
    const results = await Promise.all([
      runCli(['trigger'], posEnv),
      runCli(['trigger', 'nope'], posEnv),
      runCli(['trigger', 'takeout', 'now'], posEnv),
      runCli(['trigger', 'takeout', '--order', '00000000-0000-4000-8000-000000000000'], posEnv),
      runCli(['trigger', 'customer-cancellation', '--order', '42'], posEnv),
      runCli(['trigger', 'takeout', '--admin-token', ADMIN_TOKEN], posEnv),
    ]);
    expectUsage(results[0], 'missing argument SCENARIO (cleaver trigger list shows them)');
    expectUsage(results[1], `unknown scenario "nope": one of ${SCENARIOS.map((s) => s.name).join(', ')}`);
    expectUsage(results[2], 'unexpected argument "now" after "trigger takeout"');
    expectUsage(results[3], '--order does not apply to scenario takeout: it places a new order');
    expectUsage(results[4], '--order must be a uuid, got "42"');
    expectUsage(results[5], '--admin-token and --data-dir go with --merchant (the operator API)');
  });

  it('colour only on request: FORCE_COLOR paints, NO_COLOR wins, a pipe gets plain text', async () => {
    const [plain, forced, vetoed, error] = await Promise.all([
      runCli(['trigger', 'takeout'], posEnv),
      runCli(['trigger', 'takeout'], { ...posEnv, FORCE_COLOR: '1' }),
      runCli(['trigger', 'takeout'], { ...posEnv, FORCE_COLOR: '1', NO_COLOR: '1' }),
      runCli(['trigger', 'nope'], { ...posEnv, FORCE_COLOR: '1' }),
    ]);
    for (const r of [plain, forced, vetoed]) expect(r.code).toBe(0);
    expect(plain.stdout).not.toContain('\x1b[');
    expect(vetoed.stdout).not.toContain('\x1b[');
    const ESC = '\x1b';
    expect(forced.stdout.startsWith(`${ESC}[32m✓${ESC}[39m ${ESC}[1mtakeout${ESC}[22m: order `)).toBe(true);
    expect(error.stderr.startsWith(`${ESC}[31mcleaver:${ESC}[39m unknown scenario "nope"`)).toBe(true);
  });
});

describe('cleaver trigger against a production server', { timeout: 60_000 }, () => {
  it('exit 1 with the server’s 404 and what it means', async () => {
    const prod = await startApp({
      env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b' },
    });
    try {
      const m = await createMerchant(prod.app, 'Açougue Produção');
      const r = await runCli(['trigger', 'takeout'], {
        CLEAVER_URL: prod.url,
        CLEAVER_CLIENT_ID: m.merchantId,
        CLEAVER_CLIENT_SECRET: m.clientSecret,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        'cleaver: 404 Route not found (GET /v1/sandbox/scenarios): this server does not offer that endpoint ' +
          '(an older Cleaver, or a sandbox-only route on a production server)\n',
      );
    } finally {
      await prod.close();
    }
  });
});
