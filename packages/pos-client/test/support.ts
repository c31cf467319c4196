// Real servers for the client tests: the Cleaver app listening on 127.0.0.1:0, and a tiny
// proxy in front of it that can fail the first N matching requests (an error status to show
// backoff, or a connection reset before or after the server acted), stop and resume listening
// (connection refused), and records every request (to count them as the server sees them).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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

export type InjectedFailure = {
  /** Which requests may fail (default: all). */
  match?: (method: string, path: string) => boolean;
  /** How many matching requests fail before the rest pass. */
  count: number;
} & (
  | { status: number; headers?: Record<string, string> }
  /**
   * The connection is reset without a byte of answer: `before` the request reaches the server,
   * or `after` the server answered it (the answer is thrown away: the server DID act).
   */
  | { reset: 'before' | 'after' }
);

/** Status recorded for a request whose connection the proxy reset. */
export const RESET = 0;

export interface ProxyRequestRecord {
  method: string;
  path: string;
  /** What the client got: the status, or RESET. */
  status: number;
  /** With reset 'after': what the server answered before the proxy reset the connection. */
  upstreamStatus?: number;
  headers: IncomingHttpHeaders;
  /** The request body exactly as received. */
  body: string;
}

export interface FailingProxy {
  url: string;
  requests: ProxyRequestRecord[];
  inject(failure: InjectedFailure): void;
  /** Stops listening and drops every connection: new connections are refused until resume(). */
  pause(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Resets (RST) rather than closes: the client sees ECONNRESET, as from a crashed peer. */
function resetSocket(socket: Socket): void {
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

export async function startFailingProxy(targetUrl: string): Promise<FailingProxy> {
  const target = new URL(targetUrl);
  const requests: ProxyRequestRecord[] = [];
  let failure: (InjectedFailure & { left: number }) | undefined;
  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const failing = failure && failure.left > 0 && (failure.match?.(method, path) ?? true) ? failure : undefined;
    if (failing) failing.left--;
    if (failing && 'status' in failing) {
      requests.push({ method, path, status: failing.status, headers: req.headers, body: '' });
      req.resume();
      const title = failing.status === 429 ? 'Too Many Requests' : 'Service Unavailable';
      res.writeHead(failing.status, { 'content-type': 'application/json', ...failing.headers });
      res.end(JSON.stringify({ title, status: failing.status }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    if (failing?.reset === 'before') {
      req.on('end', () => {
        requests.push({ method, path, status: RESET, headers: req.headers, body: Buffer.concat(chunks).toString() });
        resetSocket(req.socket);
      });
      return;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const record: ProxyRequestRecord = {
          method,
          path,
          status: answer.statusCode ?? 0,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        if (failing?.reset === 'after') {
          // Let the server finish its answer, then cut the client off without any of it.
          answer.resume();
          answer.on('end', () => {
            requests.push({ ...record, status: RESET, upstreamStatus: answer.statusCode });
            resetSocket(req.socket);
          });
          return;
        }
        requests.push(record);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(f) {
      failure = { ...f, left: f.count };
    },
    pause: stop,
    resume: () => listen(port),
    close: () => (server.listening ? stop() : Promise.resolve()),
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
