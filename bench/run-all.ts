// `npm run bench`: runs every benchmark in bench/ one after the other and writes their output,
// with the machine and the time each took, into docs/benchmarks.md between the markers below.
// The prose sections of that file (what each figure means) are kept as they are.
// The soak runs only with BENCH_SOAK=1 (it takes SOAK_SECONDS, 5 minutes by default).
// Each bench prints its rows of the performance table (`ROW {json}` lines, reportRow in
// support/measure.ts); they are gathered into one table printed at the end, each figure beside its
// same-run baseline and ratio. BENCH_ONLY=startup,auth runs a subset (file names without .ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { machine, ROW_PREFIX, type TableRow } from './support/measure.js';

const BEGIN = '<!-- bench:results:begin -->';
const END = '<!-- bench:results:end -->';
const DOC = 'docs/benchmarks.md';

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const benches = [
  {
    file: 'bench/auth.ts',
    what: 'auth layer vs bare Fastify route, with and without the request log; POST /oauth/token',
  },
  { file: 'bench/request-log.ts', what: 'request log: CPU per request with every row written and trimmed (PGlite)' },
  { file: 'bench/tracing.ts', what: 'tracing: server CPU per request off, on (every request exported) and off again' },
  {
    file: 'bench/poll-204.ts',
    what: 'poll answering 204 vs /health/live vs a bare Fastify hello; without the cache; counters in memory',
  },
  {
    file: 'bench/polling.ts',
    what: 'polling with 1k vs 1M acknowledged events, cleaver and opendelivery keys; GET order vs bare primary-key read',
  },
  { file: 'bench/catalog.ts', what: 'MERCHANT upload 10k/50k items vs plain bulk insert, PostgreSQL and PGlite' },
  {
    file: 'bench/od-catalog.ts',
    what: 'Open Delivery menu of 10k items pulled from a local POS vs the same catalog as a MERCHANT upload',
  },
  { file: 'bench/webhooks.ts', what: 'deliveries per second and commit-to-attempt latency' },
  {
    file: 'bench/feed-relay.ts',
    what: 'platform feed items/s through the NATS relay vs a plain JetStream publish loop; commit → stream lag at 150/s',
  },
  { file: 'bench/catalog-crash.ts', what: '20k-item catalog re-run after a worker is killed mid-sync' },
  {
    file: 'bench/statements-close.ts',
    what: 'closing a week of 2,000 merchants × 300 orders vs a bare SUM GROUP BY (PostgreSQL)',
  },
  {
    file: 'bench/startup.ts',
    what: 'start to ready and RSS after start, PostgreSQL and PGlite, vs a bare Fastify hello',
  },
  {
    file: 'bench/logistics-flood.ts',
    what: 'p99 of other clients while an attacker sends 9 MB wrongly signed logistics bodies',
  },
  { file: 'bench/poll-storm.ts', what: '100,000 integration keys polling two API processes on PostgreSQL and Redis' },
  ...(process.env.BENCH_SOAK === '1' ? [{ file: 'bench/soak.ts', what: 'mixed traffic, RSS growth and errors' }] : []),
]
  .filter((b) => existsSync(b.file))
  .filter((b) => !only || only.includes(b.file.replace(/^bench\/|\.ts$/g, '')));

const sections: string[] = [];
const table: TableRow[] = [];
let failed = 0;
for (const bench of benches) {
  process.stdout.write(`\n=== ${bench.file}: ${bench.what}\n`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench.file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(run.stdout ?? '');
  if (run.status !== 0) failed++;
  const lines = (run.stdout ?? '').split('\n');
  for (const line of lines) if (line.startsWith(ROW_PREFIX)) table.push(JSON.parse(line.slice(ROW_PREFIX.length)));
  const text = lines.filter((l) => !l.startsWith(ROW_PREFIX)).join('\n');
  sections.push(
    `### \`${bench.file}\` (${bench.what}; ${seconds} s${run.status === 0 ? '' : `; exit code ${run.status}`})\n\n` +
      `\`\`\`\n${text.trim()}\n\`\`\``,
  );
}

const cell = (s: string) => s.replace(/\|/g, '\\|');
const summary = [
  '| workload | baseline in the same run | now | ratio | goal | met |',
  '|---|---|---|---|---|---|',
  ...table.map(
    (r) =>
      `| ${cell(r.workload)} | ${cell(r.baseline)} | ${cell(r.now)} | ${cell(r.ratio)} | ${cell(r.goal)} | ${r.met ? 'yes' : 'no'} |`,
  ),
].join('\n');
process.stdout.write(`\n=== performance table (same-run baselines)\n${summary}\n`);

const block = [
  BEGIN,
  `## Latest \`npm run bench\` (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
  '',
  `Machine: ${machine()}; load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' / ',
    )}. PostgreSQL on 127.0.0.1:5432 (BENCH_DATABASE_URL / TEST_DATABASE_URL), PGlite embedded (in the process of the bench that opens it; on its own thread in a started service, docs/adr/0009).`,
  '',
  summary,
  '',
  sections.join('\n\n'),
  END,
].join('\n');

const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
const next = doc.includes(BEGIN)
  ? doc.slice(0, doc.indexOf(BEGIN)) + block + doc.slice(doc.indexOf(END) + END.length)
  : `${doc.trimEnd()}\n\n${block}\n`;
writeFileSync(DOC, next);
process.stdout.write(`\nwrote ${DOC}\n`);
if (failed) process.exitCode = 1;
