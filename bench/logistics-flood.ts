// Logistics flood (architecture.md#benchmarks, spec 5.2): while an attacker sends 9 MB bodies
// with a known X-App-Id / X-App-MerchantId and a wrong signature, other clients' p99 on
// /health/live and on a normal API route (GET /v1/events:polling with a token, 204) must stay
// under 100 ms; baseline: the same probes in the same run with no flood. The server is the
// production build (`node dist/cli.js serve`) on a scratch PostgreSQL database; the attacker is
// a process of its own (support/flood-attacker.ts), the probes run here at a steady 50 req/s
// each. Rounds alternate quiet and flood phases; p99 over each phase's samples.
// Run: node --import tsx bench/logistics-flood.ts
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { request } from 'undici';
import { serviceEnv } from '../scripts/service-env.mjs';
import { fmt, machine, reportRow } from './support/measure.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PHASE_MS = Number(process.env.BENCH_PHASE_SEC ?? 5) * 1000;
const ADMIN = 'bench-admin-token-0123456789abcdefghijklmnop';
const base =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] ?? 0;

if (!existsSync('dist/cli.js')) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

const name = `cleaver_bench_flood_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const dbUrl = new URL(base);
dbUrl.pathname = `/${name}`;
const children: ChildProcess[] = [];

/** The first match in a child's output; what it writes after that is discarded. */
function lineFrom(child: ChildProcess, match: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (c: Buffer) => {
      buffer += c;
      const m = match.exec(buffer);
      if (m) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

async function json(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const res = await request(url, {
    method: method as 'POST',
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${text}`);
  return JSON.parse(text);
}

try {
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/cli.js', 'serve'], {
    env: serviceEnv({
      ...process.env,
      PORT: '0',
      DATABASE_URL: dbUrl.toString(),
      CLEAVER_ADMIN_TOKEN: ADMIN,
      CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrstu',
      CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
      CLEAVER_RATE_LIMIT_READ: '10000000',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(server);
  const url = ((await lineFrom(server, /listening on (http:\/\/\S+)/))[1] as string).replace(/\/$/, '');
  const adminH = { authorization: `Bearer ${ADMIN}` };
  const merchant = await json(`${url}/admin/v1/merchants`, 'POST', adminH, { name: 'Açougue Alvo' });
  const key = await json(`${url}/admin/v1/merchants/${merchant.id}/integrationKeys`, 'POST', adminH, {});
  const token = await json(
    `${url}/oauth/token`,
    'POST',
    {},
    {
      client_id: merchant.id,
      client_secret: key.clientSecret,
      grant_type: 'client_credentials',
    },
  );
  const partner = await json(`${url}/admin/v1/logisticsApps`, 'POST', adminH, {
    name: 'Entregas',
    merchantIds: [merchant.id],
  });
  const api = { authorization: `Bearer ${token.access_token}` };

  /** Two probes at a steady 50 req/s each for `ms`; latencies per probe, and non-2xx answers. */
  async function probe(ms: number) {
    const out = { health: [] as number[], api: [] as number[], errors: 0 };
    const until = performance.now() + ms;
    const one = async (path: string, headers: Record<string, string>, into: number[]) => {
      while (performance.now() < until) {
        const started = performance.now();
        try {
          const res = await request(`${url}${path}`, { headers });
          await res.body.text();
          if (res.statusCode >= 300) out.errors++;
        } catch {
          out.errors++;
        }
        const took = performance.now() - started;
        into.push(took);
        await sleep(Math.max(0, 20 - took));
      }
    };
    await Promise.all([one('/health/live', {}, out.health), one('/v1/events:polling', api, out.api)]);
    return out;
  }

  await probe(1000); // warm-up
  const quiet = { health: [] as number[], api: [] as number[], errors: 0 };
  const flood = { health: [] as number[], api: [] as number[], errors: 0 };
  const outcomes: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const q = await probe(PHASE_MS);
    quiet.health.push(...q.health);
    quiet.api.push(...q.api);
    quiet.errors += q.errors;
    const attacker = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/support/flood-attacker.ts',
        JSON.stringify({ url, appId: partner.appId, merchantId: merchant.id }),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.push(attacker);
    await lineFrom(attacker, /ready/);
    await sleep(300); // the first bodies are in flight
    const f = await probe(PHASE_MS);
    flood.health.push(...f.health);
    flood.api.push(...f.api);
    flood.errors += f.errors;
    const result = lineFrom(attacker, /(\{.*\})\n/);
    attacker.stdin?.end();
    for (const [status, n] of Object.entries(JSON.parse((await result)[1] as string) as Record<string, number>)) {
      outcomes[status] = (outcomes[status] ?? 0) + n;
    }
  }

  console.log(
    `machine: ${machine()}; PostgreSQL; ${ROUNDS} rounds of ${PHASE_MS / 1000} s quiet + ${PHASE_MS / 1000} s flood; ` +
      'attacker: 2 connections of 9 MB + 1 of 900 KB bodies, wrong signature, back to back',
  );
  console.log(
    `attacker answers: ${Object.entries(outcomes)
      .map(([s, n]) => `${s} × ${n}`)
      .join(', ')}`,
  );
  for (const [label, key] of [
    ['/health/live', 'health'],
    ['GET /v1/events:polling (204)', 'api'],
  ] as const) {
    console.log(
      `${label.padEnd(30)} p99 quiet ${fmt(p99(quiet[key]), 1)} ms (${quiet[key].length} requests), ` +
        `under flood ${fmt(p99(flood[key]), 1)} ms (${flood[key].length} requests)`,
    );
    reportRow({
      workload: `logistics flood (9 MB wrongly signed bodies): other clients' ${label} p99`,
      baseline: `no flood ${fmt(p99(quiet[key]), 1)} ms`,
      now: `${fmt(p99(flood[key]), 1)} ms`,
      ratio: `${fmt(p99(flood[key]) / Math.max(0.1, p99(quiet[key])), 1)}×`,
      goal: '< 100 ms',
      met: p99(flood[key]) < 100 && flood.errors === 0,
    });
  }
  console.log(`probe errors: quiet ${quiet.errors}, flood ${flood.errors}`);
  if (quiet.errors + flood.errors) process.exitCode = 1;
} finally {
  for (const child of children) child.kill('SIGKILL');
  await sleep(200);
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
