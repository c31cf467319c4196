// runEventLoop against a real server when some events cannot be handled (issue "Integrator kit"):
// an order another key already confirmed answers 400 `Order has already same event type`, a
// cancelled order answers 400 `Order is CANCELLED`; those events are reported and acknowledged.
// An order whose handling fails for a transient reason is retried with its own backoff while
// the loop keeps polling at its interval and handles everything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, addIntegrationKey, createMerchant } from '../../../test/support/test-app.js';
import {
  CleaverApiError,
  createOperatorClient,
  createPosClient,
  type OperatorClient,
  runEventLoop,
} from '../src/index.js';
import { type RunningApp, startApp, startAppWorkers } from './support.js';

describe('runEventLoop against a real server: events that fail', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let op: OperatorClient;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000', CLEAVER_RATE_LIMIT_READ: '100000' } });
    workers = await startAppWorkers(server);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await workers?.stop();
    await server?.close();
  });

  it('acknowledges what can never succeed, retries the rest on its own backoff, keeps polling at its interval', async () => {
    const m = await createMerchant(server.app);
    const client = createPosClient({ baseUrl: server.url, clientId: m.merchantId, clientSecret: m.clientSecret });
    const colleague = createPosClient({
      baseUrl: server.url,
      clientId: m.merchantId,
      clientSecret: (await addIntegrationKey(server.app, m.merchantId)).clientSecret,
    });
    const productId = (await op.createProduct(m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id as string;
    const place = () => op.createOrder(m.merchantId, { type: 'DELIVERY', items: [{ productId, quantity: 1 }] });

    const confirmedElsewhere = await place();
    await colleague.confirm(confirmedElsewhere.id, {
      createdAt: confirmedElsewhere.createdAt,
      orderExternalCode: 'OUTRO-PDV',
    });
    const cancelled = await place();
    await op.customerCancellation(cancelled.id, 'desisti');
    await colleague.acceptCancellation(cancelled.id);
    const good = await place();
    const posDown = await place();

    const lines: Array<{ level: string; fields: Record<string, unknown>; message?: string }> = [];
    const at = (level: string) => (fields: object, message?: string) =>
      lines.push({ level, fields: fields as Record<string, unknown>, message });
    const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };

    const posDownAttempts: number[] = [];
    const started = Date.now();
    const summary = await runEventLoop(
      client,
      async (event) => {
        if (event.eventType !== 'CREATED') return;
        if (event.orderId === posDown.id) {
          posDownAttempts.push(Date.now() - started);
          throw new Error('POS database unavailable');
        }
        const order = await client.getOrder(event.orderId);
        await client.confirm(order.id, { createdAt: order.createdAt, orderExternalCode: `PDV-${order.displayId}` });
      },
      {
        signal: AbortSignal.timeout(2_500),
        intervalMs: 100,
        errorDelayMs: 1_000,
        maxErrorDelayMs: 4_000,
        logger,
      },
    );

    // The polling kept its pace (about every 100 ms): the old loop slowed the whole loop to 3
    // polls here (waiting 1 s, 2 s, 4 s after each batch with a failure).
    expect(summary.polls).toBeGreaterThanOrEqual(8);
    // The transient failure was retried on its own backoff (next poll, then 1 s, 2 s), not at
    // every poll.
    expect(posDownAttempts.length).toBeGreaterThanOrEqual(2);
    expect(posDownAttempts.length).toBeLessThanOrEqual(4);
    expect(summary.polls).toBeGreaterThan(posDownAttempts.length + 3);

    expect((await client.getOrder(good.id)).lastEvent).toBe('CONFIRMED');
    // Only the order whose handling keeps failing is still pending for this key.
    const pending = await client.pollEvents();
    expect(pending.map((e) => [e.orderId, e.eventType])).toEqual([[posDown.id, 'CREATED']]);

    const givenUp = lines.filter((l) => l.message?.startsWith('event handler failed; acknowledging'));
    expect(
      givenUp.map((l) => [(l.fields.event as { orderId: string }).orderId, (l.fields.err as CleaverApiError).title]),
    ).toEqual([
      [confirmedElsewhere.id, 'Order has already same event type'],
      [cancelled.id, 'Order is CANCELLED'],
    ]);
    expect(givenUp.every((l) => l.level === 'warn' && l.fields.err instanceof CleaverApiError)).toBe(true);
    const retried = lines.filter((l) => l.message?.startsWith('event handler failed; the event stays pending'));
    expect(retried).toHaveLength(posDownAttempts.length);
    expect(summary).toMatchObject({ givenUp: 2, failed: 2 + posDownAttempts.length });
  });
});
