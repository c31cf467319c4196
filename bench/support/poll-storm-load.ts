// Child process of bench/poll-storm.ts: the load generator, in a process of its own. Open loop:
// polls are scheduled at a fixed rate (not "as fast as answers come back"), rotating over the
// tokens, each key always on the same one of the API processes; latency counts from the
// scheduled time, so a server that falls behind shows it in the p99 instead of silently slowing
// the generator. At most `maxInFlight` polls are outstanding; a poll that cannot be sent on time
// is counted as missed.
// Input: one JSON argument; output: one JSON line of results per phase.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const opts = JSON.parse(process.argv[2] as string) as {
  urls: string[];
  tokensFile: string;
  rate: number;
  /** `path` other than the poll: the same load on another route (the floor of any request). */
  phases: Array<{ name: string; seconds: number; path?: string }>;
  maxInFlight: number;
};
const tokens = readFileSync(opts.tokensFile, 'utf8').split('\n').filter(Boolean);
const pools = opts.urls.map((u) => new Pool(u, { connections: Math.ceil(opts.maxInFlight / opts.urls.length) }));
let next = 0;
// Phases after the first rotate over the keys the first one reached, so "tokens cached" holds
// even when the first pass could not reach every key in its time.
let reached = tokens.length;

async function phase(name: string, seconds: number, path = '/v1/events:polling') {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let inFlight = 0;
  let missed = 0;
  // Where in the phase the misses fell (second → count): a burst at the start is the processes
  // warming up, misses spread over the phase are a rate the service cannot hold.
  const missedBySecond: Record<number, number> = {};
  let sent = 0;
  const started = performance.now();
  const total = Math.round(opts.rate * seconds);
  next = 0;
  const keys = reached;
  const pending: Promise<void>[] = [];
  const fire = (due: number) => {
    const i = next++;
    // A key polls the same process every time (as a POS on its keep-alive connection does): with
    // the poll's number instead, an odd number of keys sent a key's next round to the other
    // process, where its token was new, and "tokens cached" was not true of every poll.
    const token = tokens[i % keys] as string;
    const pool = pools[(i % keys) % pools.length] as Pool;
    inFlight++;
    sent++;
    const p = pool
      .request({ path, method: 'GET', headers: { authorization: `Bearer ${token}` } })
      .then(async (res) => {
        await res.body.dump();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      })
      .catch((error: Error) => {
        statuses[error.name] = (statuses[error.name] ?? 0) + 1;
      })
      .finally(() => {
        inFlight--;
        latencies.push(performance.now() - due);
      });
    pending.push(p);
  };
  let scheduled = 0;
  while (scheduled < total) {
    const now = performance.now();
    const dueCount = Math.min(total, Math.floor(((now - started) / 1000) * opts.rate) + 1);
    while (scheduled < dueCount) {
      const due = started + (scheduled * 1000) / opts.rate;
      scheduled++;
      if (inFlight >= opts.maxInFlight) {
        missed++;
        const second = Math.floor((now - started) / 1000);
        missedBySecond[second] = (missedBySecond[second] ?? 0) + 1;
      } else fire(due);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  reached = Math.max(1, Math.min(keys, sent));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    name,
    seconds: elapsed,
    scheduled: total,
    keys: Math.min(keys, sent),
    sent,
    missed,
    missedBySecond,
    completedPerSec: latencies.length / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    statuses,
  };
}

for (const p of opts.phases) process.stdout.write(`${JSON.stringify(await phase(p.name, p.seconds, p.path))}\n`);
await Promise.all(pools.map((p) => p.close()));
