// Issue "Hardening" 9 (D31): SIGTERM drains instead of resetting. A real `cleaver serve` process
// under a steady stream of requests gets SIGTERM: readiness turns 503 at once, every request sent
// before the listener closes is answered (none reset), answers carry `Connection: close`, a slow
// upload in flight completes, an idle keep-alive connection does not hold the exit, and the
// process exits 0 well within the deadline. Database-independent: runs once, on PGlite.
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { createShutdownState } from '../../src/lifecycle/shutdown-state.js';
import { registerShutdownHooks } from '../../src/plugins/health.js';
import { adminHeaders } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { startCleaver, stopAllCleavers } from './processes.js';

const DRAIN_MS = 1_500;
const TIMEOUT_MS = 6_000;

/** POST /admin/v1/merchants with the body sent in pieces over `ms`: a request in flight. */
function slowCreate(url: URL, ms: number): Promise<{ status: number; body: string }> {
  const body = Buffer.from(JSON.stringify({ name: 'Açougue Devagar' }));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /admin/v1/merchants HTTP/1.1\r\nHost: x\r\nAuthorization: ${adminHeaders.authorization}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      const pieces = 5;
      const size = Math.ceil(body.length / pieces);
      for (let i = 0; i < pieces; i++) {
        setTimeout(() => socket.write(body.subarray(i * size, (i + 1) * size)), (ms / pieces) * (i + 1));
      }
    });
    let data = '';
    socket.on('data', (d) => {
      data += d;
      const [head, rest] = data.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? -1);
      if (rest !== undefined && Buffer.byteLength(rest) >= length) {
        resolve({ status: Number(head.split(' ')[1]), body: rest });
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

if (testDbKind() === 'pglite') {
  describe('SIGTERM', () => {
    afterAll(() => stopAllCleavers());

    test('drains, answers everything sent before the listener closed, and exits 0 in time', async () => {
      const server = await startCleaver('all', {
        CLEAVER_SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
        CLEAVER_SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
      });
      const base = new URL(server.url as string);
      const agent = new Agent({ keepAliveTimeout: 60_000, connections: 8 });
      const idle = new Agent({ keepAliveTimeout: 60_000, connections: 1 });
      // An idle keep-alive connection, open before the signal and never used again.
      await (await request(`${server.url}/health/live`, { dispatcher: idle })).body.text();

      type Outcome = { sentAt: number; status: number; connection: string | null; error: string | null };
      const outcomes: Outcome[] = [];
      let running = true;
      const client = async () => {
        while (running) {
          const sentAt = performance.now();
          try {
            const res = await request(`${server.url}/admin/v1/merchants?limit=1`, {
              dispatcher: agent,
              headers: adminHeaders,
            });
            await res.body.text();
            outcomes.push({
              sentAt,
              status: res.statusCode,
              connection: String(res.headers.connection ?? ''),
              error: null,
            });
          } catch (error) {
            outcomes.push({
              sentAt,
              status: 0,
              connection: null,
              error: (error as { code?: string }).code ?? String(error),
            });
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      };
      const clients = [client(), client(), client(), client()];
      await new Promise((resolve) => setTimeout(resolve, 500));

      const slow = slowCreate(base, DRAIN_MS + 800); // straddles the end of the drain
      await new Promise((resolve) => setTimeout(resolve, 100));
      const exited = new Promise<number>((resolve) => server.child.once('exit', (code) => resolve(code ?? -1)));
      const signalAt = performance.now();
      server.child.kill('SIGTERM');

      await new Promise((resolve) => setTimeout(resolve, 100));
      const ready = await request(`${server.url}/health/ready`);
      expect(ready.statusCode).toBe(503);
      expect(await ready.body.json()).toEqual({ title: 'Shutting down', status: 503 });

      const slowAnswer = await slow;
      const code = await exited;
      const exitedAfterMs = performance.now() - signalAt;
      running = false;
      await Promise.all(clients);
      await agent.close();
      await idle.destroy();

      expect(code).toBe(0);
      // Not the 72 s keep-alive wait of before: the drain, the slow upload, then out.
      expect(exitedAfterMs).toBeLessThan(TIMEOUT_MS);
      expect(slowAnswer.status).toBe(201);
      expect(JSON.parse(slowAnswer.body).name).toBe('Açougue Devagar');

      const listenerClosedAt = signalAt + DRAIN_MS;
      const beforeClose = outcomes.filter((o) => o.sentAt < listenerClosedAt - 50);
      expect(beforeClose.length).toBeGreaterThan(20);
      // Nothing sent before the listener closed was reset or refused.
      expect(beforeClose.filter((o) => o.status !== 200)).toEqual([]);
      // Answers during the drain tell clients to go elsewhere next time.
      const duringDrain = beforeClose.filter((o) => o.sentAt > signalAt + 50);
      expect(duringDrain.length).toBeGreaterThan(5);
      expect(duringDrain.every((o) => o.connection === 'close')).toBe(true);
      // After it closed: refused connections (another instance's turn), never a hang.
      for (const o of outcomes.filter((o) => o.sentAt > listenerClosedAt + 200)) {
        expect(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 503]).toContain(o.error ?? o.status);
      }
    }, 60_000);
  });
}

describe('a request that reaches a closing process (D31)', () => {
  test('gets 503 {title, status} with Retry-After and Connection: close', async () => {
    const Fastify = (await import('fastify')).default;
    const { registerErrorHandling } = await import('../../src/plugins/error-handler.js');
    const app = Fastify();
    const shutdown = createShutdownState();
    registerShutdownHooks(app, shutdown);
    registerErrorHandling(app);
    app.get('/x', async () => ({ ok: true }));
    expect((await app.inject({ url: '/x' })).statusCode).toBe(200);
    shutdown.enter('draining');
    const draining = await app.inject({ url: '/x' });
    expect(draining.statusCode).toBe(200);
    expect(draining.headers.connection).toBe('close');
    shutdown.enter('closing');
    const closing = await app.inject({ url: '/x' });
    expect({ status: closing.statusCode, body: closing.json() }).toEqual({
      status: 503,
      body: { title: 'The service is shutting down; retry', status: 503 },
    });
    expect(closing.headers['retry-after']).toBe('1');
    expect(closing.headers.connection).toBe('close');
    await app.close();
  });
});
