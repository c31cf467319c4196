// Benchmark (architecture.md#benchmarks, docs/adr/0012-pending-keys-cache.md): GET /v1/events:polling answering 204 (a key
// with nothing pending, the common poll) against the same service's /health/live and a bare
// Fastify hello, in the same run, on PostgreSQL with the rate-limit counters in Redis (D23).
// Beside it: the same poll without the pending-keys cache (every poll reads the database, as
// before docs/adr/0012-pending-keys-cache.md), and with the counters in memory (what the
// limiter's Redis round trip costs). Rounds alternate the targets so that load from elsewhere on
// the machine hits all of them alike.
// Run: node --import tsx bench/poll-204.ts (BENCH_ROUNDS, BENCH_SECONDS)
import { fmt, load, machine, median, pinning, ratio, reportRow, startTarget } from './support/measure.js';

interface Target {
  bareUrl: string;
  cachedUrl: string;
  uncachedUrl: string;
  memoryUrl: string;
  token: string;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

const pinned = pinning();
const { info, child } = await startTarget<Target>(
  'bench/support/poll-204-target.ts',
  {},
  pinned ? { pinToCore: 1 } : {},
);
try {
  const auth = { authorization: `Bearer ${info.token}` };
  const poll = (base: string) => () => load({ url: `${base}/v1/events:polling`, headers: auth, durationSec: SECONDS });
  const targets = {
    bare: () => load({ url: info.bareUrl, durationSec: SECONDS }),
    health: () => load({ url: `${info.cachedUrl}/health/live`, durationSec: SECONDS }),
    poll: poll(info.cachedUrl),
    uncached: poll(info.uncachedUrl),
    memory: poll(info.memoryUrl),
  };
  type Name = keyof typeof targets;
  for (const run of Object.values(targets)) await run(); // warm-up: JIT, token caches, the key learned
  const rows: Record<Name, number[]> = { bare: [], health: [], poll: [], uncached: [], memory: [] };
  const p99: Record<Name, number[]> = { bare: [], health: [], poll: [], uncached: [], memory: [] };
  let errors = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(targets) as [Name, () => ReturnType<typeof load>][]) {
      const r = await run();
      rows[name].push(r.requestsPerSec);
      p99[name].push(r.p99Ms);
      errors += r.non2xx; // a 204 counts as 2xx
    }
  }
  const m = (name: Name) => median(rows[name]);
  const rounds = (name: Name) => rows[name].map((x) => fmt(x)).join(' / ');
  console.log(
    `machine: ${machine()}; ${ROUNDS} rounds of ${SECONDS} s, 50 connections; PostgreSQL, Redis counters; ${pinned ? 'load on core 0, server on core 1' : 'not pinned'}`,
  );
  const label: Record<Name, string> = {
    bare: 'bare Fastify hello                ',
    health: 'GET /health/live                  ',
    poll: 'poll 204 (pending-keys cache)     ',
    uncached: 'poll 204, every poll reads the DB ',
    memory: 'poll 204, cache, counters in memory',
  };
  for (const name of Object.keys(targets) as Name[]) {
    console.log(`${label[name]} median ${fmt(m(name))} req/s, p99 ${fmt(median(p99[name]))} ms (${rounds(name)})`);
  }
  // The headline ratio is the median of each round's own ratio: a round's poll runs right after
  // its /health/live, so the two share the host's speed of that moment, which on this kind of
  // virtual machine moved by half between rounds of one run (the ratio of the medians is printed
  // beside it).
  const perRound = (a: Name, b: Name) => median(rows[a].map((x, i) => ratio(x, rows[b][i] as number)));
  const vsHealth = perRound('poll', 'health');
  const vsBare = perRound('poll', 'bare');
  const vsHealthOfMedians = ratio(m('poll'), m('health'));
  const limiter = 1 - ratio(m('poll'), m('memory'));
  console.log(
    `poll 204 / /health/live ${fmt(vsHealth, 2)} (median of the rounds' ratios: ${rows.poll
      .map((x, i) => fmt(ratio(x, rows.health[i] as number), 2))
      .join(' / ')}; ratio of the medians ${fmt(vsHealthOfMedians, 2)}); / bare hello ${fmt(vsBare, 2)}`,
  );
  console.log(`the cache: ${fmt(ratio(m('poll'), m('uncached')), 2)}× the poll that reads the database`);
  console.log(`Redis counters cost the poll ${fmt(limiter * 100, 1)} % of its throughput against counters in memory`);
  reportRow({
    workload: 'GET /v1/events:polling answering 204 vs /health/live (PostgreSQL, Redis counters)',
    baseline: `/health/live ${fmt(m('health'))} req/s; bare hello ${fmt(m('bare'))} req/s`,
    now: `${fmt(m('poll'))} req/s (${fmt(vsBare, 2)}× bare); without the cache ${fmt(m('uncached'))} req/s`,
    ratio: `${fmt(vsHealth, 2)} (median of rounds; ratio of medians ${fmt(vsHealthOfMedians, 2)})`,
    goal: '≥ 0.8×',
    met: vsHealth >= 0.8,
  });
  if (errors) {
    console.log(`errors: ${errors}`);
    process.exitCode = 1;
  }
} finally {
  child.stdin?.end();
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
}
