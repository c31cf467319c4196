// D36: the NATS JetStream relay. Against the shared broker (TEST_NATS_URL; skipped without it),
// each test on a stream of its own: every item published once, subject
// cleaver.<kind>.<merchantId>.<type>, Nats-Msg-Id = the item's id, per merchant in feed order;
// a new relay resumes where the last one stopped, and a re-publish is dropped by the broker.
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeedRelay, subjectOf } from '../../src/modules/feed/index.js';
import { createOrder, createProduct } from '../support/orders.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const natsUrl = process.env.TEST_NATS_URL;

describe.runIf(natsUrl)('the NATS relay', () => {
  let t: TestApp;
  let nc: NatsConnection;
  const streams: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    nc = await connect({ servers: natsUrl });
  });
  afterAll(async () => {
    const jsm = await nc.jetstreamManager();
    for (const s of streams) await jsm.streams.delete(s).catch(() => {});
    await nc.close();
    await t.close();
  });

  const newRelay = (stream: string) =>
    createFeedRelay({
      db: t.services.db,
      clock: t.services.clock,
      url: natsUrl as string,
      stream,
      // A shared broker holds one stream per subject: this test's stream has subjects of its own.
      subjectPrefix: stream.toLowerCase(),
      name: `test:${stream}`,
      stamp: t.services.feed.stamp,
      batch: 5,
      passPages: 1,
    });

  async function messages(stream: string) {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(stream);
    const out: Array<{ subject: string; msgId: string | undefined; item: Record<string, unknown> }> = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq });
      out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), item: m.json() });
    }
    return out;
  }

  it('publishes every item once, per merchant in order; a new relay resumes; re-publishes are dropped', async () => {
    const stream = `CLEAVER_TEST_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    streams.push(stream);
    const a = await createMerchant(t.app, 'Açougue NATS A');
    const b = await createMerchant(t.app, 'Açougue NATS B');
    const pa = await createProduct(t.app, a.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const pb = await createProduct(t.app, b.merchantId, { name: 'Maminha', price: 69.9, unit: 'KG' });
    // Everything before this test is old news: the relay starts at the current head.
    await t.services.feed.stamp();
    const head = await t.services.feed.headPosition();
    await t.services.db.query('INSERT INTO feed_relays (name, position, updated_at) VALUES ($1, $2, now())', [
      `test:${stream}`,
      head,
    ]);
    for (let i = 0; i < 4; i++) {
      await createOrder(t.app, a.merchantId, { type: 'DELIVERY', items: [{ productId: pa.id, quantity: 1 }] });
      await createOrder(t.app, b.merchantId, { type: 'TAKEOUT', items: [{ productId: pb.id, quantity: 1 }] });
    }
    const first = newRelay(stream);
    expect(await first.publishOnce()).toBe(5); // one batch, then "killed"
    await first.stop();
    // The mark is moved back by two items, as if the relay died between publishing and recording.
    await t.services.db.query('UPDATE feed_relays SET position = position - 2 WHERE name = $1', [`test:${stream}`]);
    const second = newRelay(stream);
    let sent = 0;
    for (let n = await second.publishOnce(); n > 0; n = await second.publishOnce()) sent += n;
    expect(second.health()).toMatchObject({ stream, connected: true, lagItems: 0 });
    await second.stop();
    expect(sent).toBe(5); // 2 again (dropped by the broker) + the 3 left

    const got = await messages(stream);
    expect(got).toHaveLength(8);
    expect(new Set(got.map((m) => m.msgId)).size).toBe(8);
    for (const m of got) {
      expect(m.msgId).toBe(m.item.id);
      expect(m.subject).toBe(`${stream.toLowerCase()}.${m.item.kind}.${m.item.merchantId}.${m.item.type}`);
      // The service's own subjects (no prefix given): cleaver.<kind>.<merchantId>.<type>.
      expect(subjectOf(m.item as { kind: string; merchantId: string; type: string })).toBe(
        `cleaver.${m.item.kind}.${m.item.merchantId}.${m.item.type}`,
      );
    }
    for (const merchant of [a.merchantId, b.merchantId]) {
      const cursors = got.filter((m) => m.item.merchantId === merchant).map((m) => Number(m.item.cursor));
      expect(cursors).toHaveLength(4);
      expect([...cursors].sort((x, y) => x - y)).toEqual(cursors);
    }
  });
});
