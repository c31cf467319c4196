// Child process of bench/polling.ts: the real app and a bare Fastify route doing one primary-key
// read, both on the PostgreSQL database named by BENCH_DB_URL, so the load generator (the
// parent) does not share their event loop.
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { systemClock } from '../src/lib/clock.js';
import { createServices } from '../src/services.js';

const url = process.env.BENCH_DB_URL;
if (!url) throw new Error('BENCH_DB_URL is not set');
const POOL = 10;

const db = openPostgres({ connectionString: url, max: POOL });
await migrate(db);
const config = loadConfig({
  DATABASE_URL: url,
  CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijkl',
  CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmno',
  CLEAVER_DATA_DIR: '/nonexistent',
  // Benchmarks raise the limits through configuration, never code.
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
});
const services = createServices({ config, db, clock: systemClock });
await services.auth.start();
const app = await buildApp(services);
await app.listen({ port: 0, host: '127.0.0.1' });

// Baseline: the same primary-key read of the same row, with nothing else around it.
const pool = new pg.Pool({ connectionString: url, max: POOL });
const bare = Fastify();
bare.get<{ Params: { id: string } }>('/orders/:id', async (request) => {
  const { rows } = await pool.query('SELECT id, document FROM orders WHERE id = $1', [request.params.id]);
  return rows[0];
});
await bare.listen({ port: 0, host: '127.0.0.1' });

const admin = { authorization: `Bearer ${config.adminToken}` };
const merchant = await services.merchants.createMerchant({ name: 'Bench' });
// Two keys of one merchant: one will carry a small acknowledged history, the other a large one.
const key = await services.auth.createIntegrationKey(merchant.id, 'bench-small-history');
const token = await services.auth.issueTokenForClient(merchant.id, key.clientSecret);
const key2 = await services.auth.createIntegrationKey(merchant.id, 'bench-large-history');
const token2 = await services.auth.issueTokenForClient(merchant.id, key2.clientSecret);
// The same two histories for two opendelivery keys (D27): one eventId per occurrence (D28).
const key3 = await services.auth.createIntegrationKey(merchant.id, 'bench-od-small-history', 'opendelivery');
const token3 = await services.auth.issueTokenForClient(merchant.id, key3.clientSecret);
const key4 = await services.auth.createIntegrationKey(merchant.id, 'bench-od-large-history', 'opendelivery');
const token4 = await services.auth.issueTokenForClient(merchant.id, key4.clientSecret);
const product = await services.catalog.createHandMadeProduct(merchant.id, { name: 'Picanha', price: 89.9, unit: 'KG' });
let orderId = '';
// 50 pending events for the key: what each poll returns.
for (let i = 0; i < 50; i++) {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${merchant.id}/orders`,
    headers: admin,
    payload: { type: 'DELIVERY', items: [{ productId: product.id, quantity: 1.5 }] },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  orderId = res.json().id;
}
const port = (s: { server: { address(): unknown } }) => (s.server.address() as { port: number }).port;
process.stdout.write(
  `${JSON.stringify({
    appUrl: `http://127.0.0.1:${port(app)}`,
    bareUrl: `http://127.0.0.1:${port(bare)}`,
    token: token.access_token,
    merchantId: merchant.id,
    keyId: key.keyId,
    token2: token2.access_token,
    keyId2: key2.keyId,
    token3: token3.access_token,
    keyId3: key3.keyId,
    token4: token4.access_token,
    keyId4: key4.keyId,
    orderId,
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await app.close();
  await bare.close();
  await pool.end();
  await services.auth.stop();
  await db.close();
  process.exit(0);
});
