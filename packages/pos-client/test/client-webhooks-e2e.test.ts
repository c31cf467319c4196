// verifyWebhook on notifications the real service sends (D10): a receiver on 127.0.0.1:0,
// registered through the client's onboard(), gets the CREATED notification of a new order.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../test/support/orders.js';
import { ADMIN_TOKEN, createMerchant } from '../../../test/support/test-app.js';
import {
  createEventDeduplicator,
  createOperatorClient,
  createPosClient,
  eventOccurrenceKey,
  runEventLoop,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js';
import { type RunningApp, startApp, startAppWorkers } from './support.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('verifyWebhook on real notifications', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  const waiters: Array<() => void> = [];

  beforeAll(async () => {
    server = await startApp();
    workers = await startAppWorkers(server);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
        for (const w of waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('accepts the platform signatures with the registering key secret, refuses them with another', async () => {
    const m = await createMerchant(server.app);
    const client = createPosClient({ baseUrl: server.url, clientId: m.merchantId, clientSecret: m.clientSecret });
    await client.onboard({ ordersWebhookURL: receiverUrl });
    const product = await createProduct(server.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
    const order = await op.createOrder(m.merchantId, {
      type: 'DELIVERY',
      items: [{ productId: product.id, quantity: 1 }],
    });

    const deadline = Date.now() + 20_000;
    while (!received.some((r) => r.body.toString().includes(order.id))) {
      if (Date.now() > deadline) throw new Error('no webhook received');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    const notification = received.find((r) => r.body.toString().includes(order.id))!;
    expect(notification.path).toBe('/v1/orderUpdate');

    const verified = verifyWebhook(notification.body, notification.headers, m.clientSecret);
    expect(verified.schemes).toEqual(['x-app-signature', 'standard-webhooks']);
    expect(verified.event).toMatchObject({ orderId: order.id, eventType: 'CREATED' });
    expect(verified.webhookId).toBe(notification.headers['webhook-id']);

    expect(() => verifyWebhook(notification.body, notification.headers, 'another-secret')).toThrow(
      WebhookVerificationError,
    );
    const tampered = Buffer.from(notification.body.toString().replace('CREATED', 'CANCELLED'));
    expect(() => verifyWebhook(tampered, notification.headers, m.clientSecret)).toThrow('does not match the body');

    // The same occurrence by polling has the same key: what the webhook handler did, the
    // polling loop (with the same deduplicator) only acknowledges.
    const polled = (await client.pollEvents()).find((e) => e.orderId === order.id && e.eventType === 'CREATED');
    expect(polled).toBeDefined();
    expect(eventOccurrenceKey(polled!)).toBe(eventOccurrenceKey(verified.event));
    const deduplicator = createEventDeduplicator();
    const handledBy: string[] = [];
    expect(await deduplicator.handleOnce(verified.event, async () => void handledBy.push('webhook'))).toBe(true);
    const stop = new AbortController();
    const summary = await runEventLoop(client, async (e) => void handledBy.push(`poll ${e.eventType}`), {
      signal: stop.signal,
      deduplicator,
      intervalMs: 10,
      onAcknowledged: () => stop.abort(),
    });
    expect(handledBy).toEqual(['webhook']);
    expect(summary).toMatchObject({ handled: 0, duplicates: 1, acknowledged: 1 });
    expect(await client.pollEvents()).toEqual([]);
  });
});
