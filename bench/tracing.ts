// Tracing benchmark (docs/operations.md, "Tracing"; `node --import tsx bench/tracing.ts`): the
// server CPU per request of GET /v1/orders/{id} (the POS reading an order: bearer check, rate
// limit, two statements) with tracing off, on (every request sampled, its spans exported over
// OTLP/HTTP to a receiver in this process that reads and drops them), and off again in a second
// process: off vs off is the run's noise, on vs off the cost of tracing. Three processes on
// PGlite, the rounds alternating them so that load from elsewhere hits all alike; CPU is the
// server process's own (user + system, /proc), divided by the requests it answered.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fmt, load, machine, median, pinning, processCpuMs, reportRow, startTarget } from './support/measure.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

// The receiver: reads each export whole and answers as a collector does.
let spansBytes = 0;
const sink = createServer((req, res) => {
  req.on('data', (c: Buffer) => {
    spansBytes += c.length;
  });
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const otlp = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

interface Target {
  orderUrl: string;
  token: string;
  tracing: boolean;
}
const pinned = pinning();
const start = (env: Record<string, string>) =>
  startTarget<Target>('bench/support/tracing-target.ts', env, pinned ? { pinToCore: 1 } : {});
const targets = {
  off: await start({}),
  on: await start({ BENCH_OTLP: otlp, OTEL_BSP_SCHEDULE_DELAY: '200' }),
  offAgain: await start({}),
};
try {
  if (!targets.on.info.tracing || targets.off.info.tracing) throw new Error('targets not as asked');
  const cpuPerRequest: Record<keyof typeof targets, number[]> = { off: [], on: [], offAgain: [] };
  const rps: Record<keyof typeof targets, number[]> = { off: [], on: [], offAgain: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    for (const name of Object.keys(targets) as Array<keyof typeof targets>) {
      const { info, child } = targets[name];
      const before = processCpuMs(child.pid as number);
      const result = await load({
        url: info.orderUrl,
        headers: { authorization: `Bearer ${info.token}` },
        connections: 20,
        durationSec: SECONDS,
      });
      const cpu = processCpuMs(child.pid as number) - before;
      if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} answers were not 2xx`);
      if (round === 0) continue; // warm-up: JIT, caches
      cpuPerRequest[name].push((cpu * 1000) / (result.requestsPerSec * SECONDS));
      rps[name].push(result.requestsPerSec);
    }
  }
  const off = median(cpuPerRequest.off);
  const on = median(cpuPerRequest.on);
  const offAgain = median(cpuPerRequest.offAgain);
  console.log(`machine: ${machine()}; load pinned: ${pinned}; ${ROUNDS} rounds of ${SECONDS} s each`);
  for (const name of Object.keys(targets) as Array<keyof typeof targets>) {
    console.log(
      `${name}: CPU per request ${fmt(median(cpuPerRequest[name]), 1)} µs (${cpuPerRequest[name].map((x) => fmt(x, 1)).join(' / ')}), ` +
        `${fmt(median(rps[name]))} requests/s`,
    );
  }
  console.log(`spans exported: ${fmt(spansBytes / 1e6, 1)} MB of OTLP (protobuf)`);
  reportRow({
    workload: 'GET /v1/orders/{id}, server CPU per request, tracing off (a second process, also off, as the baseline)',
    baseline: `off ${fmt(offAgain, 1)} µs`,
    now: `off ${fmt(off, 1)} µs`,
    ratio: `${fmt(off / offAgain, 2)}×`,
    goal: 'within noise',
    met: Math.abs(off / offAgain - 1) <= 0.05,
  });
  reportRow({
    workload: 'GET /v1/orders/{id}, server CPU per request, tracing on (every request sampled, exported)',
    baseline: `off ${fmt(off, 1)} µs`,
    now: `on ${fmt(on, 1)} µs`,
    ratio: `${fmt(on / off, 2)}×`,
    goal: '≤ 1.10×',
    met: on / off <= 1.1,
  });
} finally {
  for (const { child } of Object.values(targets)) child.kill();
  sink.close();
}
