// A marketplace's consumer of the platform feed (docs/platform-feed.md), both ways:
//   HTTP:  CLEAVER_URL=http://127.0.0.1:8080 CLEAVER_TOKEN=cop_… npx tsx consumer.ts http
//   NATS:  NATS_URL=nats://127.0.0.1:4222 [STREAM=CLEAVER] [FILTER=cleaver.order.>] npx tsx consumer.ts nats
// It prints one line per item. A real consumer keeps its cursor (HTTP) or uses a durable
// consumer (NATS) so that it resumes where it stopped; here the HTTP cursor lives in memory, which
// is enough to outlive a restart of the service (not one of the consumer).
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

/** The pause after a failed read: doubled after each next failure, up to 30 s, jittered. */
const backoff = (failures: number) => Math.min(30_000, 500 * 2 ** failures) * (0.75 + Math.random() / 2);

/**
 * Follows `next` with a long poll: no sleep of our own, no item missed or repeated. When the
 * service does not answer (a restart, a deploy: refused connections, 502–504, a 503 while it
 * drains) it waits, tries again with a growing pause and reads on from the same cursor; a refusal
 * (a bad token: 401, 403) stops it, since trying again would not help.
 */
async function followHttp(): Promise<void> {
  const base = process.env.CLEAVER_URL ?? 'http://127.0.0.1:8080';
  const token = process.env.CLEAVER_TOKEN ?? '';
  let after = process.env.AFTER ?? '0';
  let failures = 0;
  for (;;) {
    let page: { items: FeedItem[]; next: string };
    try {
      const res = await fetch(`${base}/admin/v1/feed?after=${after}&limit=500&wait=25`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(40_000),
      });
      if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        console.error(`feed: ${res.status} ${await res.text()}`);
        process.exit(1);
      }
      if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
      page = (await res.json()) as { items: FeedItem[]; next: string };
    } catch (error) {
      const ms = backoff(failures++);
      const reason =
        error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : error;
      console.error(`feed: no answer (${reason}); trying again in ${(ms / 1000).toFixed(1)} s after ${after}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      continue;
    }
    failures = 0;
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
