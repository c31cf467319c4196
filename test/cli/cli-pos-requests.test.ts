// `cleaver pos requests` and `cleaver pos webhooks` as a POS developer runs them,
// against a real server: the key's request log as a table (newest first, failed ones with their
// error and, with --bodies, their redacted body), pages, the --json document, and the webhook
// endpoint's state; usage errors exit 2 with one line naming the problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { connectPos, createKey } from '../opendelivery/od-support.js';
import { createSimpleOrder } from '../support/orders.js';
import { bearer, createMerchant } from '../support/test-app.js';
import { type CliResult, runCli } from './run-cli.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

function expectUsage(r: CliResult, message: string): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toBe(`cleaver: ${message} (usage: cleaver --help)`);
  expect(r.stdout).toBe('');
}

describe('cleaver pos requests / webhooks against a running server', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let posEnv: Record<string, string>;
  let token: string;
  let merchantId: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    const m = await createMerchant(server.app, 'Açougue do Terminal');
    merchantId = m.merchantId;
    token = m.token;
    posEnv = { CLEAVER_URL: server.url, CLEAVER_CLIENT_ID: m.merchantId, CLEAVER_CLIENT_SECRET: m.clientSecret };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('prints the log newest first, failed requests with their error, bodies redacted with --bodies', async () => {
    const ok = await server.app.inject({ url: '/v1/merchant', headers: bearer(token) });
    const missing = await server.app.inject({ url: `/v1/orders/${UNKNOWN}`, headers: bearer(token) });
    const refused = await server.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(token),
      payload: { ordersWebhookURL: 'nope', getMerchantURL: { baseURL: 'https://pos.example.com', apiKey: 'LEAK' } },
    });
    expect([ok.statusCode, missing.statusCode, refused.statusCode]).toEqual([200, 404, 400]);

    const r = await runCli(['pos', 'requests'], posEnv);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+METHOD\s+STATUS\s+MS\s+PATH\s+ERROR\s+REQUEST ID$/);
    // The CLI's own token request is not a /v1 request: these three, newest first.
    expect(lines.slice(1)).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+PUT\\s+400\\s+\\d+\\s+/v1/merchantOnboarding\\s+${refused.json().title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${refused.headers['x-request-id']}$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `GET\\s+404\\s+\\d+\\s+/v1/orders/${UNKNOWN}\\s+Order not found\\s+${missing.headers['x-request-id']}$`,
      ),
    );
    expect(lines[3]).toMatch(new RegExp(`GET\\s+200\\s+\\d+\\s+/v1/merchant\\s+-\\s+${ok.headers['x-request-id']}$`));

    const failed = await runCli(['pos', 'requests', '--failed', '--bodies'], posEnv);
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stdout).not.toContain('/v1/merchant ');
    expect(failed.stdout).toContain(
      `\n${refused.headers['x-request-id']} PUT /v1/merchantOnboarding → 400\n` +
        '{"ordersWebhookURL":"nope","getMerchantURL":{"baseURL":"https://pos.example.com","apiKey":"[redacted]"}}\n',
    );
    expect(failed.stdout).not.toContain('LEAK');

    // Pages: --limit 2 prints how to get the older ones; --json is the API's document.
    const first = await runCli(['pos', 'requests', '--limit', '2', '--json'], posEnv);
    const page = JSON.parse(first.stdout);
    expect(page.items.map((i: { requestId: string }) => i.requestId)).toEqual([
      refused.headers['x-request-id'],
      missing.headers['x-request-id'],
    ]);
    expect(page.next).toMatch(/^\d+$/);
    const table = await runCli(['pos', 'requests', '--limit', '2'], posEnv);
    expect(table.stdout).toContain(`\nolder requests: cleaver pos requests --before ${page.next}\n`);
    const older = JSON.parse((await runCli(['pos', 'requests', '--before', page.next, '--json'], posEnv)).stdout);
    expect(older).toMatchObject({ items: [{ requestId: ok.headers['x-request-id'] }], next: null });
    const only404 = JSON.parse((await runCli(['pos', 'requests', '--status', '404', '--json'], posEnv)).stdout);
    expect(only404.items.map((i: { status: number }) => i.status)).toEqual([404]);
  });

  it('prints the webhook endpoint: unknown before any attempt, with its URL', async () => {
    const onboard = await server.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(token),
      payload: { ordersWebhookURL: 'http://127.0.0.1:9' },
    });
    expect(onboard.statusCode).toBe(200);
    const r = await runCli(['pos', 'webhooks'], posEnv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^url:\s+http:\/\/127\.0\.0\.1:9\/v1\/orderUpdate\nstate:\s+unknown\n/);
    expect(r.stdout).toContain('no webhook attempts yet\n');
    const json = JSON.parse((await runCli(['pos', 'webhooks', '--json'], posEnv)).stdout);
    expect(json).toMatchObject({ endpoint: { merchantId, state: 'unknown' }, attempts: [] });
  });

  it('prints the warning of a request answered all the same (D39: an acknowledgment naming another type)', async () => {
    const key = await createKey(server.app, merchantId, 'opendelivery');
    const od = await connectPos(server.app, key);
    const order = await createSimpleOrder(server.app, merchantId);
    const polled = (await od.get('/v1/events:polling')).json() as Array<{ eventId: string; orderId: string }>;
    const mine = polled.filter((e) => e.orderId === order.id);
    expect(mine).toHaveLength(1);
    const ack = await od.post('/v1/events/acknowledgment', [
      { id: mine[0]?.eventId, orderId: order.id, eventType: 'CONFIRMED' },
    ]);
    expect(ack.statusCode, ack.body).toBe(202);
    const r = await runCli(['pos', 'requests'], {
      ...posEnv,
      CLEAVER_CLIENT_ID: key.merchantId,
      CLEAVER_CLIENT_SECRET: key.clientSecret,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `\nwarning ${ack.headers['x-request-id']} POST /v1/events/acknowledgment → 202: CREATED acknowledged as ` +
        `CONFIRMED (order ${order.id}, eventId ${mine[0]?.eventId}): acknowledged by its eventId; send the eventType as polled\n`,
    );
  });

  it('refuses bad options with exit 2 and one line', async () => {
    expectUsage(await runCli(['pos', 'requests', '--limit', '0'], posEnv), '--limit must be an integer from 1 to 1000');
    expectUsage(
      await runCli(['pos', 'requests', '--status', 'x'], posEnv),
      '--status must be an integer from 100 to 599',
    );
    expectUsage(
      await runCli(['pos', 'requests', '--before', 'yesterday'], posEnv),
      '--before takes the "next" cursor a previous page printed',
    );
    expectUsage(await runCli(['pos', 'requests', 'extra'], posEnv), 'unexpected argument "extra" after "pos requests"');
    expectUsage(await runCli(['pos', 'webhooks', '--failed'], posEnv), '--failed does not apply to "pos webhooks"');
    expectUsage(
      await runCli(['pos', 'token', '--failed'], posEnv),
      '--failed applies to "pos requests" and "pos webhooks" only',
    );
  });
});
