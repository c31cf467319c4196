// Console and operator lists at scale (docs/benchmarks.md "Console at scale"): a PostgreSQL
// database of 10,000 merchants, 1,000,000 orders and 5,000,000 events, built set-based
// (generate_series INSERT … SELECT) in a database this bench creates and drops; then the server
// time of every console page and every operator list, median and p95 of repeated requests.
//   node --import tsx bench/console-scale.ts
// Targets: a console page under 300 ms, an operator list under 100 ms (server time: inject, in
// process, so no network and no client in the figure). SCALE=0.1 builds a tenth of it.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { systemClock } from '../src/lib/clock.js';
import { createServices } from '../src/services.js';

const ADMIN = 'bench-admin-token-0123456789abcdefghijklmnop';
const SCALE = Number(process.env.SCALE ?? '1');
const MERCHANTS = Math.round(10_000 * SCALE);
const ORDERS = Math.round(1_000_000 * SCALE);
const EVENTS_PER_ORDER = 5; // 5,000,000 events at full scale
const PRODUCTS = 50_000; // the big catalog of merchant 1
const RUNS = Number(process.env.RUNS ?? '15');

const uuid = (prefix: string, n: string) => `(md5('${prefix}' || ${n})::uuid)`;

/** The id the seed gives row n (md5 of a prefix and n, as a uuid), computed here as in SQL. */
function seededId(prefix: string, n: number): string {
  const hex = createHash('md5').update(`${prefix}${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function timed(label: string, fn: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await fn();
  console.log(`  ${label.padEnd(44)} ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Everything set-based: one INSERT … SELECT per table. */
async function seed(db: Db, template: Record<string, unknown>): Promise<void> {
  const t0 = "timestamptz '2026-01-01T00:00:00Z'";
  const STATUSES = "ARRAY['CREATED','CONFIRMED','DISPATCHED','DELIVERED','CONCLUDED','CONCLUDED','CANCELLED']";
  const TYPES = "ARRAY['CREATED','CONFIRMED','READY_FOR_PICKUP','DISPATCHED','DELIVERED']";
  await timed(`${MERCHANTS} merchants, a key each`, async () => {
    await db.query(
      `INSERT INTO merchants (id, name, status, pdv_external_id, orders_webhook_url, created_at, updated_at)
       SELECT ${uuid('m', 'n')}, 'Açougue ' || lpad(n::text, 5, '0'), CASE WHEN n % 20 = 0 THEN 'UNAVAILABLE' ELSE 'AVAILABLE' END,
              'PDV' || n, 'https://pos.example/' || n, ${t0} + n * interval '1 minute', ${t0} + n * interval '1 minute'
         FROM generate_series(1, ${MERCHANTS}) n`,
    );
    await db.query(
      `INSERT INTO integration_keys (id, merchant_id, name, secret_hash, secret_enc, created_at, last_used_at)
       SELECT ${uuid('k', 'n')}, ${uuid('m', 'n')}, 'PDV principal', 'x', 'x', ${t0}, now() - (n % 600) * interval '1 second'
         FROM generate_series(1, ${MERCHANTS}) n`,
    );
  });
  await timed(`${ORDERS} orders`, () =>
    db.query(
      `INSERT INTO orders (id, merchant_id, type, display_id, status, last_event, event_types, customer_id, delivery_code,
                           items_price, other_fees, discount, order_amount, document, created_at, updated_at)
       SELECT ${uuid('o', 'n')}, ${uuid('m', `((n - 1) % ${MERCHANTS} + 1)`)}, 'DELIVERY', lpad(n::text, 7, '0'),
              (${STATUSES})[n % 7 + 1], 'CREATED', '{CREATED}', ${uuid('c', 'n % 50000')}, '1234',
              112.38, 5, 0, 117.38, $1::jsonb, ${t0} + n * interval '3 seconds', ${t0} + n * interval '3 seconds'
         FROM generate_series(1, ${ORDERS}) n`,
      [JSON.stringify(template)],
    ),
  );
  await timed(`${ORDERS * EVENTS_PER_ORDER} events (order_events)`, () =>
    db.query(
      `INSERT INTO order_events (order_id, event_type, merchant_id, occurrence_id, seq, created_at)
       SELECT ${uuid('o', 'n')}, (${TYPES})[e], ${uuid('m', `((n - 1) % ${MERCHANTS} + 1)`)},
              ${uuid('e', "n || '-' || e")}, n * 5 + e, ${t0} + n * interval '3 seconds' + e * interval '1 minute'
         FROM generate_series(1, ${ORDERS}) n, generate_series(1, ${EVENTS_PER_ORDER}) e`,
    ),
  );
  await timed(`${ORDERS * EVENTS_PER_ORDER} timeline rows (order_event_log)`, () =>
    db.query(
      `INSERT INTO order_event_log (occurrence_id, order_id, event_type, polled, created_at)
       SELECT ${uuid('e', "n || '-' || e")}, ${uuid('o', 'n')}, (${TYPES})[e], true,
              ${t0} + n * interval '3 seconds' + e * interval '1 minute'
         FROM generate_series(1, ${ORDERS}) n, generate_series(1, ${EVENTS_PER_ORDER}) e`,
    ),
  );
  await timed(`${ORDERS / 10} webhook deliveries with an attempt`, async () => {
    await db.query(
      `INSERT INTO webhook_deliveries (id, merchant_id, order_id, occurrence_id, event_type, body, status, attempt_count,
                                       last_status_code, created_at, updated_at)
       SELECT ${uuid('d', 'n')}, ${uuid('m', `((n - 1) % ${MERCHANTS} + 1)`)}, ${uuid('o', 'n')}, ${uuid('e', "n || '-1'")}, 'CREATED',
              json_build_object('eventId', ${uuid('e', "n || '-1'")}, 'eventType', 'CREATED', 'orderId', ${uuid('o', 'n')},
                                'orderURL', 'https://cleaver.example/v1/orders/' || ${uuid('o', 'n')},
                                'createdAt', to_char(${t0} + n * interval '3 seconds', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                'sourceAppId', ${uuid('k', '1')})::text,
              CASE WHEN n % 50 = 0 THEN 'FAILED' ELSE 'DELIVERED' END, 1, CASE WHEN n % 50 = 0 THEN 500 ELSE 200 END,
              ${t0} + n * interval '3 seconds', ${t0} + n * interval '3 seconds'
         FROM generate_series(10, ${ORDERS}, 10) n`,
    );
    await db.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, target_url, status_code)
       SELECT ${uuid('d', 'n')}, 1, ${t0} + n * interval '3 seconds', 40 + n % 300, 'https://pos.example/x',
              CASE WHEN n % 50 = 0 THEN 500 ELSE 200 END
         FROM generate_series(10, ${ORDERS}, 10) n`,
    );
  });
  await timed(`${MERCHANTS * 10} catalog syncs, ${PRODUCTS} products of one merchant`, async () => {
    await db.query(
      `INSERT INTO catalog_syncs (id, merchant_id, source, entity_type, status, more_info, received_at, finished_at)
       SELECT ${uuid('s', "n || '-' || s")}, ${uuid('m', 'n')}, 'UPLOAD', 'MERCHANT', CASE WHEN s % 4 = 0 THEN 'FAIL' ELSE 'SUCCESS' END,
              CASE WHEN s % 4 = 0 THEN 'itemOffers[3]: itemId matches no item' END,
              ${t0} + s * interval '1 day', ${t0} + s * interval '1 day' + interval '2 seconds'
         FROM generate_series(1, ${MERCHANTS}) n, generate_series(1, 10) s`,
    );
    await db.query(
      `INSERT INTO categories (id, merchant_id, pdv_external_id, name, "index", external_code)
       SELECT ${uuid('cat', 'c')}, ${uuid('m', '1')}, 'C' || c, 'Categoria ' || c, c, 'SC-C' || c FROM generate_series(1, 50) c`,
    );
    await db.query(
      `INSERT INTO products (id, merchant_id, pdv_external_id, name, description, price, unit, external_code)
       SELECT ${uuid('p', 'n')}, ${uuid('m', '1')}, 'P' || n, 'Produto ' || lpad(n::text, 5, '0'), 'Corte ' || n,
              10 + (n % 1000) / 100.0, CASE WHEN n % 2 = 0 THEN 'KG' ELSE 'UN' END, 'SC-' || n
         FROM generate_series(1, ${PRODUCTS}) n`,
    );
    await db.query(
      `INSERT INTO category_products (category_id, product_id, position)
       SELECT ${uuid('cat', '(n % 50 + 1)')}, ${uuid('p', 'n')}, n FROM generate_series(1, ${PRODUCTS}) n`,
    );
  });
  await timed('ANALYZE', () => db.query('ANALYZE'));
}

function stats(ms: number[]): { median: number; p95: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] };
}

async function main() {
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `cleaver_console_scale_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = openPostgres({ connectionString: url.toString() });
  try {
    await migrate(db);
    const config = loadConfig({
      CLEAVER_ADMIN_TOKEN: ADMIN,
      CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrstu',
      CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
      CLEAVER_RATE_LIMIT_WRITE: '1000000',
      CLEAVER_RATE_LIMIT_READ: '1000000',
    });
    const services = createServices({ config, db, clock: systemClock });
    await services.auth.start();
    const app = await buildApp(services, {});
    await app.ready();
    const auth = { authorization: `Bearer ${ADMIN}` };

    // One real order through the API: its document is the template every seeded order carries.
    const m = (
      await app.inject({ method: 'POST', url: '/admin/v1/merchants', headers: auth, payload: { name: 'Modelo' } })
    ).json();
    const p = (
      await app.inject({
        method: 'POST',
        url: `/admin/v1/merchants/${m.id}/products`,
        headers: auth,
        payload: { name: 'Picanha', price: 89.9, unit: 'KG' },
      })
    ).json();
    const o = (
      await app.inject({
        method: 'POST',
        url: `/admin/v1/merchants/${m.id}/orders`,
        headers: auth,
        payload: { type: 'DELIVERY', items: [{ productId: p.id, quantity: 1.25 }] },
      })
    ).json();
    const { rows } = await db.query<{ document: Record<string, unknown> }>(
      'SELECT document FROM orders WHERE id = $1',
      [o.id],
    );
    console.log(`Seeding ${name} (scale ${SCALE}):`);
    await seed(db, rows[0].document);

    // A console session, as a browser gets one.
    const loginPage = await app.inject({ method: 'GET', url: '/console/login' });
    const loginCookie = String(loginPage.headers['set-cookie']).split(';')[0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(loginPage.body)?.[1] ?? '';
    const logged = await app.inject({
      method: 'POST',
      url: '/console/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
      payload: new URLSearchParams({ _csrf: csrf, token: ADMIN, next: '/console/merchants' }).toString(),
    });
    const setCookies = ([] as string[]).concat(logged.headers['set-cookie'] as string | string[]);
    const session = setCookies.find((c) => c.startsWith('cleaver_console='))?.split(';')[0] ?? '';

    const big = seededId('m', 1);
    const last = seededId('m', MERCHANTS);
    const orderId = seededId('o', Math.floor(ORDERS / 2));
    const deep = async (path: string, hops: number): Promise<string> => {
      let next = path;
      for (let i = 0; i < hops; i++) {
        const res = await app.inject({ method: 'GET', url: next, headers: auth });
        const link = /^<([^>]+)>/.exec(String(res.headers.link ?? ''))?.[1];
        if (!link) break;
        next = link;
      }
      return next;
    };
    const console_ = [
      '/console/merchants',
      '/console/merchants?q=a%C3%A7ougue%2009999',
      `/console/merchants?q=PDV${MERCHANTS}`,
      `/console/merchants/${last}`,
      `/console/merchants/${big}/catalog`,
      `/console/merchants/${big}/catalog?q=produto%204999`,
      `/console/merchants/${big}/catalog?categoryId=${seededId('cat', 7)}`,
      '/console/orders',
      `/console/orders?merchantId=${last}`,
      '/console/orders?status=CANCELLED',
      `/console/orders?q=${String(Math.floor(ORDERS / 2)).padStart(7, '0')}`,
      `/console/orders/${orderId}`,
      '/console/webhooks',
      '/console/webhooks?status=FAILED',
      `/console/webhooks?merchantId=${last}`,
      '/console/operators',
      '/console/audit',
    ];
    const lists = [
      '/admin/v1/merchants',
      '/admin/v1/merchants?q=a%C3%A7ougue%2009999',
      await deep('/admin/v1/merchants?limit=100', 50),
      '/admin/v1/orders',
      '/admin/v1/orders?status=CANCELLED',
      `/admin/v1/orders?merchantId=${last}`,
      `/admin/v1/orders?q=${String(Math.floor(ORDERS / 2)).padStart(7, '0')}`,
      await deep('/admin/v1/orders?limit=100', 100),
      `/admin/v1/merchants/${last}/orders`,
      `/admin/v1/merchants/${last}/orders?status=CONCLUDED`,
      `/admin/v1/merchants/${last}/webhookDeliveries`,
      `/admin/v1/merchants/${last}/webhookDeliveries?status=FAILED`,
      `/admin/v1/merchants/${last}/catalogSyncs`,
      '/admin/v1/logisticsApps',
      '/admin/v1/notices',
      '/admin/v1/audit',
      '/admin/v1/operators',
    ];
    const rowsOut: string[] = [];
    let missed = 0;
    const measure = async (kind: 'console' | 'list', path: string) => {
      const headers = kind === 'console' ? { cookie: session } : auth;
      const ms: number[] = [];
      let status = 0;
      let bytes = 0;
      for (let i = 0; i < RUNS + 2; i++) {
        const started = performance.now();
        const res = await app.inject({ method: 'GET', url: path, headers });
        const took = performance.now() - started;
        status = res.statusCode;
        bytes = res.rawPayload.length;
        if (i >= 2) ms.push(took);
      }
      const { median, p95 } = stats(ms);
      const target = kind === 'console' ? 300 : 100;
      const ok = status === 200 && p95 < target;
      if (!ok) missed++;
      const shown = path.length > 70 ? `${path.slice(0, 67)}...` : path;
      rowsOut.push(
        `| ${kind} | \`${shown}\` | ${status} | ${(bytes / 1024).toFixed(0)} KB | ${median.toFixed(1)} | ${p95.toFixed(1)} | < ${target} | ${ok ? 'met' : 'NOT met'} |`,
      );
      console.log(rowsOut.at(-1));
    };
    console.log(
      '\n| kind | path | status | size | median ms | p95 ms | target ms | |\n|---|---|---|---|---|---|---|---|',
    );
    for (const path of console_) await measure('console', path);
    for (const path of lists) await measure('list', path);
    console.log(`\n${missed === 0 ? 'Every target met.' : `${missed} target(s) NOT met.`}`);
    await app.close();
    await services.auth.stop();
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
