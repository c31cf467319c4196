// A 20,000-item catalog after a worker crash (architecture.md#benchmarks): how long from a
// SIGKILL of the worker applying it to the upload being re-run and finished by another worker.
// Workers are real processes (`node dist/cli.js serve --role worker`, the production build) on a
// scratch PostgreSQL database; uploads go through the app in this process (no worker here).
// Baseline in the same run: the same upload (another merchant) with no crash, 204 → SUCCESS.
// The new worker is started right after the kill, as a supervisor would.
// The lease is CLEAVER_CATALOG_LEASE_SEC (default 8 s), kept alive by a heartbeat every lease/4
// (src/jobs/leased-worker.ts), so a dead worker's lease lapses within one lease of its last
// heartbeat; the surviving worker wakes at that expiry (nextWakeAt), not at a safety poll.
// Run: node --import tsx bench/catalog-crash.ts
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { serviceEnv } from '../scripts/service-env.mjs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { systemClock } from '../src/lib/clock.js';
import { createServices } from '../src/services.js';
import { fmt, machine, reportRow } from './support/measure.js';

const ITEMS = Number(process.env.BENCH_CATALOG_ITEMS ?? 20_000);
const ADMIN = 'bench-admin-token-0123456789abcdefghijklmnop';
const SECRET = 'bench-secret-key-0123456789abcdefghijklmnopqrstu';
const base =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!existsSync('dist/cli.js')) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

function catalog(items: number, categories: number) {
  const per = Math.ceil(items / categories);
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
          itemOfferId: Array.from({ length: per }, (_, k) => c * per + k)
            .filter((i) => i < items)
            .map((i) => `O${i}`),
        })),
        itemOffers: Array.from({ length: items }, (_, i) => ({
          id: `O${i}`,
          itemId: `P${i}`,
          price: { value: Number((10 + (i % 1000) / 100).toFixed(2)) },
          status: 'AVAILABLE',
        })),
        items: Array.from({ length: items }, (_, i) => ({
          id: `P${i}`,
          name: `Produto ${i}`,
          description: `Descrição do produto ${i}`,
          unit: i % 2 ? 'KG' : 'UN',
          externalCode: String(10000 + i),
          ean: String(7890000000000 + i),
          image: { url: `https://img.example/p${i}.jpg` },
        })),
      },
    ],
  };
}

const name = `cleaver_bench_crash_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const db = openPostgres({ connectionString: url.toString() });
const children = new Set<ChildProcess>();

async function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/cli.js', 'serve', '--role', 'worker'], {
    env: serviceEnv({
      ...process.env,
      PORT: '0',
      DATABASE_URL: url.toString(),
      CLEAVER_ADMIN_TOKEN: ADMIN,
      CLEAVER_SECRET_KEY: SECRET,
      CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (c) => {
      buffer += c;
      if (buffer.includes('listening on')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return child;
}

async function syncRow(merchantId: string) {
  const { rows } = await db.query<{ status: string; lease_owner: string | null; attempts: number }>(
    'SELECT status, lease_owner, attempts FROM catalog_syncs WHERE merchant_id = $1 ORDER BY seq DESC LIMIT 1',
    [merchantId],
  );
  return rows[0];
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = await probe();
    if (v !== undefined) return v;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

try {
  await migrate(db);
  const config = loadConfig({
    CLEAVER_ADMIN_TOKEN: ADMIN,
    CLEAVER_SECRET_KEY: SECRET,
    CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
    CLEAVER_RATE_LIMIT_WRITE: '1000000',
  });
  const services = createServices({ config, db, clock: systemClock });
  await services.auth.start();
  const app = await buildApp(services);
  await app.ready();
  const body = JSON.stringify(catalog(ITEMS, 400));

  async function upload() {
    const merchant = await services.merchants.createMerchant({ name: 'Bench' });
    const key = await services.auth.createIntegrationKey(merchant.id, 'bench');
    const token = await services.auth.issueTokenForClient(merchant.id, key.clientSecret);
    const put = await app.inject({
      method: 'PUT',
      url: '/v1/merchantUpdate',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      payload: body,
    });
    if (put.statusCode !== 204) throw new Error(`upload answered ${put.statusCode}: ${put.body}`);
    return merchant.id;
  }
  const done = (merchantId: string) => async () => {
    const row = await syncRow(merchantId);
    if (row?.status === 'PROCESSING') return undefined;
    if (row?.status !== 'SUCCESS') throw new Error(`sync ended ${row?.status}`);
    return row;
  };

  // Clean run: one worker, upload → SUCCESS.
  const first = await startWorker();
  const cleanStarted = performance.now();
  const clean = await upload();
  await waitFor('clean sync', done(clean));
  const cleanMs = performance.now() - cleanStarted;

  // Crash: the only worker is killed while it applies the upload; a new one is started at once
  // (what a supervisor does), and re-runs the upload when the dead worker's lease lapses.
  const crashMerchant = await upload();
  await waitFor('claim', async () => (await syncRow(crashMerchant))?.lease_owner ?? undefined);
  await sleep(Math.min(500, cleanMs / 4)); // mid-apply
  const stillRunning = (await syncRow(crashMerchant))?.status === 'PROCESSING';
  const killedAt = performance.now();
  first.kill('SIGKILL');
  const second = await startWorker();
  const restartedS = (performance.now() - killedAt) / 1000;
  const retaken = await waitFor('lease retaken', async () => {
    const row = await syncRow(crashMerchant);
    return row && (row.attempts > 1 || row.status !== 'PROCESSING') ? performance.now() : undefined;
  });
  await waitFor('re-run', done(crashMerchant));
  const finishedAt = performance.now();
  const row = await syncRow(crashMerchant);
  second.kill('SIGTERM');
  await app.close();
  await services.auth.stop();

  const toRerun = (retaken - killedAt) / 1000;
  const toDone = (finishedAt - killedAt) / 1000;
  console.log(
    `machine: ${machine()}; PostgreSQL; ${fmt(ITEMS)} items / 400 categories; lease ${config.catalogLeaseSec} s`,
  );
  console.log(`clean run (one worker, 204 → SUCCESS): ${fmt(cleanMs)} ms`);
  console.log(
    `crash: worker killed ${stillRunning ? 'mid-apply' : 'after the apply (too fast to catch)'}; ` +
      `new worker ready ${fmt(restartedS, 1)} s after the crash; lease retaken ${fmt(toRerun, 1)} s after the crash, SUCCESS ${fmt(toDone, 1)} s after it (attempts ${row?.attempts})`,
  );
  reportRow({
    workload: `${fmt(ITEMS / 1000)}k-item catalog after a worker crash (time from SIGKILL to re-run / to SUCCESS)`,
    baseline: `clean run ${fmt(cleanMs / 1000, 1)} s`,
    now: `re-run after ${fmt(toRerun, 1)} s, done after ${fmt(toDone, 1)} s`,
    ratio: `${fmt((toDone * 1000) / cleanMs, 1)}× clean`,
    goal: 're-run within 10 s of the crash',
    met: toRerun <= 10,
  });
} finally {
  for (const child of children) child.kill('SIGKILL');
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
