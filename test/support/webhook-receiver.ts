// A real HTTP receiver on 127.0.0.1:0 for webhook tests (style.md#tests: svix TestReceiver). It keeps
// every request (headers and exact body bytes) and answers through a replaceable handler;
// waitFor(predicate) resolves as soon as the received requests satisfy it — no sleeps.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export type ReceiverHandler = (request: ReceivedRequest, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>;

export interface WebhookReceiver {
  /** Base URL to register as ordersWebhookURL (no path, no trailing slash). */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Raw TCP connections accepted (a canary that must see none counts these). */
  connections: number;
  setHandler(handler: ReceiverHandler): void;
  waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  handler: ReceiverHandler = () => ({ status: 200 }),
): Promise<WebhookReceiver> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      const index = requests.push(received) - 1;
      for (const notify of [...waiters]) notify();
      const answer = await current(received, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, answer.delayMs);
        timers.add(t);
      } else send();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    setHandler(next) {
      current = next;
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(requests)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(requests);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${requests.length} requests)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
