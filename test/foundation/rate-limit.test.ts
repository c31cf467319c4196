import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createRedisStore,
  openRedisClient,
  prepareRedisStore,
} from '../../src/plugins/rate-limit.js';
import { createTestApp } from '../support/test-app.js';

describe('memory store', () => {
  it('counts per key in fixed windows and starts over after the window', async () => {
    let now = 0;
    const store = createMemoryStore(() => now);
    expect(await store.hit('a', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
    now = 10_000;
    expect(await store.hit('a', 60_000)).toEqual({ count: 2, resetMs: 50_000 });
    expect(await store.hit('b', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
    now = 60_000;
    expect(await store.hit('a', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  describe('Redis store shared by two instances', () => {
    it('enforces one auth budget across both (D23)', async () => {
      const redis = await openRedisClient(redisUrl);
      // As the server does before it reports ready: connected, the counting script loaded.
      expect(await prepareRedisStore(redis, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
      // A client address of its own, so other runs sharing this Redis do not count against it.
      const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
      const a = await createTestApp({ redis, env: { CLEAVER_RATE_LIMIT_AUTH: '10' } });
      const b = await createTestApp({ redis, database: a.database, env: { CLEAVER_RATE_LIMIT_AUTH: '10' } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 14; i++) {
          const app = i % 2 === 0 ? a.app : b.app;
          const res = await app.inject({
            method: 'POST',
            url: '/oauth/token',
            payload: { nonce: randomUUID() },
            remoteAddress: ip,
          });
          statuses.push(res.statusCode);
          if (res.statusCode === 429) expect(res.json()).toEqual({ title: 'Too Many Requests', status: 429 });
        }
        expect(statuses.filter((s) => s === 429)).toHaveLength(4);
        expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      } finally {
        await b.close();
        await a.close();
        redis.disconnect();
      }
    });

    it('counts the hits of one event-loop turn in one call, each once and in order', async () => {
      const redis = await openRedisClient(redisUrl);
      try {
        expect(await prepareRedisStore(redis, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        const store = createRedisStore(redis);
        const key = `turn-${randomUUID()}`;
        const other = `turn-${randomUUID()}`;
        // More hits than one call takes: the turn goes out in several calls, still in order.
        const hits = await Promise.all([
          ...Array.from({ length: 300 }, () => store.hit(key, 60_000)),
          store.hit(other, 5_000),
        ]);
        expect(hits.slice(0, 300).map((h) => h.count)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
        expect(hits.every((h, i) => h.resetMs > 0 && h.resetMs <= (i < 300 ? 60_000 : 5_000))).toBe(true);
        expect(hits[300]?.count).toBe(1);
        expect(await store.hit(key, 60_000)).toMatchObject({ count: 301 });
      } finally {
        redis.disconnect();
      }
    });

    it('answers a key far from its limit at once from the count Redis gave, and still counts every hit there', async () => {
      const redis = await openRedisClient(redisUrl);
      try {
        expect(await prepareRedisStore(redis, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        const store = createRedisStore(redis);
        const key = `local-${randomUUID()}`;
        // Not seen yet: the first hit waits for Redis.
        const first = store.hit(key, 60_000, 100);
        expect(first).toBeInstanceOf(Promise);
        expect(await first).toMatchObject({ count: 1 });
        // Then, far from the limit (at most half of it), answered at once with the count to expect.
        const quick = Array.from({ length: 10 }, () => store.hit(key, 60_000, 100));
        expect(quick.some((h) => h instanceof Promise)).toBe(false);
        expect(quick.map((h) => (h as { count: number }).count)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        // Each of them was counted in Redis all the same.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await store.hit(key, 60_000)).toMatchObject({ count: 12 });
      } finally {
        redis.disconnect();
      }
    });

    it('waits for Redis near the limit and for a key whose count it has not heard lately', async () => {
      const redis = await openRedisClient(redisUrl);
      try {
        expect(await prepareRedisStore(redis, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        const now = Date.now();
        const store = createRedisStore(redis, { now: () => now });
        const key = `near-${randomUUID()}`;
        expect(await store.hit(key, 60_000, 10)).toMatchObject({ count: 1 });
        // Up to half of 10 at once; the sixth waits for the shared count, as does every later one.
        const kinds = [];
        for (let i = 2; i <= 12; i++) {
          const hit = store.hit(key, 60_000, 10);
          kinds.push(hit instanceof Promise ? 'waited' : 'at once');
          expect((await hit).count).toBe(i);
        }
        expect(kinds).toEqual(['at once', 'at once', 'at once', 'at once', ...Array(7).fill('waited')]);
        // A key never heard of waits, whatever the limit.
        const unknown = store.hit(`never-${randomUUID()}`, 60_000, 100);
        expect(unknown).toBeInstanceOf(Promise);
        expect(await unknown).toMatchObject({ count: 1 });
      } finally {
        redis.disconnect();
      }
    });

    it('answers one hit at a time from a count heard more than a second ago (a POS polling every 30 s)', async () => {
      const redis = await openRedisClient(redisUrl);
      try {
        expect(await prepareRedisStore(redis, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        let now = Date.now();
        const store = createRedisStore(redis, { now: () => now });
        const key = `stale-${randomUUID()}`;
        expect(await store.hit(key, 60_000, 100)).toMatchObject({ count: 1 });
        now += 30_000;
        // Stale, in the lower half: at once, with the count to expect and the window's time left.
        const poll = store.hit(key, 60_000, 100);
        expect(poll).not.toBeInstanceOf(Promise);
        expect(poll).toMatchObject({ count: 2 });
        expect((poll as { resetMs: number }).resetMs).toBeLessThanOrEqual(30_000);
        // One at a time: until Redis has counted it, the next hit of the key waits.
        const next = store.hit(key, 60_000, 100);
        expect(next).toBeInstanceOf(Promise);
        expect(await next).toMatchObject({ count: 3 });
        // Redis's answers made the key fresh: answered at once again.
        expect(store.hit(key, 60_000, 100)).not.toBeInstanceOf(Promise);
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Redis counted every hit, the ones answered at once too.
        expect(await redis.get(`cleaver:rl:${key}`)).toBe('4');
        // A key whose window has ended: at once, counted from a new window, and counted there.
        const brief = `brief-${randomUUID()}`;
        expect(await store.hit(brief, 200, 100)).toMatchObject({ count: 1 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        now += 1_500;
        expect(store.hit(brief, 200, 100)).toEqual({ count: 1, resetMs: 200 });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await redis.get(`cleaver:rl:${brief}`)).toBe('1');
      } finally {
        redis.disconnect();
      }
    });

    it('when it knows as many keys as it may, forgets the quiet ones first, not the ones in use', async () => {
      const redis = await openRedisClient(redisUrl);
      try {
        expect(await prepareRedisStore(redis, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        let now = Date.now();
        const store = createRedisStore(redis, { now: () => now, maxKnownKeys: 4 });
        const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => `bound-${n}-${randomUUID()}`) as string[];
        for (const key of [a, b, c]) await store.hit(key, 60_000, 100);
        // Two minutes on, only `a` is heard of again (a POS still polling).
        now += 130_000;
        expect(store.hit(a, 60_000, 100)).not.toBeInstanceOf(Promise);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await store.hit(d, 60_000, 100);
        // The fifth key finds the store full: b and c leave, a and d stay.
        await store.hit(e, 60_000, 100);
        expect(store.hit(a, 60_000, 100)).not.toBeInstanceOf(Promise);
        expect(store.hit(d, 60_000, 100)).not.toBeInstanceOf(Promise);
        const forgotten = store.hit(b, 60_000, 100);
        expect(forgotten).toBeInstanceOf(Promise);
        await forgotten;
      } finally {
        redis.disconnect();
      }
    });

    it('a key taken past its limit by another process since this one heard of it: one request more here, then 429s', async () => {
      const [ra, rb] = [await openRedisClient(redisUrl), await openRedisClient(redisUrl)];
      try {
        for (const r of [ra, rb]) expect(await prepareRedisStore(r, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        let now = Date.now();
        const [a, b] = [createRedisStore(ra, { now: () => now }), createRedisStore(rb)];
        const key = `elsewhere-${randomUUID()}`;
        expect(await a.hit(key, 60_000, 10)).toMatchObject({ count: 1 });
        // The other process takes the key to its limit and past it (each hit waits: upper half).
        for (let i = 2; i <= 12; i++) expect((await b.hit(key, 60_000, 10)).count).toBe(i);
        now += 1_500;
        const extra = a.hit(key, 60_000, 10);
        expect(extra).toEqual(expect.objectContaining({ count: 2 }));
        expect(extra).not.toBeInstanceOf(Promise);
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Its answer taught the shared count: now and a second later, every hit waits and is over.
        const refused = a.hit(key, 60_000, 10);
        expect(refused).toBeInstanceOf(Promise);
        expect(await refused).toMatchObject({ count: 14 });
        now += 1_500;
        const later = a.hit(key, 60_000, 10);
        expect(later).toBeInstanceOf(Promise);
        expect(await later).toMatchObject({ count: 15 });
      } finally {
        ra.disconnect();
        rb.disconnect();
      }
    });

    it('two processes sharing one key let exactly its limit through, paced as POS requests are', async () => {
      const [ra, rb] = [await openRedisClient(redisUrl), await openRedisClient(redisUrl)];
      try {
        for (const r of [ra, rb]) expect(await prepareRedisStore(r, { waitMs: 10_000, timeoutMs: 1_000 })).toBeNull();
        const [a, b] = [createRedisStore(ra), createRedisStore(rb)];
        const key = `shared-${randomUUID()}`;
        let allowed = 0;
        for (let i = 0; i < 30; i++) {
          const hit = await (i % 2 === 0 ? a : b).hit(key, 60_000, 20);
          if (hit.count <= 20) allowed += 1;
          // Slower than the store sends its hits answered at once (LOCAL_SEND_MS), as POS requests are.
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(allowed).toBe(20);
        expect(await a.hit(key, 60_000)).toMatchObject({ count: 31 });
      } finally {
        ra.disconnect();
        rb.disconnect();
      }
    });

    it('lets requests through when Redis is unreachable (fails open)', async () => {
      const redis = new Redis('redis://127.0.0.1:1', {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
      });
      redis.on('error', () => {});
      const t = await createTestApp({ redis });
      try {
        const res = await t.app.inject({ method: 'POST', url: '/oauth/token', payload: {} });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ title: 'grant_type is required', status: 400, error: 'invalid_request' });
      } finally {
        await t.close();
        redis.disconnect();
      }
    });
  });
}
