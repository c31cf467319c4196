// `npm run test:timings [-- vitest arguments]`: runs the suite, then prints the slowest test files
// and their share of the run (read from test-artifacts/test-timings.json, which
// test/support/timings-reporter.ts writes on every run). `--report-only [--top N]` prints from the
// last run's file without running anything (.ci/run prints the ten slowest that way).
//
// Output format (kept stable; scripts may read it): a header line, then one line per file:
//   <rank>. <seconds, one decimal>s  <share of the summed file time, one decimal>%  <project>  <file>
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const reportOnly = args.includes('--report-only');
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const vitestArgs = args.filter((a, i) => a !== '--report-only' && i !== topAt && i !== topAt + 1);

let status = 0;
if (!reportOnly) {
  const run = spawnSync('npx', ['vitest', 'run', ...vitestArgs], { stdio: 'inherit' });
  status = run.status ?? 1;
}
const file = 'test-artifacts/test-timings.json';
if (!existsSync(file)) {
  process.stderr.write(`no ${file}: run the tests first\n`);
  process.exit(status || 1);
}
const { wallMs, files } = JSON.parse(readFileSync(file, 'utf8'));
const total = files.reduce((sum, f) => sum + f.ms, 0);
const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, top);
const width = Math.max(...slowest.map((f) => f.project.length), 7);
process.stdout.write(
  `slowest ${slowest.length} of ${files.length} test files (file time summed over workers ${(total / 1000).toFixed(1)} s, wall ${(wallMs / 1000).toFixed(1)} s):\n`,
);
slowest.forEach((f, i) => {
  process.stdout.write(
    `${String(i + 1).padStart(3)}. ${(f.ms / 1000).toFixed(1).padStart(6)}s ${((100 * f.ms) / total).toFixed(1).padStart(5)}%  ${f.project.padEnd(width)}  ${f.file}\n`,
  );
});
process.exit(status);
