// D36 (operator-api.md#third-round-the-platform-feed-cuts-weighing): the NATS relay killed
// (SIGKILL) mid-stream and the broker stopped and started again while many merchants' orders keep
// changing: every feed item ends up in the stream exactly once (the re-publishes after the kill
// are dropped by the broker's Nats-Msg-Id dedupe, counted), each merchant's items in feed order.
// The relay runs in real `cleaver serve --role worker` processes on the test's PostgreSQL
// database (a process to kill needs a database other processes share: PostgreSQL only); the
// broker is a `nats-server -js` of the test's own, on a free port with a temporary store, never
// the shared one.
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CleaverProcess, startCleaver, stopAllCleavers } from '../proof/processes.js';
import { createProduct, orderLife } from '../support/orders.js';
import { type OwnNats, startOwnNats } from '../support/own-services.js';
import { createMerchant, createTestApp, type MerchantCredentials, type TestApp } from '../support/test-app.js';
import { createTestDatabase, testDbKind } from '../support/test-db.js';

const STREAM = 'CLEAVER_FAULTS';
const RELAY = `nats:${STREAM}`;
const MERCHANTS = 5;
const LIFE = ['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'TRACKING', 'DISPATCHED', 'TRACKING'];

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface StreamItem {
  seq: number;
  subject: string;
  msgId: string | undefined;
  item: { id: string; cursor: string; kind: string; type: string; merchantId: string; orderId?: string };
}

describe.runIf(testDbKind() === 'postgres')('the NATS relay killed mid-stream and the broker restarted', () => {
  let t: TestApp;
  let nats: OwnNats;
  let nc: NatsConnection | null = null;
  const workers: CleaverProcess[] = [];

  beforeAll(async () => {
    const database = await createTestDatabase();
    t = await createTestApp({ database });
    nats = await startOwnNats();
  }, 60_000);

  afterAll(async () => {
    await nc?.close().catch(() => {});
    await stopAllCleavers();
    await nats?.destroy();
    await t?.close();
    await t?.database.close();
  });

  const worker = () =>
    startCleaver('worker', {
      DATABASE_URL: t.database.url as string,
      CLEAVER_NATS_URL: nats.url,
      CLEAVER_NATS_STREAM: STREAM,
    }).then((w) => {
      workers.push(w);
      return w;
    });

  async function client(): Promise<NatsConnection> {
    if (nc && !nc.isClosed()) return nc;
    nc = await connect({ servers: nats.url, reconnect: false });
    return nc;
  }

  /** Messages in the stream (0 while the relay has not created it yet). */
  async function streamCount(): Promise<number> {
    const jsm = await (await client()).jetstreamManager();
    try {
      return (await jsm.streams.info(STREAM)).state.messages;
    } catch {
      return 0;
    }
  }

  async function streamItems(): Promise<StreamItem[]> {
    const jsm = await (await client()).jetstreamManager();
    const info = await jsm.streams.info(STREAM);
    const out: StreamItem[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(STREAM, { seq });
      out.push({ seq, subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), item: m.json() });
    }
    return out;
  }

  const relayMark = async () =>
    Number(
      (await t.services.db.query<{ position: number }>('SELECT position FROM feed_relays WHERE name = $1', [RELAY]))
        .rows[0]?.position ?? 0,
    );

  const itemCount = async () =>
    Number((await t.services.db.query<{ n: number }>('SELECT count(*) AS n FROM feed_items')).rows[0].n);

  async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await pause(50);
    }
  }

  it('publishes every item exactly once, per merchant in order', async () => {
    const merchants: MerchantCredentials[] = [];
    const products: string[] = [];
    for (let i = 0; i < MERCHANTS; i++) {
      const m = await createMerchant(t.app, `Açougue Falha ${i}`);
      merchants.push(m);
      products.push((await createProduct(t.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id);
    }

    // Writers: every merchant's orders change at once, all through the test, whatever the relay
    // and the broker are doing.
    let writing = true;
    const orderIds: string[] = [];
    const writers = merchants.map(async (m, i) => {
      while (writing) orderIds.push(await orderLife(t.app, m, products[i]));
    });

    try {
      // Relay 1 publishes while the writers write; it is killed the hard way mid-stream.
      const first = await worker();
      await until('relay 1 to publish', async () => (await streamCount()) >= 40);
      first.child.kill('SIGKILL');
      await until('relay 1 to die', async () => !first.alive(), 5_000);
      const inStreamAtKill = await streamItems();
      const markAtKill = await relayMark();
      const lastAtKill = Math.max(...inStreamAtKill.map((m) => Number(m.item.cursor)));
      expect(lastAtKill).toBeGreaterThanOrEqual(markAtKill);
      // Published but not recorded: what a kill between the broker's ack and the mark's update
      // leaves. The mark is also moved back by 10 more, as if the kill had come earlier in a pass:
      // every item from the mark to lastAtKill is then published a second time.
      const rewound = Math.max(0, markAtKill - 10);
      await t.services.db.query('UPDATE feed_relays SET position = $2 WHERE name = $1', [RELAY, rewound]);
      const republished = lastAtKill - rewound;
      expect(republished).toBeGreaterThanOrEqual(10);

      // The broker goes away; relay 2 starts without it and holds the backlog; the broker comes
      // back on the same store.
      await nc?.close();
      nc = null;
      await nats.stop();
      const second = await worker();
      await pause(500);
      expect(second.alive()).toBe(true);
      await nats.start();

      // Its dedupe memory survived the restart: a re-publish of an item is acknowledged as a
      // duplicate of the message already stored.
      const js = (await client()).jetstream();
      const sample = inStreamAtKill[0];
      const ack = await js.publish(sample.subject, new TextEncoder().encode(JSON.stringify(sample.item)), {
        msgID: sample.msgId,
      });
      expect(ack).toMatchObject({ duplicate: true, seq: sample.seq, stream: STREAM });

      await until('relay 2 to publish past the kill', async () => (await streamCount()) > inStreamAtKill.length + 20);
      writing = false;
      await Promise.all(writers);

      // Everything written is stamped and published.
      await until('every item in the stream', async () => {
        const n = await itemCount();
        const unstamped = await t.services.db.query('SELECT 1 FROM feed_items WHERE position IS NULL LIMIT 1');
        return unstamped.rows.length === 0 && (await relayMark()) === (await t.services.feed.headPosition()) && n > 0;
      });
    } finally {
      writing = false;
      await Promise.allSettled(writers);
    }

    const got = await streamItems();
    const { rows } = await t.services.db.query<{ id: string; position: number }>(
      'SELECT id, position FROM feed_items ORDER BY position',
    );
    // Exactly once: as many messages as items, one per item id, and each message's id its item's.
    expect(got).toHaveLength(rows.length);
    expect(new Set(got.map((m) => m.msgId))).toEqual(new Set(rows.map((r) => r.id)));
    for (const m of got) {
      expect(m.msgId).toBe(m.item.id);
      expect(m.subject).toBe(`cleaver.${m.item.kind}.${m.item.merchantId}.${m.item.type}`);
    }
    // Per merchant in feed order, and each order's items in the order its changes were made.
    for (const m of merchants) {
      const cursors = got.filter((g) => g.item.merchantId === m.merchantId).map((g) => Number(g.item.cursor));
      expect(cursors.length).toBeGreaterThan(0);
      expect([...cursors].sort((x, y) => x - y)).toEqual(cursors);
    }
    expect(orderIds.length).toBeGreaterThanOrEqual(MERCHANTS);
    for (const orderId of orderIds) {
      expect(got.filter((g) => g.item.orderId === orderId).map((g) => g.item.type)).toEqual(LIFE);
    }
  }, 60_000);
});
