// Catalog processing benchmark (architecture.md#benchmarks): a MERCHANT upload from the 204 to SUCCESS, against a
// plain bulk insert of the same rows measured in the same run, on PostgreSQL and PGlite.
//   node --import tsx bench/catalog.ts
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test (a fresh database is
// created and dropped). Each figure is the best of 2–3 runs. Targets: 10,000 items under 3 s on PostgreSQL; 50,000 under 5× the
// 10,000 time; re-upload of an unchanged catalog faster than the first upload.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { systemClock } from '../src/lib/clock.js';
import { createServices } from '../src/services.js';

const ADMIN = 'bench-admin-token-0123456789abcdefghijklmnop';

function catalog(items: number, categories: number) {
  const perCategory = Math.ceil(items / categories);
  return {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    onlyAddProducts: false,
    updatedObjects: [
      {
        id: 'STORE',
        categories: Array.from({ length: categories }, (_, c) => ({
          id: `C${c}`,
          name: `Categoria ${c}`,
          index: c,
          status: 'AVAILABLE',
          itemOfferId: Array.from({ length: perCategory }, (_, k) => c * perCategory + k)
            .filter((i) => i < items)
            .map((i) => `O${i}`),
        })),
        itemOffers: Array.from({ length: items }, (_, i) => ({
          id: `O${i}`,
          itemId: `P${i}`,
          price: { value: Number((10 + (i % 1000) / 100).toFixed(2)) },
          status: i % 10 === 0 ? 'UNAVAILABLE' : 'AVAILABLE',
        })),
        items: Array.from({ length: items }, (_, i) => ({
          id: `P${i}`,
          name: `Produto ${i}`,
          description: `Descrição do produto ${i}`,
          unit: i % 2 ? 'KG' : 'UN',
          externalCode: String(10000 + i),
          ean: String(7890000000000 + i),
          serving: 2,
          image: { url: `https://img.example/p${i}.jpg` },
        })),
      },
    ],
  };
}

/** The floor: the same categories, products, links and images inserted in one transaction. */
async function plainBulkInsert(db: Db, merchantId: string, items: number, categories: number): Promise<number> {
  const perCategory = Math.ceil(items / categories);
  const catIds = Array.from({ length: categories }, () => randomUUID());
  const prodIds = Array.from({ length: items }, () => randomUUID());
  const started = performance.now();
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO categories (id, merchant_id, pdv_external_id, name, "index", status, external_code)
       SELECT u.id, $1, 'C' || u.i, 'Categoria ' || u.i, u.i, 'AVAILABLE', 'CAT-' || u.i
         FROM unnest($2::uuid[], $3::int[]) AS u(id, i)`,
      [merchantId, catIds, catIds.map((_, i) => i)],
    );
    await tx.query(
      `INSERT INTO products (id, merchant_id, pdv_external_id, name, description, price, unit, status, external_code, ean, serving)
       SELECT u.id, $1, 'P' || u.i, 'Produto ' || u.i, 'Descrição do produto ' || u.i, u.price, u.unit, u.status,
              (10000 + u.i)::text, (7890000000000 + u.i)::text, 2
         FROM unnest($2::uuid[], $3::int[], $4::numeric[], $5::text[], $6::text[]) AS u(id, i, price, unit, status)`,
      [
        merchantId,
        prodIds,
        prodIds.map((_, i) => i),
        prodIds.map((_, i) => (10 + (i % 1000) / 100).toFixed(2)),
        prodIds.map((_, i) => (i % 2 ? 'KG' : 'UN')),
        prodIds.map((_, i) => (i % 10 === 0 ? 'UNAVAILABLE' : 'AVAILABLE')),
      ],
    );
    await tx.query(
      `INSERT INTO category_products (category_id, product_id, position)
       SELECT u.c, u.p, u.pos FROM unnest($1::uuid[], $2::uuid[], $3::int[]) AS u(c, p, pos)`,
      [prodIds.map((_, i) => catIds[Math.floor(i / perCategory)]), prodIds, prodIds.map((_, i) => i % perCategory)],
    );
    await tx.query(
      `INSERT INTO product_media (product_id, position, url)
       SELECT u.p, 0, 'https://img.example/p' || u.i || '.jpg' FROM unnest($1::uuid[], $2::int[]) AS u(p, i)`,
      [prodIds, prodIds.map((_, i) => i)],
    );
  });
  return performance.now() - started;
}

async function benchDatabase(label: string, db: Db) {
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
  const app = await buildApp(services);
  await app.ready();
  const admin = { authorization: `Bearer ${ADMIN}` };

  async function newMerchant() {
    const m = await app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: admin,
      payload: { name: 'Bench' },
    });
    const merchantId = m.json().id as string;
    const k = await app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchantId}/integrationKeys`,
      headers: admin,
      payload: {},
    });
    const t = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { client_id: merchantId, client_secret: k.json().clientSecret, grant_type: 'client_credentials' },
    });
    return { merchantId, token: t.json().access_token as string };
  }

  /** PUT → 204, worker drains, status polled once: SUCCESS expected. Returns ms. */
  async function timedUpload(m: { merchantId: string; token: string }, body: string) {
    const started = performance.now();
    const put = await app.inject({
      method: 'PUT',
      url: '/v1/merchantUpdate',
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
      payload: body,
    });
    if (put.statusCode !== 204) throw new Error(`upload answered ${put.statusCode}: ${put.body}`);

    await services.catalog.worker.drain();
    const status = await app.inject({
      method: 'GET',
      url: `/v1/merchantStatus?merchantId=${m.merchantId}`,
      headers: { authorization: `Bearer ${m.token}` },
    });
    const elapsed = performance.now() - started;
    const s = status.json();
    if (s.status !== 'SUCCESS') throw new Error(`sync ended ${s.status}: ${String(s.moreInfo).slice(0, 300)}`);
    return { ms: elapsed, moreInfo: s.moreInfo as string };
  }

  const results: Record<string, number> = {};
  const line = (name: string, ms: number, baseline: number) =>
    console.log(
      `${label.padEnd(10)} ${name.padEnd(38)} ${ms.toFixed(0).padStart(6)} ms   bulk insert ${baseline.toFixed(0).padStart(5)} ms   ratio ${(ms / baseline).toFixed(2)}×`,
    );

  // The machine is shared: each figure is the best of a few runs, sync and baseline interleaved.
  for (const [items, categories, runs] of [
    [10_000, 200, 3],
    [50_000, 1_000, 2],
  ] as const) {
    const body = JSON.stringify(catalog(items, categories));
    let baseline = Number.POSITIVE_INFINITY;
    let first = Number.POSITIVE_INFINITY;
    let again = Number.POSITIVE_INFINITY;
    for (let run = 0; run < runs; run++) {
      const baseMerchant = await newMerchant();
      baseline = Math.min(baseline, await plainBulkInsert(db, baseMerchant.merchantId, items, categories));
      const m = await newMerchant();
      first = Math.min(first, (await timedUpload(m, body)).ms);
      if (items === 10_000) again = Math.min(again, (await timedUpload(m, body)).ms);
    }
    results[`first${items}`] = first;
    line(`${items} items / ${categories} categories`, first, baseline);
    if (items === 10_000) {
      results.reupload = again;
      line(`re-upload unchanged ${items}`, again, baseline);
    }
  }
  const linear = results.first50000 / results.first10000;
  console.log(
    `${label.padEnd(10)} 50k / 10k time: ${linear.toFixed(2)}× (target < 5×); re-upload / first: ${(results.reupload / results.first10000).toFixed(2)}× (target < 1×)`,
  );
  await app.close();
  await services.auth.stop();
  return results;
}

async function main() {
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `cleaver_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const postgres = openPostgres({ connectionString: url.toString() });
  try {
    const r = await benchDatabase('postgres', postgres);
    console.log(`postgres   10k target < 3000 ms: ${r.first10000 < 3000 ? 'met' : 'NOT met'}`);
  } finally {
    await postgres.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  const pglite = await openPglite();
  try {
    await benchDatabase('pglite', pglite);
  } finally {
    await pglite.close();
  }
}

await main();
