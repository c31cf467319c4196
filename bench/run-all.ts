// `npm run bench`: runs every benchmark in bench/ one after the other and writes their output,
// with the machine and the time each took, into docs/benchmarks.md between the markers below.
// The prose sections of that file (what each figure means) are kept as they are.
// The soak runs only with BENCH_SOAK=1 (it takes SOAK_SECONDS, 5 minutes by default).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { machine } from './support/measure.js';

const BEGIN = '<!-- bench:results:begin -->';
const END = '<!-- bench:results:end -->';
const DOC = 'docs/benchmarks.md';

const benches = [
  { file: 'bench/auth.ts', what: 'auth layer vs bare Fastify route; POST /oauth/token' },
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
  ...(process.env.BENCH_SOAK === '1' ? [{ file: 'bench/soak.ts', what: 'mixed traffic, RSS growth and errors' }] : []),
].filter((b) => existsSync(b.file));

const sections: string[] = [];
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
  sections.push(
    `### \`${bench.file}\` (${bench.what}; ${seconds} s${run.status === 0 ? '' : `; exit code ${run.status}`})\n\n` +
      `\`\`\`\n${(run.stdout ?? '').trim()}\n\`\`\``,
  );
}

const block = [
  BEGIN,
  `## Latest \`npm run bench\` (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
  '',
  `Machine: ${machine()}. PostgreSQL from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), PGlite in process.`,
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
