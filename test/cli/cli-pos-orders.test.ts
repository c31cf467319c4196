// `cleaver pos orders ACTION ORDER_ID` as a user runs it, against a real server: every order
// endpoint, the --json documents, and usage errors (exit 2, one line naming the problem).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { ORDER_ACTIONS } from '../../src/cli/pos-order-commands.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, createMerchant } from '../support/test-app.js';
import { type CliResult, ROOT, runCli } from './run-cli.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A usage error: exit 2 and exactly one line on stderr, naming the problem. */
function expectUsage(r: CliResult, message: string): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^cleaver: /);
  expect(lines[0]).toContain(message);
  expect(r.stdout).toBe('');
}

describe('cleaver pos orders … against a running server', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let posEnv: Record<string, string>;
  let merchantId: string;
  let productId: string;
  const dir = mkdtempSync(join(tmpdir(), 'cleaver-cli-orders-'));

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    const m = await createMerchant(server.app, 'Açougue Linha de Comando');
    merchantId = m.merchantId;
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
    productId = (await createProduct(server.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const newOrder = () =>
    createOrder(server.app, merchantId, { type: 'DELIVERY', items: [{ productId, quantity: 1.5 }] });
  const pos = (...args: string[]) => runCli(['pos', 'orders', ...args], posEnv);
  const operatorView = async (orderId: string) =>
    (await server.app.inject({ method: 'GET', url: `/admin/v1/orders/${orderId}`, headers: adminHeaders })).json();

  it('show prints the chosen cut, the delivery fee, the total and the payment: its lines add up', async () => {
    const cut = await server.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchantId}/products/${productId}/cuts`,
      headers: adminHeaders,
      payload: { id: 'bife', name: 'Bife', spice: { name: 'Alho' } },
    });
    expect(cut.statusCode).toBe(201);
    const order = await createOrder(server.app, merchantId, {
      type: 'DELIVERY',
      items: [{ productId, quantity: 1.5, cutId: 'bife' }],
    });
    const shown = await pos('show', order.id);
    expect(shown.code, shown.stderr).toBe(0);
    // Two decimals always; 134.85 + 0.00 (the cut) + 7.90 = 142.75.
    expect(shown.stdout).toMatch(/total:\s+142\.75 BRL\n/);
    expect(shown.stdout).toMatch(/Picanha\s+1\.5\s+KG\s+134\.85\n/);
    expect(shown.stdout).toMatch(/\+ Bife – Alho\s+1\s+UN\s+0\.00\n/);
    expect(shown.stdout).toMatch(/Taxa de entrega\s+7\.90\n/);
    expect(shown.stdout).toMatch(/TOTAL\s+142\.75\n/);
    expect(shown.stdout).toMatch(/payment:\n {2}(PREPAID|PENDING) \S+.* 142\.75 BRL/);
  });

  it('a DELIVERY order from show to delivered: confirm reads createdAt, dispatch and track carry tracking, validate-code', async () => {
    const order = await newOrder();
    const shown = await pos('show', order.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`displayId:\\s+${order.displayId}`));
    expect(shown.stdout).toMatch(/Picanha\s+1\.5\s+KG\s+134\.85/);
    const json = JSON.parse((await pos('show', order.id, '--json')).stdout);
    expect(json).toMatchObject({ id: order.id, lastEvent: 'CREATED', type: 'DELIVERY' });

    // createdAt is not given: the command reads it from the order (spec 4.7 needs it).
    const confirmed = await pos(
      'confirm',
      order.id,
      '--external-code',
      'PDV-101',
      '--preparation-time',
      '25',
      '--json',
    );
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(JSON.parse(confirmed.stdout)).toEqual({
      orderId: order.id,
      action: 'confirm',
      accepted: true,
      body: { createdAt: json.createdAt, orderExternalCode: 'PDV-101', preparationTime: 25 },
    });

    // POST /v1/orders/{id}/preparing (D29).
    const preparing = await pos('preparing', order.id);
    expect(preparing.code, preparing.stderr).toBe(0);
    expect(preparing.stdout).toBe(`✓ order ${order.id}: preparation started\n`);

    const ready = await pos('ready', order.id);
    expect(ready.code).toBe(0);
    expect(ready.stdout).toBe(`✓ order ${order.id} is ready for pickup (READY_FOR_PICKUP)\n`);
    const dispatched = await pos('dispatch', order.id, '--lat', '-23.5577', '--lng', '-46.6602', '--courier', 'João');
    expect(dispatched.code, dispatched.stderr).toBe(0);
    const tracked = await pos(
      'track',
      order.id,
      '--event-type',
      'DELIVERY_ARRIVED',
      '--message',
      'Chegando',
      '--eta-minutes',
      '3',
      '--json',
    );
    expect(tracked.code, tracked.stderr).toBe(0);
    const trackedBody = JSON.parse(tracked.stdout).body.deliveryTrackingInfo;
    expect(trackedBody).toMatchObject({
      event: { type: 'DELIVERY_ARRIVED', message: 'Chegando' },
      eta: { deliveryEtaInMinutes: 3 },
    });
    const view = await operatorView(order.id);
    expect(view.status).toBe('DISPATCHED');
    expect(view.tracking.map((t: { body: unknown }) => t.body)).toEqual([
      {
        deliveryTrackingInfo: {
          geoLocalization: { latitude: -23.5577, longitude: -46.6602 },
          deliveryPerson: { name: 'João' },
        },
      },
      { deliveryTrackingInfo: trackedBody },
    ]);

    const wrong = await pos('validate-code', order.id, '--code', 'nope');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`cleaver: 400 Invalid code provided (POST /v1/orders/${order.id}/validateCode)\n`);
    const right = await pos('validate-code', order.id, '--code', order.deliveryCode, '--json');
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toEqual({ orderId: order.id, deliveryCode: order.deliveryCode, valid: true });

    const delivered = await pos('delivered', order.id);
    expect(delivered.code).toBe(0);
    const again = await pos('delivered', order.id, '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: 'api',
      status: 400,
      title: 'Order has already same event type',
      request: `POST /v1/orders/${order.id}/delivered`,
    });
  });

  it('cancellations: cancel (mode MANUAL by default), accept-cancellation, deny-cancellation', async () => {
    const [a, b, c] = [await newOrder(), await newOrder(), await newOrder()];
    const cancel = await pos('cancel', a.id, '--reason', 'Acabou a picanha', '--code', 'UNAVAILABLE_ITEM', '--json');
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout).body).toEqual({
      reason: 'Acabou a picanha',
      code: 'UNAVAILABLE_ITEM',
      mode: 'MANUAL',
    });
    expect((await operatorView(a.id)).lastEvent).toBe('CANCELLATION_REQUESTED');

    for (const o of [b, c]) {
      const asked = await server.app.inject({
        method: 'POST',
        url: `/admin/v1/orders/${o.id}/customerCancellation`,
        headers: adminHeaders,
        payload: {},
      });
      expect(asked.statusCode).toBe(202);
    }
    const accepted = await pos('accept-cancellation', b.id);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect((await operatorView(b.id)).status).toBe('CANCELLED');
    const denied = await pos(
      'deny-cancellation',
      c.id,
      '--reason',
      'Já saiu para entrega',
      '--code',
      'DELIVERY_PROBLEM',
    );
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain('(CANCELLED_DENIED)');
    expect((await operatorView(c.id)).lastEvent).toBe('CANCELLED_DENIED');
    // Nothing left to answer: the server's refusal, exit 1.
    const twice = await pos('accept-cancellation', c.id);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('400 No cancellation request to answer');
  });

  it('--json-body FILE sends the body as is (confirm, track)', async () => {
    const order = await newOrder();
    const confirmFile = join(dir, 'confirm.json');
    writeFileSync(confirmFile, JSON.stringify({ createdAt: order.createdAt, orderExternalCode: 'PDV-FILE' }));
    expect((await pos('confirm', order.id, '--json-body', confirmFile)).code).toBe(0);
    expect((await operatorView(order.id)).orderExternalCode).toBe('PDV-FILE');
    const trackFile = join(dir, 'track.json');
    const info = { vehicle: { type: ['MOTORBIKE_BAG'], licencePlate: 'ABC1D23' } };
    writeFileSync(trackFile, JSON.stringify({ deliveryTrackingInfo: info }));
    const tracked = await pos('track', order.id, '--json-body', trackFile);
    expect(tracked.code, tracked.stderr).toBe(0);
    expect((await operatorView(order.id)).tracking.at(-1).body).toEqual({ deliveryTrackingInfo: info });
  });

  it('details sets when preparation starts; picked-up closes a TAKEOUT order (Open Delivery routes, D29)', async () => {
    const order = await createOrder(server.app, merchantId, { type: 'TAKEOUT', items: [{ productId, quantity: 1 }] });
    expect((await pos('confirm', order.id, '--external-code', 'PDV-TAKE')).code).toBe(0);
    const start = '2030-03-10T18:30:00.000Z';
    const details = await pos('details', order.id, '--preparation-start', start, '--json');
    expect(details.code, details.stderr).toBe(0);
    expect(JSON.parse(details.stdout)).toEqual({
      orderId: order.id,
      action: 'details',
      accepted: true,
      body: { preparationStartDateTime: start },
    });
    const shown = JSON.parse((await pos('show', order.id, '--json')).stdout);
    expect(shown.preparationStartDateTime).toBe(start);
    expect(shown.lastEvent).toBe('CONFIRMED');

    const file = join(dir, 'details.json');
    writeFileSync(file, JSON.stringify({ preparationStartDateTime: '2030-03-10T19:00:00.000Z' }));
    const fromFile = await pos('details', order.id, '--json-body', file);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe(`✓ order ${order.id}: preparation starts at 2030-03-10T19:00:00.000Z\n`);

    const picked = await pos('picked-up', order.id);
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toBe(`✓ order ${order.id} picked up by the customer (PICKED_UP)\n`);
    expect((await operatorView(order.id)).lastEvent).toBe('PICKED_UP');

    // A DELIVERY order is not picked up at the counter: the server's refusal, exit 1.
    const delivery = await newOrder();
    expect((await pos('confirm', delivery.id, '--external-code', 'PDV-DEL')).code).toBe(0);
    const refused = await pos('picked-up', delivery.id, '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: 'api',
      status: 400,
      request: `POST /v1/orders/${delivery.id}/pickedUp`,
    });
  });

  it('an unknown order is the server’s 404', async () => {
    const r = await pos('ready', UNKNOWN);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`cleaver: 404 Order not found (POST /v1/orders/${UNKNOWN}/readyForPickup)\n`);
  });

  it('usage errors: exit 2 with one line naming the problem, before anything is sent', async () => {
    const id = UNKNOWN;
    const missingFile = join(dir, 'missing.json');
    const trackFile = join(dir, 'track-usage.json');
    writeFileSync(trackFile, JSON.stringify({ deliveryTrackingInfo: {} }));
    const cases: Array<[string[], string]> = [
      [
        ['pos', 'order', 'confirm', id],
        'ORDER_ID must be a uuid, got "confirm" (to act on an order: cleaver pos orders confirm ORDER_ID)',
      ],
      [['pos', 'order', id, 'extra'], `unexpected argument "extra" after "pos order ${id}"`],
      [
        ['pos', 'orders'],
        'pos orders needs an action: show, confirm, preparing, details, ready, picked-up, dispatch, delivered, cancel',
      ],
      [['pos', 'orders', 'frobnicate', id], 'unknown action "pos orders frobnicate": one of show, confirm'],
      [['pos', 'orders', 'confirm'], 'missing argument ORDER_ID'],
      [['pos', 'orders', 'confirm', 'PDV-1'], 'ORDER_ID must be a uuid, got "PDV-1"'],
      [['pos', 'orders', 'confirm', id], "pos orders confirm needs --external-code CODE (your POS's own reference)"],
      [
        ['pos', 'orders', 'confirm', id, '--external-code', 'X', '--created-at', 'yesterday'],
        '--created-at must be an ISO 8601 date-time such as 2026-03-10T18:45:00Z, got "yesterday"',
      ],
      [
        ['pos', 'orders', 'confirm', id, '--external-code', 'X', '--preparation-time', '-5'],
        '--preparation-time must be a whole number of minutes above 0, got "-5"',
      ],
      [['pos', 'orders', 'ready', id, 'now'], `unexpected argument "now" after "pos orders ready ${id}"`],
      [['pos', 'orders', 'ready', id, '--reason', 'x'], '--reason does not apply to pos orders ready'],
      [['pos', 'orders', 'cancel', id, '--reason', 'x'], 'pos orders cancel needs --code CODE'],
      [
        ['pos', 'orders', 'cancel', id, '--reason', 'x', '--code', 'NOPE'],
        '--code must be one of SYSTEMIC_ISSUES, DUPLICATE_APPLICATION',
      ],
      [
        ['pos', 'orders', 'cancel', id, '--reason', 'x', '--code', 'RISK_AREA', '--mode', 'SOMETIMES'],
        '--mode must be AUTO or MANUAL, got "SOMETIMES"',
      ],
      [
        ['pos', 'orders', 'deny-cancellation', id, '--code', 'RISK_AREA'],
        'pos orders deny-cancellation needs --reason TEXT',
      ],
      [['pos', 'orders', 'validate-code', id], 'pos orders validate-code needs --code DELIVERY_CODE'],
      [['pos', 'orders', 'details', id], 'pos orders details needs --preparation-start ISO (a date-time)'],
      [
        ['pos', 'orders', 'details', id, '--preparation-start', 'soon'],
        '--preparation-start must be an ISO 8601 date-time such as 2026-03-10T18:45:00Z, got "soon"',
      ],
      [['pos', 'orders', 'picked-up', id, '--reason', 'x'], '--reason does not apply to pos orders picked-up'],
      [
        ['pos', 'orders', 'track', id],
        'pos orders track needs --lat/--lng, --event-type, --eta-minutes, --courier or --json-body FILE',
      ],
      [['pos', 'orders', 'track', id, '--lat', '-23.5'], '--lat and --lng go together'],
      [
        ['pos', 'orders', 'track', id, '--lat', '123', '--lng', '1'],
        '--lat must be a latitude between -90 and 90, got "123"',
      ],
      [
        ['pos', 'orders', 'track', id, '--message', 'oi'],
        '--message and --datetime describe an --event-type: give one',
      ],
      [['pos', 'orders', 'track', id, '--json-body', missingFile], `--json-body: cannot read ${missingFile}`],
      [
        ['pos', 'orders', 'track', id, '--json-body', trackFile, '--courier', 'Ana'],
        '--json-body replaces the other options of pos orders track',
      ],
      [['pos', 'orders', 'show', id, '--bogus'], "Unknown option '--bogus'"],
      [['pos', 'token', '--reason', 'x'], '--reason applies to "pos orders" only'],
      [['pos', 'orders', 'show', id, '--wait'], '--wait does not apply to "pos orders"'],
      [['pos', 'token', 'now'], 'unexpected argument "now" after "pos token"'],
    ];
    // A few at a time: each is a process of its own.
    for (let i = 0; i < cases.length; i += 5) {
      const results = await Promise.all(cases.slice(i, i + 5).map(([args]) => runCli(args, posEnv)));
      for (const [j, r] of results.entries()) expectUsage(r, cases[i + j][1]);
    }
    // With --json the usage error is a JSON document on stdout.
    const json = await runCli(['pos', 'orders', 'confirm', id, '--json'], posEnv);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: 'usage',
      message: "pos orders confirm needs --external-code CODE (your POS's own reference)",
    });
  });

  it('help, cleaver --help and the README list every action', async () => {
    const help = await runCli(['pos', 'orders', '--help']);
    expect(help.code).toBe(0);
    const usage = (await runCli(['--help'])).stdout;
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const action of Object.keys(ORDER_ACTIONS)) {
      expect(help.stdout).toContain(`  ${action} ORDER_ID`);
      expect(usage).toMatch(new RegExp(`[ |]${action}[ |]`));
      expect(readme).toContain(`cleaver pos orders ${action} ORDER_ID`);
    }
    for (const action of ['show', 'confirm', 'preparing', 'ready', 'dispatch', 'delivered', 'cancel']) {
      expect(help.stdout).toContain(`  ${action} ORDER_ID`);
    }
    for (const action of ['accept-cancellation', 'deny-cancellation', 'validate-code', 'track']) {
      expect(help.stdout).toContain(`  ${action} ORDER_ID`);
    }
  });
});
