// Real servers for the client tests: the Cleaver app listening on 127.0.0.1:0, and a tiny
// proxy in front of it that can fail the first N matching requests (to show backoff) and
// records every request it forwards (to count token requests as the server sees them).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type TestAppOptions } from '../../../test/support/test-app.js';

export interface RunningApp extends TestApp {
  url: string;
}

export async function startApp(options: TestAppOptions = {}): Promise<RunningApp> {
  const testApp = await createTestApp(options);
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { ...testApp, url: `http://127.0.0.1:${port}` };
}

export interface InjectedFailure {
  /** Which requests may fail (default: all). */
  match?: (method: string, path: string) => boolean;
  /** How many matching requests fail before the rest pass. */
  count: number;
  status: number;
  headers?: Record<string, string>;
}

export interface ProxyRequestRecord {
  method: string;
  path: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The request body exactly as received. */
  body: string;
}

export interface FailingProxy {
  url: string;
  requests: ProxyRequestRecord[];
  inject(failure: InjectedFailure): void;
  close(): Promise<void>;
}

export async function startFailingProxy(targetUrl: string): Promise<FailingProxy> {
  const target = new URL(targetUrl);
  const requests: ProxyRequestRecord[] = [];
  let failure: (InjectedFailure & { left: number }) | undefined;
  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    if (failure && failure.left > 0 && (failure.match?.(method, path) ?? true)) {
      failure.left--;
      requests.push({ method, path, status: failure.status, headers: req.headers, body: '' });
      req.resume();
      const title = failure.status === 429 ? 'Too Many Requests' : 'Service Unavailable';
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
      res.end(JSON.stringify({ title, status: failure.status }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: { ...req.headers, host: target.host } },
      (answer) => {
        requests.push({
          method,
          path,
          status: answer.statusCode ?? 0,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(f) {
      failure = { ...f, left: f.count };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Records the delays the client asked to wait, and waits none of them (no sleeps in tests). */
export function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    delays.push(ms);
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { delays, sleep };
}

/** Starts the background workers (catalog processing, webhooks…) of a running test app. */
export async function startAppWorkers(app: RunningApp): Promise<{ stop(): Promise<void> }> {
  const { startWorkers } = await import('../../../src/workers.js');
  return startWorkers(app.services);
}
