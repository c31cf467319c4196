// `cleaver listen --forward-to URL` against a running sandbox: the merchant's webhooks reach a
// local receiver on 127.0.0.1 signed exactly as the service signs them (verified with the
// standardwebhooks library and the X-App-Signature), a local failure is retried on the schedule,
// each local answer is the attempt the operator API shows, the workers leave the merchant alone
// meanwhile, and Ctrl-C hands the webhooks back to the registered URL.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../packages/pos-client/test/support.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, type MerchantCredentials } from '../support/test-app.js';
import { deliveries, onboard, verifyStandard } from '../support/webhook-kit.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ROOT, runCli } from './run-cli.js';

interface Listening {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startListening(args: string[], env: Record<string, string>): Listening {
  const child = spawn(process.execPath, ['bin/cleaver.js', 'listen', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('cleaver listen --forward-to against a running sandbox', { timeout: 120_000 }, () => {
  let server: RunningApp;
  let merchant: MerchantCredentials;
  let local: WebhookReceiver;
  let registered: WebhookReceiver;
  let env: Record<string, string>;

  const sessionOpen = async () => {
    const { rows } = await server.database.db.query('SELECT 1 FROM webhook_forwarding WHERE merchant_id = $1', [
      merchant.merchantId,
    ]);
    return rows.length > 0;
  };

  beforeAll(async () => {
    // Retries after 1 s, so the test sees a failed local answer retried and then delivered.
    server = await startApp({ env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,1,1', CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    merchant = await createMerchant(server.app, 'Açougue Escuta');
    env = {
      CLEAVER_URL: server.url,
      CLEAVER_CLIENT_ID: merchant.merchantId,
      CLEAVER_CLIENT_SECRET: merchant.clientSecret,
    };
    // First local answer 503 (retried), then 200.
    local = await startWebhookReceiver((_r, index) =>
      index === 0 ? { status: 503, body: 'warming up' } : { status: 200, body: '{"ok":true}' },
    );
    registered = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server?.services.webhooks.stop();
    await local?.close();
    await registered?.close();
    await server?.close();
  });

  it('without a registered URL: the webhook arrives signed on the local URL, each answer is the recorded attempt', async () => {
    const listening = startListening(['--forward-to', `${local.url}/hooks`, '--json'], env);
    try {
      await until('the listening session', async () => ((await sessionOpen()) ? true : undefined));
      const order = await createSimpleOrder(server.app, merchant.merchantId);

      const received = await local.waitFor((r) => r.length >= 2, 30_000);
      for (const request of received) {
        expect(request.path).toBe('/hooks');
        // Signed as the service signs: Standard Webhooks with the client secret, and X-App-Signature.
        const event = verifyStandard(merchant.clientSecret, request.body, request.headers) as Record<string, unknown>;
        expect(event).toMatchObject({ eventType: 'CREATED', orderId: order.id });
        expect(request.headers['x-app-signature']).toBe(
          createHmac('sha256', merchant.clientSecret).update(request.body).digest('hex'),
        );
        expect(request.headers['x-app-merchantid']).toBe(merchant.merchantId);
        expect(request.headers['user-agent']).toBe('Cleaver-Webhooks/1.0');
      }
      // The retry is the same webhook (same webhook-id, same bytes).
      expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id']);
      expect(received[1].body).toBe(received[0].body);

      // The operator sees both local answers as the delivery's attempts.
      const [delivery] = await until('the delivered attempt', async () => {
        const list = await deliveries(server, merchant.merchantId);
        return list[0]?.status === 'DELIVERED' ? list : undefined;
      });
      expect(delivery).toMatchObject({ orderId: order.id, eventType: 'CREATED', status: 'DELIVERED', attemptCount: 2 });
      expect(delivery.webhookId).toBe(received[0].headers['webhook-id']);
      expect(delivery.attempts).toMatchObject([
        {
          attemptNo: 1,
          statusCode: 503,
          error: 'HTTP 503',
          target: `${local.url}/hooks`,
          responseSnippet: 'warming up',
        },
        { attemptNo: 2, statusCode: 200, error: null, target: `${local.url}/hooks`, responseSnippet: '{"ok":true}' },
      ]);

      // --json: one line per forwarded webhook, with what was recorded.
      const lines = await until('two output lines', () => {
        const l = listening.stdout().trim().split('\n').filter(Boolean);
        return l.length >= 2 ? l.map((x) => JSON.parse(x)) : undefined;
      });
      expect(lines).toMatchObject([
        {
          deliveryId: delivery.id,
          eventType: 'CREATED',
          attemptNo: 1,
          statusCode: 503,
          recorded: { status: 'PENDING' },
        },
        {
          deliveryId: delivery.id,
          eventType: 'CREATED',
          attemptNo: 2,
          statusCode: 200,
          recorded: { status: 'DELIVERED' },
        },
      ]);
    } finally {
      listening.child.kill('SIGINT');
    }
    expect(await listening.exited).toBe(0);
    // Ctrl-C ends the session at once.
    expect(await sessionOpen()).toBe(false);
    expect(listening.stderr()).toBe('');
  });

  it('with a registered URL: the workers leave the merchant to the listener, and take over after Ctrl-C', async () => {
    await onboard(server, merchant, registered.url);
    local.setHandler(() => ({ status: 204 }));
    const before = local.requests.length;
    const listening = startListening(['--forward-to', `${local.url}/other`], { ...env, NO_COLOR: '1' });
    try {
      await until('the listening session', async () => ((await sessionOpen()) ? true : undefined));
      await createSimpleOrder(server.app, merchant.merchantId);
      // A worker run meanwhile claims nothing of this merchant's.
      expect(await server.services.webhooks.runOnce()).toBe(0);
      await local.waitFor((r) => r.length > before);
      const line = await until('a line', () => (listening.stdout().includes('\n') ? listening.stdout() : undefined));
      // Plain lines when piped: no escape codes.
      expect(line).toMatch(/→ CREATED order [0-9a-f-]{36} attempt 1 {2}\[204\] \d+ ms {2}delivered\n$/);
      expect(line).not.toContain('\x1b[');
    } finally {
      listening.child.kill('SIGINT');
    }
    expect(await listening.exited).toBe(0);
    expect(listening.stderr()).toContain(`Ready: forwarding the webhooks of merchant ${merchant.merchantId}`);
    expect(registered.requests).toHaveLength(0);
    // After Ctrl-C the next event goes to the registered URL through the workers again.
    expect(await sessionOpen()).toBe(false);
    await createSimpleOrder(server.app, merchant.merchantId);
    expect(await server.services.webhooks.runOnce()).toBe(1);
    expect(registered.requests).toHaveLength(1);
    expect(registered.requests[0].path).toBe('/v1/orderUpdate');
  });

  it('a report with a lease that does not hold the delivery: 409; an unknown delivery: 404', async () => {
    const token = merchant.token;
    const [delivery] = await deliveries(server, merchant.merchantId);
    const stale = await server.app.inject({
      method: 'POST',
      url: `/v1/sandbox/listen/deliveries/${delivery.id}/attempts`,
      headers: bearer(token),
      payload: { leaseToken: '00000000-0000-4000-8000-000000000000', statusCode: 200, durationMs: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      status: 409,
      title: expect.stringMatching(/^leaseToken: this delivery is no longer leased to this listener/),
    });
    const unknown = await server.app.inject({
      method: 'POST',
      url: '/v1/sandbox/listen/deliveries/00000000-0000-4000-8000-000000000001/attempts',
      headers: bearer(token),
      payload: { leaseToken: '00000000-0000-4000-8000-000000000000', statusCode: 200, durationMs: 1 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: 404, title: 'Webhook delivery not found' });
    const bad = await server.app.inject({
      method: 'POST',
      url: '/v1/sandbox/listen',
      headers: bearer(token),
      payload: { forwardTo: 'not a url' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400, title: expect.stringContaining('forwardTo') });
  });

  it('usage errors: no --forward-to, or not an http URL (exit 2)', async () => {
    const none = await runCli(['listen'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('missing --forward-to URL');
    const ftp = await runCli(['listen', '--forward-to', 'ftp://localhost/x'], env);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('--forward-to must be an http or https URL');
  });
});

describe('cleaver listen against a production server', { timeout: 60_000 }, () => {
  it('exit 1 with the server’s 404: listening is sandbox only', async () => {
    const prod = await startApp({
      env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b' },
    });
    try {
      const m = await createMerchant(prod.app, 'Açougue Produção');
      const r = await runCli(['listen', '--forward-to', 'http://127.0.0.1:9/hooks'], {
        CLEAVER_URL: prod.url,
        CLEAVER_CLIENT_ID: m.merchantId,
        CLEAVER_CLIENT_SECRET: m.clientSecret,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('cleaver: 404 Route not found (POST /v1/sandbox/listen)');
      const res = await prod.app.inject({ method: 'DELETE', url: '/v1/sandbox/listen', headers: adminHeaders });
      expect(res.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
