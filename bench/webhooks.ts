// Webhook delivery benchmark (`node --import tsx bench/webhooks.ts`): on PostgreSQL and PGlite,
// 1. throughput: N deliveries queued, then one worker process drains them to a local receiver
//    (another process); compared with a baseline of plain undici POSTs at the same concurrency
//    from the same process, measured in the same run;
// 2. latency: a steady 100 events/s, each committed in its own transaction; the time from
//    commit to the receiver seeing the request (first attempt), p50 / p99.
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a
// scratch database is created and dropped.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/lib/clock.js';
import { newId } from '../src/lib/ids.js';
import type { RecordedEvent } from '../src/modules/events/event-contract.js';
import { signWebhook } from '../src/modules/webhooks/index.js';
import { createServices } from '../src/services.js';
import { openBenchDb } from './support/bench-db.js';
import { cpuMeter, fmt, postgresPids, reportRow } from './support/measure.js';

const THROUGHPUT_N = Number(process.env.BENCH_WEBHOOK_N ?? 5000);
const RATE = 100; // events per second, latency phase
const LATENCY_SEC = Number(process.env.BENCH_WEBHOOK_LATENCY_SEC ?? 10);
const CONCURRENCY = 256; // the worker's default maxInFlight
const now = () => performance.timeOrigin + performance.now();
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Receiver {
  url: string;
  pid: number;
  arrivals: Map<string, number>;
  waitForAll(ids: string[], timeoutMs: number): Promise<void>;
  close(): void;
}

async function startReceiver(): Promise<Receiver> {
  const child = fork(join(import.meta.dirname, 'webhooks-receiver.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const arrivals = new Map<string, number>();
  let onArrival: () => void = () => {};
  const port = await new Promise<number>((resolve) => {
    child.on('message', (m: { port?: number; arrivals?: Array<[string, number]> }) => {
      if (m.port) resolve(m.port);
      if (m.arrivals) {
        for (const [id, at] of m.arrivals) if (!arrivals.has(id)) arrivals.set(id, at);
        onArrival();
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    pid: child.pid as number,
    waitForAll(ids, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: timed out (${arrivals.size} arrived)`)), timeoutMs);
        // Checked from where the last check stopped: a scan of every id per IPC message would
        // cost this process (the worker's) time the deliveries are measured on.
        let checked = 0;
        onArrival = () => {
          while (checked < ids.length && arrivals.has(ids[checked] as string)) checked++;
          if (checked === ids.length) {
            clearTimeout(timer);
            resolve();
          }
        };
        onArrival();
      });
    },
    close: () => child.kill(),
  };
}

function makeEvent(merchantId: string, orderId: string): RecordedEvent {
  const createdAt = new Date();
  return {
    occurrenceId: newId(),
    merchantId,
    orderId,
    eventType: 'CREATED',
    createdAt,
    polled: true,
    record: {
      eventId: '9b0c2b2e-4d0a-5b5e-8f1d-2a3c4e5f6a7b',
      eventType: 'CREATED',
      orderId,
      orderURL: `http://cleaver.bench/v1/orders/${orderId}`,
      createdAt: createdAt.toISOString(),
      sourceAppId: 'marketplace',
    },
  };
}

/**
 * BENCH_WEBHOOK_PROF=dir: a CPU profile of this process during the drain only (the worker runs
 * here), written as dir/webhooks-<db>.cpuprofile for where the time per delivery goes.
 */
async function startProfile() {
  const dir = process.env.BENCH_WEBHOOK_PROF;
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(kind: string) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(dir, `webhooks-${kind}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** CPU per message in µs: this process (sender or worker), the receiver, and PostgreSQL's processes. */
interface CpuSplit {
  self: number;
  receiver: number;
  postgres: number;
}

function startCpuMeter(receiver: Receiver, withPostgres: boolean): (n: number) => CpuSplit {
  const self = process.cpuUsage();
  const receiverCpu = cpuMeter(() => [receiver.pid]);
  const postgresCpu = cpuMeter(() => (withPostgres ? postgresPids() : []));
  return (n) => {
    const used = process.cpuUsage(self);
    return {
      self: (used.user + used.system) / n,
      receiver: (receiverCpu() * 1000) / n,
      postgres: (postgresCpu() * 1000) / n,
    };
  };
}

const cpuText = (c: CpuSplit, self: string) =>
  `CPU per message ${fmt(c.self)} µs ${self} + ${fmt(c.receiver)} µs receiver` +
  (c.postgres > 0 ? ` + ${fmt(c.postgres)} µs PostgreSQL` : '');

/** Baseline: signed POSTs of the same size straight from undici, CONCURRENCY at a time. */
async function baselinePosts(receiver: Receiver, n: number): Promise<{ rate: number; cpu: CpuSplit }> {
  const { url } = receiver;
  const agent = new Agent({ connections: 32 });
  const body = JSON.stringify(makeEvent(newId(), newId()).record);
  let next = 0;
  const meter = startCpuMeter(receiver, false);
  const started = now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next++;
        const headers = signWebhook({
          appId: newId(),
          merchantId: newId(),
          webhookId: newId(),
          timestampSec: Math.floor(Date.now() / 1000),
          body,
          secret: 'bench-secret',
        });
        const res = await request(`${url}/v1/orderUpdate`, { method: 'POST', headers, body, dispatcher: agent });
        await res.body.dump();
      }
    }),
  );
  const rate = n / ((now() - started) / 1000);
  const cpu = meter(n);
  await agent.close();
  return { rate, cpu };
}

async function run(kind: 'postgres' | 'pglite', receiver: Receiver, baseline: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-bench-'));
  const { db, close } = await openBenchDb(kind, 'webhooks');
  const config = loadConfig({
    CLEAVER_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdefghijklmnop',
    CLEAVER_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijklmnopqrs',
    CLEAVER_DATA_DIR: dataDir,
  });
  const services = createServices({ config, db, clock: systemClock });
  const merchant = await services.merchants.createMerchant({ name: 'Bench' });
  const key = await services.auth.createIntegrationKey(merchant.id, 'bench');
  await services.merchants.onboard(
    {
      merchantId: merchant.id,
      keyId: key.keyId,
      jti: newId(),
      expiresAt: Date.now() + 3_600_000,
      profile: key.profile,
    },
    { ordersWebhookURL: receiver.url },
  );
  const { webhooks } = services;

  // 1. throughput: queue N (5 events per order, so per-order ordering is exercised), then drain.
  const orders = Array.from({ length: Math.ceil(THROUGHPUT_N / 5) }, () => newId());
  const events = Array.from({ length: THROUGHPUT_N }, (_, i) => makeEvent(merchant.id, orders[i % orders.length]));
  for (let i = 0; i < events.length; i += 200) {
    await db.transaction(async (tx) => {
      for (const e of events.slice(i, i + 200)) await webhooks.enqueueForEvent(tx, e);
    });
  }
  const profiler = await startProfile();
  const meter = startCpuMeter(receiver, kind === 'postgres');
  const started = now();
  await webhooks.start();
  await receiver.waitForAll(
    events.map((e) => e.occurrenceId),
    300_000,
  );
  const elapsedMs = now() - started;
  const throughput = THROUGHPUT_N / (elapsedMs / 1000);
  const cpu = meter(THROUGHPUT_N);
  await profiler?.stop(kind);

  // 2. latency at a steady RATE: commit → first arrival.
  const committed = new Map<string, number>();
  const total = RATE * LATENCY_SEC;
  const t0 = now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const e = makeEvent(merchant.id, newId());
    await db.transaction((tx) => webhooks.enqueueForEvent(tx, e));
    committed.set(e.occurrenceId, now());
  }
  const achievedRate = total / ((now() - t0) / 1000);
  await receiver.waitForAll([...committed.keys()], 60_000);
  const latencies = [...committed].map(([id, at]) => (receiver.arrivals.get(id) as number) - at).sort((a, b) => a - b);
  await webhooks.stop();
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status',
  );
  await services.auth.stop();
  await close();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    kind,
    throughput,
    ratio: throughput / baseline,
    achievedRate,
    cpu,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    max: latencies[latencies.length - 1],
    states: rows.map((r) => `${r.status} ${r.n}`).join(', '),
  };
}

async function main() {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const receiver = await startReceiver();
  // Warm-up, not counted: the first baseline otherwise runs on cold JIT and a cold receiver,
  // which made it 1.5–2× slower than the same baseline a minute later in the same run.
  await baselinePosts(receiver, THROUGHPUT_N);
  const kinds = (process.env.BENCH_DB ?? 'postgres,pglite').split(',') as Array<'postgres' | 'pglite'>;
  for (const kind of kinds) {
    // The baseline right before each run, so both see the same machine load.
    const { rate: baseline, cpu } = await baselinePosts(receiver, THROUGHPUT_N);
    console.log(
      `baseline: plain signed undici POSTs, ${CONCURRENCY} in flight: ${fmt(baseline)} req/s; ${cpuText(cpu, 'sender')}`,
    );
    const r = await run(kind, receiver, baseline);
    const goal = kind === 'postgres' ? 0.85 : 0.3;
    reportRow({
      workload: `webhook deliveries/s on ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
      baseline: `plain signed undici POSTs, same receiver ${fmt(baseline)} req/s`,
      now: `${fmt(r.throughput)}/s`,
      ratio: `${fmt(r.ratio, 2)}×`,
      goal: `≥ ${goal}×`,
      met: r.ratio >= goal,
    });
    console.log(
      `${kind}: ${fmt(r.throughput)} deliveries/s (${fmt(r.ratio, 2)} × baseline) for ${THROUGHPUT_N}, ` +
        `${cpuText(r.cpu, kind === 'postgres' ? 'worker' : 'worker and PGlite')}; ` +
        `at ${fmt(r.achievedRate, 1)} events/s commit → first attempt p50 ${fmt(r.p50, 1)} ms, ` +
        `p99 ${fmt(r.p99, 1)} ms, max ${fmt(r.max, 1)} ms; rows: ${r.states}`,
    );
    if (kind === 'postgres') {
      const ok = r.throughput >= 1000 && r.p99 <= 200;
      console.log(`postgres targets (≥ 1,000 deliveries/s, p99 ≤ 200 ms): ${ok ? 'met' : 'NOT met'}`);
    }
  }
  receiver.close();
}

await main();
