// A deliberately sloppy POS for the homologation tests: every mistake the criteria look for,
// and nothing else. It gets a new token for every request, polls every 20 ms with no backoff
// (not even after a 429 or 503), acknowledges an event before acting on it, acts on the
// webhook AND on the polled copy of the same event, and takes any webhook without checking its
// signature, and retries a 429 or 503 at once. Otherwise it answers orders in time: confirms, denies a cancellation of an order
// already out and delivers it, dispatches with tracking, and validates the code before delivery.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SloppyPos {
  webhookUrl: string;
  stop(): Promise<void>;
}

export async function startSloppyPos(options: {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  deliveryCodeOf: (orderId: string) => Promise<string | undefined>;
}): Promise<SloppyPos> {
  const { baseUrl } = options;
  let stopped = false;
  const token = async (): Promise<string> => {
    const r = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
      }),
    });
    return ((await r.json()) as { access_token: string }).access_token;
  };
  // A new token for every single request (spec 5.1 says: reuse it), and a 429 or 503 sent
  // again at once, up to three times, whatever Retry-After says.
  const call = async (method: string, path: string, body?: unknown) => {
    let r: Response;
    for (let attempt = 0; ; attempt++) {
      r = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await token()}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if ((r.status !== 429 && r.status !== 503) || attempt === 3) break;
      await r.body?.cancel();
    }
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const order = (id: string, action: string, body: unknown = {}) => call('POST', `/v1/orders/${id}/${action}`, body);

  const confirm = async (orderId: string) => {
    const o = (await call('GET', `/v1/orders/${orderId}`)).body as { createdAt: string };
    await order(orderId, 'confirm', { createdAt: o?.createdAt, orderExternalCode: 'SLOPPY', preparationTime: 10 });
  };

  // Webhooks: any signature, or none, is fine by it; a CREATED is confirmed at once.
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { orderId: string; eventType: string };
        if (event.eventType === 'CREATED' && !stopped) confirm(event.orderId).catch(() => {});
      } catch {}
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await call('PUT', '/v1/merchantOnboarding', { ordersWebhookURL: webhookUrl });

  const seen = { DISPATCHED: new Set<string>(), ORDER_CANCELLATION_REQUEST: new Set<string>() };
  type Polled = { eventId: string; orderId: string; eventType: string };
  async function handle(event: Polled) {
    // Acknowledged first, acted on after (spec 4.13 says the opposite).
    await call('POST', '/v1/events/acknowledgment', [
      { id: event.eventId, orderId: event.orderId, eventType: event.eventType },
    ]);
    const id = event.orderId;
    if (event.eventType === 'CREATED') {
      await confirm(id);
      const o = (await call('GET', `/v1/orders/${id}`)).body as { type: string; lastEvent?: string };
      if (o.type === 'TAKEOUT') await order(id, 'readyForPickup');
      else if (o.lastEvent === 'CONFIRMED' && !seen.ORDER_CANCELLATION_REQUEST.has(id)) {
        await order(id, 'dispatch');
        await order(id, 'tracking', { deliveryTrackingInfo: { event: { type: 'DELIVERY_ONGOING' } } });
        await deliver(id);
      }
    } else if (event.eventType === 'ORDER_CANCELLATION_REQUEST') {
      if (seen.DISPATCHED.has(id)) {
        const denied = await order(id, 'denyCancellation', { reason: 'Já saiu', code: 'DELIVERY_PROBLEM' });
        if (denied.status < 300) await deliver(id);
      } else await order(id, 'acceptCancellation');
    }
  }
  async function deliver(id: string) {
    const code = await options.deliveryCodeOf(id);
    if (code === undefined) return;
    if ((await order(id, 'validateCode', { deliveryCode: code })).status === 200) await order(id, 'delivered');
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        const polled = await call('GET', '/v1/events:polling');
        if (polled.status === 200) {
          const events = polled.body as Polled[];
          for (const e of events) {
            if (e.eventType === 'DISPATCHED' || e.eventType === 'ORDER_CANCELLATION_REQUEST') {
              seen[e.eventType].add(e.orderId);
            }
          }
          for (const event of events) {
            await handle(event).catch(() => {});
          }
        }
      } catch {}
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  return {
    webhookUrl,
    async stop() {
      stopped = true;
      await loop;
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
