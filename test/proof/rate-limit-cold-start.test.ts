import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, createTestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, stopAllCleavers } from './processes.js';

// Proof (D23, D31): shared rate limits hold from the first request after a cold start. Two real
// API processes on one PostgreSQL and one Redis; right after both report ready, 300 reads
// alternate between them under the default read limit of 200 a minute per key: about 200 pass,
// and every one of them was counted in Redis.
//
// The failure this guards against: a process that reported ready before its Redis client had
// connected and loaded the counting script paid that on its first rate-limited requests, over the
// 200 ms bound on a loaded machine; the limiter took it for an outage and counted per process for
// its cooldown, so both processes let all 300 through and no counter reached Redis. A busy
// machine is not a reproducible condition, so Redis is reached here through a proxy that holds
// every packet 300 ms during the first 2 s of each connection: a Redis that is slow to start
// answering, as it is for a process that has just started on a loaded host.

const redisUrl = process.env.TEST_REDIS_URL;
const READ_LIMIT = 200;
const READS = 300;
const SLOW_FOR_MS = 2_000;
const HOLD_MS = 300;

/** A TCP proxy that holds each chunk HOLD_MS, in order, during the first SLOW_FOR_MS of a connection. */
async function startSlowStartProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const opened = Date.now();
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    const relay = (from: Socket, to: Socket) => {
      let queue = Promise.resolve();
      from.on('data', (chunk) => {
        const hold = Date.now() - opened < SLOW_FOR_MS ? HOLD_MS : 0;
        queue = queue.then(async () => {
          if (hold) await new Promise((resolve) => setTimeout(resolve, hold));
          if (!to.destroyed) to.write(chunk);
        });
      });
    };
    relay(client, upstream);
    relay(upstream, client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(testDbKind() === 'postgres' && redisUrl)('shared rate limits right after a cold start', () => {
  let database: TestDatabase;
  let proxy: Awaited<ReturnType<typeof startSlowStartProxy>>;
  let token: string;
  let keyId: string;
  let a: CleaverProcess;
  let b: CleaverProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The merchant and its token exist before either process starts, so the reads below are the
    // first rate-limited requests both processes ever answer.
    const setup = await createTestApp({ database });
    const merchant = await createMerchant(setup.app, 'Açougue Partida a Frio');
    await setup.close();
    token = merchant.token;
    keyId = merchant.keyId;
    const target = new URL(redisUrl as string);
    proxy = await startSlowStartProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const env = {
      DATABASE_URL: database.url as string,
      REDIS_URL: proxy.url,
      CLEAVER_RATE_LIMIT_READ: String(READ_LIMIT),
    };
    [a, b] = await Promise.all([startCleaver('api', env), startCleaver('api', env)]);
  }, 120_000);

  afterAll(async () => {
    await stopAllCleavers();
    await proxy?.close();
    await database?.close();
  });

  test(`${READS} alternating reads: ${READ_LIMIT} ± 5 % pass, all counted in Redis (D23, D31)`, async () => {
    const auth = { authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    // Six at a time, three to each process, from the first moment both are ready.
    for (let i = 0; i < READS; i += 6) {
      const round = await Promise.all(
        Array.from({ length: Math.min(6, READS - i) }, (_, j) =>
          call((i + j) % 2 === 0 ? a.url : b.url, 'GET', '/v1/merchant', auth),
        ),
      );
      for (const res of round) {
        statuses.push(res.status);
        if (res.status === 429) expect(res.json).toEqual({ title: 'Too Many Requests', status: 429 });
      }
    }
    const passed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(passed).toBeGreaterThanOrEqual(READ_LIMIT * 0.95);
    expect(passed).toBeLessThanOrEqual(READ_LIMIT * 1.05);
    const inspector = new Redis(redisUrl as string);
    try {
      expect(Number(await inspector.get(`cleaver:rl:read:${keyId}`))).toBe(READS);
    } finally {
      inspector.disconnect();
    }
    // Neither process ever fell back to counters of its own.
    for (const p of [a, b]) {
      const ready = await fetch(`${p.url}/health/ready`);
      expect(await ready.json()).toMatchObject({ redis: 'ok' });
      expect(p.output()).not.toMatch(/redis unavailable/);
    }
  });
});
