// Child process of bench/poll-204.ts: a bare Fastify hello and the real app, on one fresh
// PostgreSQL database and Redis (the shared rate-limit counters, D23), in three builds side by
// side, so the load generator (the parent) does not share this event loop:
// - `cached`: as `serve` runs it, the pending-keys cache started (docs/adr/0012-pending-keys-cache.md);
// - `uncached`: the cache not started, every poll reads the database (the service before it);
// - `memory`: cached, rate-limit counters in this process instead of Redis (what Redis costs).
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { systemClock } from '../../src/lib/clock.js';
import { prepareRedisStore } from '../../src/plugins/rate-limit.js';
import { createServices } from '../../src/services.js';

const base =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const name = `cleaver_bench_poll_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const db = openPostgres({ connectionString: url.toString() });
await migrate(db);

const bare = Fastify();
bare.get('/ping', async () => ({ ok: true }));
await bare.listen({ port: 0, host: '127.0.0.1' });

const config = loadConfig({
  CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijkl',
  CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmno',
  CLEAVER_DATA_DIR: '/nonexistent',
  // Benchmarks raise the limits through configuration, never code (architecture.md#benchmarks).
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
});
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0, enableOfflineQueue: false, enableAutoPipelining: true });
await prepareRedisStore(redis, { waitMs: 3000, timeoutMs: config.redisTimeoutMs });

async function build(options: { cache: boolean; redis: boolean }) {
  const services = createServices({ config, db, clock: systemClock });
  await services.auth.start();
  if (options.cache) await services.events.start();
  const app = await buildApp(services, options.redis ? { redis } : {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { services, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}
const cached = await build({ cache: true, redis: true });
const uncached = await build({ cache: false, redis: true });
const memory = await build({ cache: true, redis: false });

// One merchant, one key, nothing pending: every poll is a 204.
const merchant = await cached.services.merchants.createMerchant({ name: 'Bench' });
const key = await cached.services.auth.createIntegrationKey(merchant.id, 'bench');
const token = await cached.services.auth.issueTokenForClient(merchant.id, key.clientSecret);

process.stdout.write(
  `${JSON.stringify({
    bareUrl: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/ping`,
    cachedUrl: cached.url,
    uncachedUrl: uncached.url,
    memoryUrl: memory.url,
    token: token.access_token,
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  redis.disconnect();
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
  process.exit(0);
});
