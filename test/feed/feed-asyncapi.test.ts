// D36: /asyncapi.json describes the platform feed's NATS messages. It is a valid AsyncAPI 3.0
// document (checked against the specification's own JSON Schema), it has a channel and a message
// for every kind and type the feed writes, and the items a real order flow writes over HTTP are
// valid against the message of their channel: the document and the code cannot drift apart.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { FEED_DATA, FEED_KINDS } from '../../src/modules/feed/index.js';
import { confirmBody, orderSession } from '../support/order-session.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const asyncApiSchema = createRequire(import.meta.url)('@asyncapi/specs/schemas/3.0.0-without-$id.json') as object;

type Json = Record<string, unknown>;

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_NATS_URL: 'nats://user:secret@nats.internal:4223' } });
  const res = await t.app.inject({ method: 'GET', url: '/asyncapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  doc = res.json();
});
afterAll(() => t?.close());
const { pos } = orderSession(() => t, clock);

describe('/asyncapi.json', () => {
  it('is a valid AsyncAPI 3.0 document', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(asyncApiSchema);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(doc.asyncapi).toBe('3.0.0');
  });

  it('names the broker of CLEAVER_NATS_URL without its credentials', () => {
    const servers = doc.servers as Record<string, Json>;
    expect(servers.nats).toMatchObject({ host: 'nats.internal:4223', protocol: 'nats' });
    expect(JSON.stringify(doc)).not.toContain('secret');
  });

  it('has a channel, a message and a receive operation for every kind and type, on the relay’s subject', () => {
    const channels = doc.channels as Record<string, Json>;
    const operations = doc.operations as Record<string, Json>;
    const expected = FEED_KINDS.flatMap((kind) => Object.keys(FEED_DATA[kind]).map((type) => `${kind}.${type}`));
    expect(Object.keys(channels).sort()).toEqual([...expected].sort());
    for (const id of expected) {
      const [kind, type] = id.split('.');
      expect(channels[id].address).toBe(`cleaver.${kind}.{merchantId}.${type}`);
      const receive = Object.values(operations).filter(
        (op) => (op.channel as { $ref: string }).$ref === `#/channels/${id}`,
      );
      expect(receive).toHaveLength(1);
      expect(receive[0].action).toBe('receive');
    }
  });

  it('answers 304 to the ETag it gave', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/asyncapi.json' });
    const again = await t.app.inject({
      method: 'GET',
      url: '/asyncapi.json',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('describes the items an order flow writes: each is valid against its channel’s message', async () => {
    const me = await createMerchant(t.app, 'Açougue AsyncAPI');
    const order = await createSimpleOrder(t.app, me.merchantId);
    const api = pos(me);
    expect((await api.post(`/v1/orders/${order.id}/confirm`, { ...confirmBody, preparationTime: 15 })).statusCode).toBe(
      202,
    );
    expect((await api.post(`/v1/orders/${order.id}/dispatch`)).statusCode).toBe(202);
    const code = await api.post(`/v1/orders/${order.id}/validateCode`, { deliveryCode: order.deliveryCode });
    expect(code.statusCode).toBe(200);
    const page = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/feed?merchantId=${me.merchantId}`,
      headers: adminHeaders,
    });
    expect(page.statusCode).toBe(200);
    const items = page.json().items as Json[];
    // The order's product, made by hand, first (catalog PRODUCT_CHANGED).
    expect(items.map((i) => i.type)).toEqual([
      'PRODUCT_CHANGED',
      'CREATED',
      'CONFIRMED',
      'DISPATCHED',
      'DELIVERY_CODE_CHECKED',
    ]);

    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const messages = (doc.components as { messages: Record<string, { payload: object; name: string }> }).messages;
    const channels = doc.channels as Record<string, { messages: Record<string, { $ref: string }> }>;
    for (const item of items) {
      const channel = channels[`${item.kind}.${item.type}`];
      const ref = Object.values(channel.messages)[0].$ref.split('/').at(-1) as string;
      const validate = ajv.compile(messages[ref].payload);
      expect(validate(item), `${item.kind} ${item.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // A payload of the wrong type is refused: the message pins its kind and type.
    const confirmed = channels['order.CONFIRMED'];
    const ref = Object.values(confirmed.messages)[0].$ref.split('/').at(-1) as string;
    expect(ajv.compile(messages[ref].payload)({ ...items[2], type: 'DISPATCHED' })).toBe(false);
  });
});
