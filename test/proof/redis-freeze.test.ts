// Issue "Hardening" 8 (D23, D31): a frozen Redis (SIGSTOP: the connection stays open, nothing
// answers) must not hold rate-limited requests. Every call to it is bounded by 200 ms; while it
// is away the limits are counted by the instance itself, and Redis is probed again after a
// cooldown, so only one request in a few seconds pays the timeout. Redis is a server of the
// test's own; the shared one is never touched. Database-independent: runs once, on PGlite.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type OwnRedis, startOwnRedis } from '../support/own-services.js';
import { adminHeaders } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, stopAllCleavers } from './processes.js';

if (testDbKind() === 'pglite') {
  describe('a frozen Redis', () => {
    let redis: OwnRedis;
    let server: CleaverProcess;

    beforeAll(async () => {
      redis = await startOwnRedis();
      server = await startCleaver('all', { REDIS_URL: redis.url, CLEAVER_RATE_LIMIT_READ: '100000' });
    }, 120_000);

    afterAll(async () => {
      await stopAllCleavers();
      await redis?.stop();
    });

    test('costs at most one bounded wait per cooldown, never a 10 s stall; shared counters resume after', async () => {
      const m = await call(server.url, 'POST', '/admin/v1/merchants', adminHeaders, { name: 'Açougue Gelado' });
      const merchantId = (m.json as { id: string }).id;
      const k = await call(server.url, 'POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, adminHeaders, {});
      const { clientSecret } = k.json as { clientSecret: string };
      const t = await call(
        server.url,
        'POST',
        '/oauth/token',
        {},
        {
          client_id: merchantId,
          client_secret: clientSecret,
          grant_type: 'client_credentials',
        },
      );
      const auth = { authorization: `Bearer ${(t.json as { access_token: string }).access_token}` };
      const read = async () => {
        const started = performance.now();
        const res = await call(server.url, 'GET', '/v1/merchant', auth);
        return { status: res.status, ms: performance.now() - started, res };
      };

      const warm = await read();
      expect(warm.status).toBe(200);
      const inspector = new Redis(redis.url);
      expect((await inspector.keys('cleaver:rl:*')).length).toBeGreaterThan(0);
      inspector.disconnect();

      redis.freeze();
      try {
        const frozen: number[] = [];
        const until = performance.now() + 3_000;
        while (performance.now() < until) {
          const r = await read();
          expect(r.status).toBe(200);
          frozen.push(r.ms);
        }
        expect(frozen.length).toBeGreaterThan(20);
        // Bounded: nothing near the old 10 s; the first request pays the 200 ms timeout at most.
        expect(Math.max(...frozen)).toBeLessThan(1_000);
        // One probe per cooldown at most: almost every request answers without waiting on Redis.
        expect(frozen.filter((ms) => ms >= 200).length).toBeLessThanOrEqual(2);
        const ready = await fetch(`${server.url}/health/ready`);
        expect(await ready.json()).toMatchObject({ redis: 'unavailable' });
      } finally {
        redis.thaw();
      }

      // Back to the shared counters once a request probes Redis again (after the 5 s cooldown).
      await expect
        .poll(
          async () => {
            await read();
            return ((await (await fetch(`${server.url}/health/ready`)).json()) as { redis?: string }).redis;
          },
          { timeout: 15_000, interval: 250 },
        )
        .toBe('ok');
      const after = await read();
      expect(after.status).toBe(200);
      expect(after.res.headers.get('ratelimit')).toMatch(/^"read";r=\d+;t=\d+$/);
    }, 60_000);
  });
}
