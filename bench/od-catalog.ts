// Open Delivery catalog benchmark (D29): a 10,000-item Open Delivery menu pulled from a local
// HTTP POS and applied (POST /v1/merchantUpdate with an empty body → 204, worker drain(),
// merchantStatus SUCCESS), against the same catalog sent as our MERCHANT upload (PUT) in the same
// run. Target: the pull within 1.5× the upload. Also: a re-pull of the unchanged menu (same
// body: hashed, not re-processed) and a 304 (ETag), which should cost next to nothing.
//   node --import tsx bench/od-catalog.ts
// PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test (a fresh database is
// created and dropped), then in-memory PGlite. Each figure is the best of 3 runs, interleaved.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
const API_KEY = 'bench-pos-key';
const ITEMS = 10_000;
const CATEGORIES = 200;
const RUNS = 3;

/** One catalog, described once, written in both formats. */
function rows() {
  const perCategory = Math.ceil(ITEMS / CATEGORIES);
  const categories = Array.from({ length: CATEGORIES }, (_, c) => ({
    id: `C${c}`,
    name: `Categoria ${c}`,
    index: c,
    offers: Array.from({ length: perCategory }, (_, k) => c * perCategory + k)
      .filter((i) => i < ITEMS)
      .map((i) => `O${i}`),
  }));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `P${i}`,
    offer: `O${i}`,
    name: `Produto ${i}`,
    description: `Descrição do produto ${i}`,
    unit: i % 2 ? 'KG' : 'UN',
    externalCode: String(10000 + i),
    ean: String(7890000000000 + i),
    price: Number((10 + (i % 1000) / 100).toFixed(2)),
    status: i % 10 === 0 ? 'UNAVAILABLE' : 'AVAILABLE',
    image: `https://img.example/p${i}.jpg`,
    place: i % perCategory,
  }));
  return { categories, items };
}

function merchantUpload() {
  const { categories, items } = rows();
  return {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    onlyAddProducts: false,
    updatedObjects: [
      {
        id: 'STORE',
        categories: categories.map((c) => ({
          id: c.id,
          name: c.name,
          index: c.index,
          status: 'AVAILABLE',
          itemOfferId: c.offers,
        })),
        itemOffers: items.map((i) => ({ id: i.offer, itemId: i.id, price: { value: i.price }, status: i.status })),
        items: items.map((i) => ({
          id: i.id,
          name: i.name,
          description: i.description,
          unit: i.unit,
          externalCode: i.externalCode,
          ean: i.ean,
          serving: 2,
          image: { url: i.image },
        })),
      },
    ],
  };
}

function odMerchant() {
  const { categories, items } = rows();
  return {
    lastUpdate: '2026-03-01T12:00:00.000Z',
    TTL: 600,
    id: '22815773000169-0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
    status: 'AVAILABLE',
    basicInfo: { name: 'Açougue Bench', document: '22815773000169' },
    services: [],
    menus: [{ id: 'M1', name: 'Cardápio', externalCode: 'M1', categoryId: categories.map((c) => c.id) }],
    categories: categories.map((c) => ({
      id: c.id,
      index: c.index,
      name: c.name,
      externalCode: c.id,
      status: 'AVAILABLE',
      itemOfferId: c.offers,
    })),
    itemOffers: items.map((i) => ({
      id: i.offer,
      itemId: i.id,
      index: i.place,
      status: i.status,
      price: { value: i.price, originalValue: i.price, currency: 'BRL' },
    })),
    items: items.map((i) => ({
      id: i.id,
      name: i.name,
      description: i.description,
      externalCode: i.externalCode,
      status: 'AVAILABLE',
      unit: i.unit,
      ean: i.ean,
      serving: 2,
      image: { URL: i.image },
    })),
  };
}

/** The Open Delivery POS: GET /v1/merchant with X-API-KEY; with an ETag, 304 on a match. */
async function startPos(body: string) {
  let etag: string | null = null;
  const server = createServer((req, res) => {
    if (req.url !== '/v1/merchant' || req.headers['x-api-key'] !== API_KEY) {
      res.writeHead(404).end();
      return;
    }
    if (etag && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...(etag ? { etag } : {}) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    useEtag(value: string | null) {
      etag = value;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function benchDatabase(label: string, db: Db, pos: Awaited<ReturnType<typeof startPos>>) {
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
    const token = t.json().access_token as string;
    const onboard = await app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: { authorization: `Bearer ${token}` },
      payload: { ordersWebhookURL: 'http://127.0.0.1:9', getMerchantURL: { baseURL: pos.url, apiKey: API_KEY } },
    });
    if (onboard.statusCode !== 200) throw new Error(`onboarding answered ${onboard.statusCode}: ${onboard.body}`);
    return { merchantId, token };
  }

  /** The request (PUT upload or POST notification) → 204, worker drains, status read: SUCCESS expected. */
  async function timed(m: { merchantId: string; token: string }, method: 'PUT' | 'POST', body: string) {
    const started = performance.now();
    const res = await app.inject({
      method,
      url: '/v1/merchantUpdate',
      headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
      payload: body,
    });
    if (res.statusCode !== 204) throw new Error(`${method} answered ${res.statusCode}: ${res.body}`);
    await services.catalog.worker.drain();
    const status = await app.inject({
      method: 'GET',
      url: `/v1/merchantStatus?merchantId=${m.merchantId}`,
      headers: { authorization: `Bearer ${m.token}` },
    });
    const ms = performance.now() - started;
    const s = status.json();
    if (s.status !== 'SUCCESS') throw new Error(`sync ended ${s.status}: ${String(s.moreInfo).slice(0, 300)}`);
    return { ms, moreInfo: s.moreInfo as string };
  }

  const uploadBody = JSON.stringify(merchantUpload());
  let upload = Number.POSITIVE_INFINITY;
  let pull = Number.POSITIVE_INFINITY;
  let samePull = Number.POSITIVE_INFINITY;
  let notModified = Number.POSITIVE_INFINITY;
  let pullInfo = '';
  for (let run = 0; run < RUNS; run++) {
    upload = Math.min(upload, (await timed(await newMerchant(), 'PUT', uploadBody)).ms);
    const m = await newMerchant();
    pos.useEtag(null);
    const first = await timed(m, 'POST', '{}');
    pull = Math.min(pull, first.ms);
    pullInfo = first.moreInfo;
    const same = await timed(m, 'POST', '{}');
    if (!same.moreInfo.startsWith('Unchanged')) throw new Error(`expected an unchanged pull: ${same.moreInfo}`);
    samePull = Math.min(samePull, same.ms);
    // With an ETag: one full pull records it, the next one is a 304.
    const e = await newMerchant();
    pos.useEtag(`"bench-${run}"`);
    await timed(e, 'POST', '{}');
    const cached = await timed(e, 'POST', '{}');
    if (!cached.moreInfo.includes('304 Not Modified')) throw new Error(`expected a 304: ${cached.moreInfo}`);
    notModified = Math.min(notModified, cached.ms);
  }
  const row = (name: string, ms: number) =>
    console.log(
      `${label.padEnd(10)} ${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms   MERCHANT upload ${upload.toFixed(0).padStart(5)} ms   ratio ${(ms / upload).toFixed(2)}×`,
    );
  row(`OD pull ${ITEMS} items / ${CATEGORIES} categories`, pull);
  row('re-pull, same body (hash, not re-processed)', samePull);
  row('re-pull, 304 Not Modified (ETag)', notModified);
  console.log(
    `${label.padEnd(10)} OD pull / MERCHANT upload: ${(pull / upload).toFixed(2)}× (target ≤ 1.5×: ${pull <= 1.5 * upload ? 'met' : 'NOT met'})`,
  );
  console.log(`${label.padEnd(10)} pull outcome: ${pullInfo.slice(0, 120)}`);
  await app.close();
  await services.auth.stop();
  return { upload, pull };
}

async function main() {
  const odBody = JSON.stringify(odMerchant());
  console.log(
    `bodies: Open Delivery Merchant ${(odBody.length / 1e6).toFixed(1)} MB, MERCHANT upload ${(JSON.stringify(merchantUpload()).length / 1e6).toFixed(1)} MB`,
  );
  const pos = await startPos(odBody);
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `cleaver_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const postgres = openPostgres({ connectionString: url.toString() });
  let failed = false;
  try {
    const r = await benchDatabase('postgres', postgres, pos);
    failed ||= r.pull > 1.5 * r.upload;
  } finally {
    await postgres.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  const pglite = await openPglite();
  try {
    const r = await benchDatabase('pglite', pglite, pos);
    failed ||= r.pull > 1.5 * r.upload;
  } finally {
    await pglite.close();
    await pos.close();
  }
  if (failed) process.exitCode = 1;
}

await main();
