// Poll storm (architecture.md#benchmarks): 100,000 integration keys, each polling every 30 s,
// i.e. 3,300 polls/s, against two API processes (`node dist/cli.js serve --role api`, the
// production build) on one PostgreSQL database and one Redis (the shared rate-limit counters,
// D23), almost every poll answering 204. The load generator is a process of its own
// (support/poll-storm-load.ts, open loop at the target rate).
// - Keys are created set-based (generate_series: one merchant and one key per row), and their
//   tokens minted here with the service's signing key and claims (what POST /oauth/token
//   returns), not through 100,000 token requests. No key has a pending event: every poll is
//   the common case, a 204.
// - Phases: the first pass over the keys (every token new to both processes: signature check and
//   one key-state read each), then three more passes (tokens cached), then the service's own
//   GET /health/live at the same rate (what any request costs this host: the steady phase's row
//   names it beside the poll's figure).
// - CPU per poll: user + system time of both API processes from /proc/PID/stat over each phase,
//   and apart that of PostgreSQL and Redis (every process of theirs on this machine),
//   divided by the polls answered.
// Configure: BENCH_STORM_KEYS (100000), BENCH_STORM_RATE (3300), BENCH_STORM_SEC (seconds per
// pass; default keys / rate, one full pass), BENCH_REDIS_URL (redis://127.0.0.1:6379/9; a
// database index of its own), BENCH_DATABASE_URL, BENCH_STORM_NODE_FLAGS (Node flags of the API
// processes), BENCH_STORM_PROF (a directory: their CPU profiles).
// Run: node --import tsx bench/poll-storm.ts
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import pg from 'pg';
import { serviceEnv } from '../scripts/service-env.mjs';
import { migrate } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { deriveKey } from '../src/lib/crypto.js';
import { AUDIENCE, ISSUER, TOKEN_LIFETIME_SEC } from '../src/modules/auth/auth-service.js';
import { cpuMeter, fmt, machine, postgresPids, processCpuMs, processesNamed, reportRow } from './support/measure.js';

const KEYS = Number(process.env.BENCH_STORM_KEYS ?? 100_000);
const RATE = Number(process.env.BENCH_STORM_RATE ?? 3_300);
const SECONDS = Number(process.env.BENCH_STORM_SEC ?? Math.ceil(KEYS / RATE));
const FLOOR_PHASE = 'GET /health/live at the same rate (what any request costs this host)';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const SECRET = 'bench-secret-key-0123456789abcdefghijklmnopqrstu';
const base =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

if (!existsSync('dist/cli.js')) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

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

const name = `cleaver_bench_storm_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const dbUrl = new URL(base);
dbUrl.pathname = `/${name}`;
const children: ChildProcess[] = [];
const tokensFile = join(tmpdir(), `${name}.tokens`);

try {
  const db = openPostgres({ connectionString: dbUrl.toString() });
  await migrate(db);
  const setupStarted = performance.now();
  await db.query(
    `INSERT INTO merchants (id, name) SELECT md5('bench-m-' || g)::uuid, 'Açougue ' || g FROM generate_series(1, $1::int) g`,
    [KEYS],
  );
  // The secret columns are never read here (no token requests, no webhooks).
  await db.query(
    `INSERT INTO integration_keys (id, merchant_id, name, secret_hash, secret_enc)
     SELECT md5('bench-k-' || g)::uuid, md5('bench-m-' || g)::uuid, 'storm', 'unused', 'unused'
       FROM generate_series(1, $1::int) g`,
    [KEYS],
  );
  const { rows } = await db.query<{ id: string; merchant_id: string }>(
    'SELECT id, merchant_id FROM integration_keys ORDER BY id',
  );
  await db.close();
  const jwtKey = deriveKey(SECRET, 'jwt-hs256');
  const iat = Math.floor(Date.now() / 1000);
  const tokens: string[] = [];
  for (const row of rows) {
    tokens.push(
      await new SignJWT({ kid: row.id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: row.id })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(row.merchant_id)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_LIFETIME_SEC)
        .sign(jwtKey),
    );
  }
  writeFileSync(tokensFile, tokens.join('\n'));
  const setupSec = (performance.now() - setupStarted) / 1000;

  const servers: { child: ChildProcess; url: string }[] = [];
  for (let i = 0; i < 2; i++) {
    // BENCH_STORM_PROF=dir: CPU profiles of the API processes (written when they stop).
    const prof = process.env.BENCH_STORM_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_STORM_PROF] : [];
    // BENCH_STORM_NODE_FLAGS="--flag …": Node flags of the API processes, to try a runtime setting.
    const flags = process.env.BENCH_STORM_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(
      process.execPath,
      [...prof, ...flags, '--enable-source-maps', 'dist/cli.js', 'serve', '--role', 'api'],
      {
        env: serviceEnv({
          ...process.env,
          PORT: '0',
          DATABASE_URL: dbUrl.toString(),
          REDIS_URL,
          CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijklmnop',
          CLEAVER_SECRET_KEY: SECRET,
          CLEAVER_DATA_DIR: '/nonexistent-bench-dir',
        }),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    servers.push({
      child,
      url: ((await lineFrom(child, /listening on (http:\/\/\S+)/))[1] as string).replace(/\/$/, ''),
    });
  }

  // Last, the service's own /health/live at the same rate over the same connections: what any
  // request costs this host under this load (sockets, HTTP, the event loop), beside which the
  // poll's own share reads apart from the host's speed (figures moved by half between runs an
  // hour apart on one machine).
  const phases = [
    { name: 'first pass (tokens new to the processes)', seconds: SECONDS },
    // Three passes: a key's third and fourth polls come 60 and 90 s after the read that taught the
    // process its key was empty, at and past KNOWN_EMPTY_MS, so this phase shows whether polls keep
    // that knowledge alive (docs/adr/0012-pending-keys-cache.md), as a POS polling for hours does.
    { name: 'steady state, three more passes (tokens cached)', seconds: 3 * SECONDS },
    { name: FLOOR_PHASE, seconds: Math.min(SECONDS, 15), path: '/health/live' },
  ];
  const load = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/support/poll-storm-load.ts',
      JSON.stringify({ urls: servers.map((s) => s.url), tokensFile, rate: RATE, phases, maxInFlight: 512 }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(load);
  const pids = servers.map((s) => s.child.pid as number);
  const cpuAt = () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  let cpuMark = cpuAt();
  let postgresCpu = cpuMeter(postgresPids);
  let redisCpu = cpuMeter(() => processesNamed('redis-server'));
  const results: Array<
    Record<string, unknown> & { cpuMs: number; postgresMs: number; redisMs: number; runtime: Promise<RuntimeFigures> }
  > = [];
  // Each scrape of /metrics reads the event-loop delays since the last one (prom-client resets
  // them), so the scrape at a phase's end covers that phase.
  let runtimeMark = runtimeOf(servers.map((s) => s.url));
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    load.stdout?.on('data', (c) => {
      buffer += c;
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const now = cpuAt();
        const before = runtimeMark;
        runtimeMark = runtimeOf(servers.map((s) => s.url));
        const runtime = Promise.all([before, runtimeMark]).then(([a, b]) => runtimeBetween(a, b));
        results.push({
          ...JSON.parse(line),
          cpuMs: now - cpuMark,
          postgresMs: postgresCpu(),
          redisMs: redisCpu(),
          runtime,
        });
        cpuMark = now;
        postgresCpu = cpuMeter(postgresPids);
        redisCpu = cpuMeter(() => processesNamed('redis-server'));
        nl = buffer.indexOf('\n');
      }
    });
    load.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited with ${code}`))));
  });

  console.log(
    `machine: ${machine()}; PostgreSQL + Redis (${REDIS_URL}); 2 API processes; ${fmt(KEYS)} keys ` +
      `(set up in ${fmt(setupSec, 1)} s); target ${fmt(RATE)} polls/s, ${SECONDS} s per phase, open loop, ≤ 512 in flight`,
  );
  type PhaseResult = {
    name: string;
    completedPerSec: number;
    p50: number;
    p99: number;
    max: number;
    missed: number;
    missedBySecond: Record<string, number>;
    sent: number;
    keys: number;
    statuses: Record<string, number>;
    cpuMs: number;
    postgresMs: number;
    redisMs: number;
    runtime: Promise<RuntimeFigures>;
  };
  const answeredOf = (r: PhaseResult) => (r.statuses['204'] ?? 0) + (r.statuses['200'] ?? 0);
  const floor = (results as unknown as PhaseResult[]).find((r) => r.name === FLOOR_PHASE);
  const floorUs = floor
    ? ((floor.cpuMs + floor.postgresMs + floor.redisMs) / Math.max(1, answeredOf(floor))) * 1000
    : NaN;
  for (const r of results as unknown as PhaseResult[]) {
    const answered = answeredOf(r);
    // Failed answers (anything but 200/204, or none) are errors; polls the generator could not
    // send on schedule (512 already in flight) are counted apart: the service fell behind.
    const errors = r.sent - answered;
    const noun = r === floor ? 'request' : 'poll';
    const runtime = await r.runtime;
    console.log(
      `${r.name}, ${fmt(r.keys)} distinct keys: ${fmt(r.completedPerSec)} ${noun}s/s answered; latency from the scheduled time p50 ${fmt(r.p50, 1)} ms, ` +
        `p99 ${fmt(r.p99, 1)} ms, max ${fmt(r.max)} ms; answers ${JSON.stringify(r.statuses)}; not sent on time ${r.missed}${lateSeconds(r.missedBySecond)}; ` +
        `CPU of the API processes ${fmt((r.cpuMs / Math.max(1, answered)) * 1000, 0)} µs per ${noun} ` +
        `(PostgreSQL ${fmt((r.postgresMs / Math.max(1, answered)) * 1000, 0)} µs, Redis ${fmt((r.redisMs / Math.max(1, answered)) * 1000, 0)} µs); ` +
        `API processes' runtime: ${describeRuntime(runtime)}`,
    );
    // CPU per poll by process, and all of them together (goal ≤ 150 µs in the steady state, tokens
    // and keys known; the first pass verifies every token and reads every key).
    const perPoll = (ms: number) => (ms / Math.max(1, answered)) * 1000;
    const total = perPoll(r.cpuMs + r.postgresMs + r.redisMs);
    if (r === floor) continue;
    const steady = r.name.startsWith('steady');
    const sustained = r.completedPerSec >= RATE * 0.98 && errors === 0 && r.missed === 0;
    reportRow({
      workload: `poll storm, ${r.name}: ${fmt(KEYS)} keys, 2 API processes, PostgreSQL + Redis`,
      baseline: `target ${fmt(RATE)} polls/s; GET /health/live at that rate ${fmt(floorUs)} µs CPU/request`,
      now:
        `${fmt(r.completedPerSec)}/s, p99 ${fmt(r.p99)} ms, CPU/poll ${fmt(total)} µs (API ${fmt(perPoll(r.cpuMs))}, ` +
        `PostgreSQL ${fmt(perPoll(r.postgresMs))}, Redis ${fmt(perPoll(r.redisMs))}), ${errors} errors, ${r.missed} not sent on time`,
      ratio: `${fmt(r.completedPerSec / RATE, 2)}× target`,
      goal: steady
        ? `${fmt(RATE)} polls/s sustained, 0 errors, p99 ≤ 50 ms, ≤ 150 µs CPU/poll in all`
        : `${fmt(RATE)} polls/s sustained, 0 errors`,
      met: steady ? sustained && r.p99 <= 50 && total <= 150 : sustained,
    });
  }
} finally {
  // SIGTERM first: the API processes stop cleanly (and write their profiles).
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(tokensFile, { force: true });
  await new Promise((r) => setTimeout(r, 300));
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/** What the API processes' own metrics say of their garbage collector and event loop. */
interface RuntimeFigures {
  /** Per process: collections and seconds spent, by kind; the longest event-loop delay since the last scrape. */
  processes: Array<{ gc: Record<string, { count: number; seconds: number }>; loopDelayMaxSec: number }>;
}

async function runtimeOf(urls: string[]): Promise<RuntimeFigures> {
  const processes = await Promise.all(
    urls.map(async (url) => {
      const text = await fetch(`${url}/metrics`)
        .then((res) => res.text())
        .catch(() => '');
      const gc: Record<string, { count: number; seconds: number }> = {};
      for (const m of text.matchAll(/^cleaver_nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)$/gm)) {
        const [, what, kind, value] = m as unknown as [string, 'sum' | 'count', string, string];
        gc[kind] ??= { count: 0, seconds: 0 };
        if (what === 'sum') gc[kind].seconds = Number(value);
        else gc[kind].count = Number(value);
      }
      const delay = /^cleaver_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
      return { gc, loopDelayMaxSec: delay ? Number(delay[1]) : Number.NaN };
    }),
  );
  return { processes };
}

/** The collections of the interval between two scrapes; the event-loop delay as the later one read it. */
function runtimeBetween(a: RuntimeFigures, b: RuntimeFigures): RuntimeFigures {
  return {
    processes: b.processes.map((p, i) => {
      const gc: Record<string, { count: number; seconds: number }> = {};
      for (const [kind, v] of Object.entries(p.gc)) {
        const was = a.processes[i]?.gc[kind] ?? { count: 0, seconds: 0 };
        gc[kind] = { count: v.count - was.count, seconds: v.seconds - was.seconds };
      }
      return { gc, loopDelayMaxSec: p.loopDelayMaxSec };
    }),
  };
}

/** "GC minor 120 × 1.1 ms, major 1 × 40 ms, loop delay max 35 ms | …", one part per process. */
function describeRuntime(r: RuntimeFigures): string {
  return r.processes
    .map((p) => {
      const kinds = Object.entries(p.gc)
        .filter(([, v]) => v.count > 0)
        .map(([kind, v]) => `${kind} ${v.count} × ${fmt((v.seconds / v.count) * 1000, 1)} ms`);
      return `GC ${kinds.join(', ') || 'none'}, loop delay max ${fmt(p.loopDelayMaxSec * 1000)} ms`;
    })
    .join(' | ');
}

/** " (second 0: 812, second 1: 154)": where in the phase the polls not sent on time fell. */
function lateSeconds(bySecond: Record<string, number>): string {
  const parts = Object.entries(bySecond).map(([second, n]) => `second ${second}: ${n}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
