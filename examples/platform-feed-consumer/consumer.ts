// A marketplace's consumer of the platform feed (docs/platform-feed.md), both ways:
//   HTTP:  CLEAVER_URL=http://127.0.0.1:8080 CLEAVER_TOKEN=cop_… npx tsx consumer.ts http
//   NATS:  NATS_URL=nats://127.0.0.1:4222 [STREAM=CLEAVER] [FILTER=cleaver.order.>] npx tsx consumer.ts nats
// It prints one line per item. A real consumer keeps its cursor (HTTP) or uses a durable
// consumer (NATS) so that it resumes where it stopped; here the HTTP cursor lives in memory.
import { AckPolicy, connect, DeliverPolicy } from 'nats';

interface FeedItem {
  id: string;
  cursor: string;
  kind: string;
  type: string;
  merchantId: string;
  orderId?: string;
  data: Record<string, unknown>;
}

const show = (item: FeedItem) =>
  console.log(
    `${item.cursor} ${item.kind} ${item.type} merchant=${item.merchantId}${item.orderId ? ` order=${item.orderId}` : ''} ${JSON.stringify(item.data)}`,
  );

/** Follows `next` with a long poll: no sleep of our own, no item missed or repeated. */
async function followHttp(): Promise<void> {
  const base = process.env.CLEAVER_URL ?? 'http://127.0.0.1:8080';
  const token = process.env.CLEAVER_TOKEN ?? '';
  let after = process.env.AFTER ?? '0';
  for (;;) {
    const res = await fetch(`${base}/admin/v1/feed?after=${after}&limit=500&wait=25`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`feed: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { items: FeedItem[]; next: string };
    for (const item of page.items) show(item);
    after = page.next;
  }
}

/** A durable pull consumer on the stream; NATS 2.9 takes one filter subject per consumer. */
async function followNats(): Promise<void> {
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  const stream = process.env.STREAM ?? 'CLEAVER';
  const durable = process.env.DURABLE ?? 'example-consumer';
  const jsm = await nc.jetstreamManager();
  await jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: process.env.FILTER ?? 'cleaver.>',
  });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  for await (const message of await consumer.consume()) {
    show(message.json<FeedItem>());
    message.ack();
  }
}

await (process.argv[2] === 'nats' ? followNats() : followHttp());
