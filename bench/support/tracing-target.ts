// Child process of bench/tracing.ts: the real app on PGlite, with tracing on when BENCH_OTLP
// names a receiver (spans exported there, as OTEL_EXPORTER_OTLP_ENDPOINT would), off otherwise.
// It prints the URL of one order and a POS token that may read it.
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';
import { systemClock } from '../../src/lib/clock.js';
import { startTracing } from '../../src/lib/tracing.js';
import { createServices } from '../../src/services.js';

const ADMIN = 'bench-admin-token-0123456789abcdefghijkl';
// Before anything makes a span, as src/server.ts does.
const tracing = process.env.BENCH_OTLP
  ? await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: process.env.BENCH_OTLP })
  : null;
const db = await openPglite();
await migrate(db);
const config = loadConfig({
  CLEAVER_ADMIN_TOKEN: ADMIN,
  CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmno',
  CLEAVER_DATA_DIR: '/nonexistent',
  // Benchmarks raise the limits through configuration, never code (architecture.md#benchmarks).
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
});
const services = createServices({ config, db, clock: systemClock });
await services.auth.start();
const app = await buildApp(services);
await app.listen({ port: 0, host: '127.0.0.1' });

const admin = { authorization: `Bearer ${ADMIN}` };
const merchant = await services.merchants.createMerchant({ name: 'Bench' });
const key = await services.auth.createIntegrationKey(merchant.id, 'bench');
const token = await services.auth.issueTokenForClient(merchant.id, key.clientSecret);
const product = await app.inject({
  method: 'POST',
  url: `/admin/v1/merchants/${merchant.id}/products`,
  headers: admin,
  payload: { name: 'Picanha', price: 89.9, unit: 'KG' },
});
const order = await app.inject({
  method: 'POST',
  url: `/admin/v1/merchants/${merchant.id}/orders`,
  headers: admin,
  payload: { type: 'DELIVERY', items: [{ productId: product.json().id, quantity: 1 }] },
});
if (order.statusCode !== 201) throw new Error(`order: ${order.statusCode} ${order.body}`);
const port = (app.server.address() as { port: number }).port;
process.stdout.write(
  `${JSON.stringify({
    orderUrl: `http://127.0.0.1:${port}/v1/orders/${order.json().id}`,
    token: token.access_token,
    tracing: tracing !== null,
  })}\n`,
);
