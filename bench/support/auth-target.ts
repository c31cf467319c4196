// Child process of bench/auth.ts: a bare Fastify route and the real app side by side, so the
// load generator (the parent) does not share this event loop.
import Fastify from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';
import { systemClock } from '../../src/lib/clock.js';
import { createServices } from '../../src/services.js';

const bare = Fastify();
bare.get('/ping', async () => ({ ok: true }));
await bare.listen({ port: 0, host: '127.0.0.1' });

const db = await openPglite();
await migrate(db);
const config = loadConfig({
  CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijkl',
  CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmno',
  CLEAVER_DATA_DIR: '/nonexistent',
  // Benchmarks raise the limits through configuration, never code (architecture.md#benchmarks).
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
});
const services = createServices({ config, db, clock: systemClock });
await services.auth.start();
const app = await buildApp(services, {
  extraMerchantRoutes: async (scope) => {
    scope.get('/v1/bench/ping', async () => ({ ok: true }));
  },
});
// The same handler outside the merchant scope: every app-wide hook, no bearer check or rate
// limit, so authed / open is the auth layer alone.
app.get('/v1/bench/open', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
// The same app without the request log: authed here vs authed above is what logging
// each request costs.
const unlogged = await buildApp(services, {
  requestLog: false,
  extraMerchantRoutes: async (scope) => {
    scope.get('/v1/bench/ping', async () => ({ ok: true }));
  },
});
await unlogged.listen({ port: 0, host: '127.0.0.1' });

const merchant = await services.merchants.createMerchant({ name: 'Bench' });
const key = await services.auth.createIntegrationKey(merchant.id, 'bench');
const token = await services.auth.issueTokenForClient(merchant.id, key.clientSecret);
const port = (s: typeof bare) => (s.server.address() as { port: number }).port;

process.stdout.write(
  `${JSON.stringify({
    bareUrl: `http://127.0.0.1:${port(bare)}/ping`,
    appUrl: `http://127.0.0.1:${port(app as unknown as typeof bare)}`,
    unloggedUrl: `http://127.0.0.1:${port(unlogged as unknown as typeof bare)}`,
    token: token.access_token,
    clientId: merchant.id,
    clientSecret: key.clientSecret,
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
