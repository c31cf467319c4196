// Tracing (docs/operations.md, "Tracing"): one order followed from the platform's request to the
// webhook delivery, the feed item and the NATS message as one trace, exported over OTLP/HTTP to a
// real receiver (support/otlp-receiver.ts) that decodes what the exporter sends. The platform's
// `traceparent` is honoured (the intake's span is its child); the webhook request and the NATS
// message carry the trace in a `traceparent` header; the POS's later poll and acknowledgement,
// in a trace of the POS's own, link back to it. Tracing is started for this file and shut down
// after it (the worker's next file runs without it). The NATS part needs TEST_NATS_URL.
import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTracing, startTracing, tracingOn } from '../../src/lib/tracing.js';
import { createFeedRelay } from '../../src/modules/feed/index.js';
import { login } from '../console/console-session.js';
import { createProduct } from '../support/orders.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { adminHeaders, bearer } from '../support/test-app.js';
import { cleanups, setup } from '../support/webhook-kit.js';

const natsUrl = process.env.TEST_NATS_URL;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceIdOf = (traceparent: unknown) => String(traceparent).split('-')[1];
const spanIdOf = (traceparent: unknown) => String(traceparent).split('-')[2];

describe('one order, one trace', () => {
  let otlp: OtlpReceiver;
  let tracing: RunningTracing;
  let nc: NatsConnection | undefined;
  const streams: string[] = [];

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    // The JSON encoding of OTLP/HTTP, which the receiver decodes (the default is protobuf).
    tracing = (await startTracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    })) as RunningTracing;
    expect(tracingOn()).toBe(true);
    if (natsUrl) nc = await connect({ servers: natsUrl });
  });
  afterAll(async () => {
    if (nc) {
      const jsm = await nc.jetstreamManager();
      for (const s of streams) await jsm.streams.delete(s).catch(() => {});
      await nc.close();
    }
    while (cleanups.length) await cleanups.pop()?.();
    await tracing?.shutdown();
    await otlp?.close();
  });

  it('runs from the platform’s request through the webhook, the feed and NATS; the POS’s poll and ack link to it', async () => {
    const { t, receiver, merchant, webhooks } = await setup({
      env: { CLEAVER_TRACE_URL_TEMPLATE: 'https://traces.example/trace/{traceId}?view=waterfall' },
    });
    const product = await createProduct(t.app, merchant.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    // The NATS relay starts at the head: only this order's items are its to publish.
    const stream = `CLEAVER_TRACE_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    streams.push(stream);
    await t.services.feed.stamp();
    await t.services.db.query('INSERT INTO feed_relays (name, position, updated_at) VALUES ($1, $2, now())', [
      `test:${stream}`,
      await t.services.feed.headPosition(),
    ]);

    // The platform hands the order in with a trace of its own.
    const trace = hex(16);
    const platformSpan = hex(8);
    const created = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/orders`,
      headers: { ...adminHeaders, traceparent: `00-${trace}-${platformSpan}-01` },
      payload: { type: 'DELIVERY', items: [{ productId: product.id, quantity: 1 }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const orderId = created.json().id as string;

    // The webhook delivery: its request carries the trace beside the Standard Webhooks headers.
    await webhooks.drain();
    const [delivered] = await receiver.waitFor((r) => r.length >= 1);
    expect(delivered.headers['webhook-id']).toBeTruthy();
    expect(delivered.headers['webhook-signature']).toBeTruthy();
    expect(traceIdOf(delivered.headers.traceparent)).toBe(trace);

    // The feed item: read over HTTP, it names the trace of the change that wrote it.
    const feed = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/feed?merchantId=${merchant.merchantId}&kinds=order`,
      headers: adminHeaders,
    });
    expect(feed.statusCode, feed.body).toBe(200);
    const item = (feed.json().items as Array<{ id: string; orderId?: string; traceparent?: string }>).find(
      (i) => i.orderId === orderId,
    );
    expect(traceIdOf(item?.traceparent)).toBe(trace);

    // The NATS message: the relay's publish continues the trace in the message's headers.
    let natsTraceparent: string | undefined;
    if (nc) {
      const relay = createFeedRelay({
        db: t.services.db,
        clock: t.services.clock,
        url: natsUrl as string,
        stream,
        subjectPrefix: stream.toLowerCase(),
        name: `test:${stream}`,
        stamp: t.services.feed.stamp,
      });
      expect(await relay.publishOnce()).toBe(1);
      await relay.stop();
      const jsm = await nc.jetstreamManager();
      const message = await jsm.streams.getMessage(stream, { seq: 1 });
      natsTraceparent = message.header?.get('traceparent');
      expect(traceIdOf(natsTraceparent)).toBe(trace);
      expect(message.json<{ id: string; traceparent: string }>()).toMatchObject({
        id: item?.id,
        traceparent: item?.traceparent,
      });
    }

    // The POS polls and acknowledges later, in a trace of its own: both link to the order's.
    const posTrace = hex(16);
    const posHeaders = { ...bearer(merchant.token), traceparent: `00-${posTrace}-${hex(8)}-01` };
    const polled = await t.app.inject({ method: 'GET', url: '/v1/events:polling', headers: posHeaders });
    expect(polled.statusCode, polled.body).toBe(200);
    const events = polled.json() as Array<{ eventId: string; orderId: string; eventType: string }>;
    expect(events.map((e) => e.orderId)).toEqual([orderId]);
    const acked = await t.app.inject({
      method: 'POST',
      url: '/v1/events/acknowledgment',
      headers: posHeaders,
      payload: events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
    });
    expect(acked.statusCode, acked.body).toBe(202);

    // The operator's view: the order page links the event and the delivery to the trace.
    const session = await login(t.app);
    const page = await session.get(`/console/orders/${orderId}`);
    expect(page.statusCode).toBe(200);
    const links = page.body.match(new RegExp(`href="https://traces.example/trace/${trace}\\?view=waterfall"`, 'g'));
    expect(links?.length).toBeGreaterThanOrEqual(2); // the CREATED event and its webhook delivery
    expect(page.body).toContain(`<code class="trace-id">${trace}</code>`);

    await tracing.flush();
    const spans = await otlp.waitFor(
      (all) =>
        all.some((s) => s.name === 'webhook delivery') &&
        all.filter((s) => s.traceId === posTrace && s.kind === 2).length >= 2 &&
        (!nc || all.some((s) => s.attributes['messaging.system'] === 'nats')),
    );
    const inTrace = spans.filter((s) => s.traceId === trace);
    expect(new Set(inTrace.map((s) => s.service))).toEqual(new Set(['cleaver']));

    // The intake: a server span, child of the platform's span.
    const intake = inTrace.find((s) => s.name === 'POST /admin/v1/merchants/:merchantId/orders');
    expect(intake).toMatchObject({ kind: 2, parentSpanId: platformSpan });
    expect(intake?.attributes['http.response.status_code']).toBe(201);
    // Its statements, on this database, in the same trace (the event's fan-out among them).
    const statements = inTrace.filter(
      (s) => s.attributes['db.system.name'] !== undefined && s.name !== 'db transaction',
    );
    expect(statements.length).toBeGreaterThan(3);
    expect(new Set(statements.map((s) => s.attributes['db.system.name']))).toEqual(
      new Set([t.services.db.kind === 'postgres' ? 'postgresql' : 'pglite']),
    );
    expect(statements.some((s) => String(s.attributes['db.query.text']).includes('INSERT INTO event_receipts'))).toBe(
      true,
    );

    // The delivery: in the trace, and the span the webhook request's traceparent names.
    const delivery = inTrace.find((s) => s.name === 'webhook delivery');
    expect(delivery?.attributes['cleaver.order_id']).toBe(orderId);
    expect(spanIdOf(delivered.headers.traceparent)).toBe(delivery?.spanId);

    // The NATS publish: in the trace, and the span the message's traceparent names.
    if (nc) {
      const publish = inTrace.find((s) => s.attributes['messaging.system'] === 'nats');
      expect(publish).toMatchObject({ kind: 4, spanId: spanIdOf(natsTraceparent) });
      expect(publish?.attributes['messaging.message.id']).toBe(item?.id);
    }

    // The POS's poll and acknowledgement: their own trace, linked to the order's.
    for (const name of ['GET /v1/events::polling', 'POST /v1/events/acknowledgment']) {
      const span = spans.find((s) => s.traceId === posTrace && s.name === name);
      expect(span, name).toBeDefined();
      expect(span?.links.some((l) => l.traceId === trace)).toBe(true);
    }
  }, 60_000);
});
