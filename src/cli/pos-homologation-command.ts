// `cleaver pos homologation run`: starts a homologation run of the POS's own key (sandbox only,
// operator-api.md#homologation), shows its progress while the POS under test does its work,
// then prints the graded criteria. Exit 0 only when the run PASSED, so a CI job can gate on it.
import type { HomologationRun, PosClient } from '@cleaver/pos-client';
import { EXIT, type Io, noMoreArguments, posClient, printJson, printTable, UsageError } from './common.js';
import { SPINNER } from './terminal.js';

export const HOMOLOGATION_HELP = `  cleaver pos homologation run [--duration SECONDS] [--timings JSON] [--interval SECONDS]
                                                  sandbox only: start a homologation run of this key, wait
                                                  for it (run your POS meanwhile), print the graded report;
                                                  exit 0 only when every required criterion passed
  cleaver pos homologation show RUN_ID            a run of this key (report, signature)`;

function timingsOf(values: Record<string, unknown>): Record<string, number> | undefined {
  let timings: Record<string, number> | undefined;
  if (typeof values.timings === 'string') {
    try {
      timings = JSON.parse(values.timings) as Record<string, number>;
    } catch (error) {
      throw new UsageError(`--timings is not valid JSON: ${(error as Error).message}`);
    }
    if (timings === null || typeof timings !== 'object' || Array.isArray(timings)) {
      throw new UsageError('--timings must be a JSON object such as {"confirmDeadlineMs":30000}');
    }
  }
  if (typeof values.duration === 'string') {
    const seconds = Number(values.duration);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new UsageError('--duration must be a positive number of seconds');
    timings = { ...timings, durationMs: Math.round(seconds * 1000) };
  }
  return timings;
}

const MARK: Record<string, string> = { pass: 'PASS', fail: 'FAIL', not_observed: 'NOT OBSERVED', pending: 'PENDING' };

function printReport(io: Io, run: HomologationRun): void {
  io.stdout.write(`homologation ${run.id}: ${run.status}\n`);
  printTable(
    io,
    ['RESULT', 'REQUIRED', 'CRITERION', 'RULE'],
    run.criteria.map((c) => [MARK[c.result] ?? c.result, c.required ? 'yes' : 'no', c.title, c.rule]),
  );
  for (const c of run.criteria.filter((x) => x.result === 'fail')) {
    io.stdout.write(`\n${c.title} (${c.rule}):\n`);
    for (const line of c.evidence.slice(0, 8)) io.stdout.write(`  ${line}\n`);
    if (c.evidence.length > 8) io.stdout.write(`  … ${c.evidence.length - 8} more\n`);
  }
  if (run.signature) io.stdout.write(`\nsigned (Ed25519): ${run.signature}\n`);
  if (run.status !== 'PASSED') printWarnings(io, run);
}

/** A run too short for its own steps: said on stderr, so a failure is not read as the POS's alone. */
function printWarnings(io: Io, run: HomologationRun): void {
  for (const warning of run.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
}

async function follow(io: Io, client: PosClient, run: HomologationRun, intervalMs: number, json: boolean) {
  const live = !json && io.stdout.isTTY === true;
  const duration = run.timings.durationMs ?? 0;
  const started = Date.now();
  let frame = 0;
  let current = run;
  while (current.status === 'RUNNING') {
    if (io.signal?.aborted) break;
    await new Promise((r) => setTimeout(r, intervalMs));
    current = await client.getHomologation(run.id);
    if (json) continue;
    const elapsed = (Date.now() - started) / 1000;
    const line = `running: ${elapsed.toFixed(0)} s of ${(duration / 1000).toFixed(0)} s, ${current.orders.length} scenario order(s) placed`;
    if (live) io.stdout.write(`\r\x1b[2K${SPINNER[frame++ % SPINNER.length]} ${line}`);
    else io.stdout.write(`${line}\n`);
  }
  if (live) io.stdout.write('\r\x1b[2K');
  return current;
}

export async function posHomologationCommand(io: Io, positionals: string[], values: Record<string, unknown>) {
  const [sub, id] = positionals;
  const json = values.json === true;
  const client = posClient(values, io.env);
  const done = (run: HomologationRun) => {
    if (json) printJson(io, run);
    else printReport(io, run);
    if (run.status === 'PASSED') return EXIT.OK;
    return EXIT.HOMOLOGATION_FAILED;
  };
  if (sub === 'show') {
    if (!id) throw new UsageError('missing argument RUN_ID');
    noMoreArguments(positionals, 2, `pos homologation show ${id}`);
    const run = await client.getHomologation(id);
    if (run.status !== 'RUNNING') return done(run);
    printJson(io, run);
    return EXIT.OK;
  }
  if (sub !== 'run')
    throw new UsageError(sub ? `unknown subcommand "pos homologation ${sub}"` : 'pos homologation needs run or show');
  noMoreArguments(positionals, 1, 'pos homologation run');
  const intervalSec = values.interval === undefined ? 2 : Number(values.interval);
  if (!Number.isFinite(intervalSec) || intervalSec <= 0)
    throw new UsageError('--interval must be a positive number of seconds');
  const started = await client.startHomologation(timingsOf(values));
  if (!json) {
    io.stderr.write(
      `homologation ${started.id} started; keep your POS running against this sandbox until it finishes\n`,
    );
    printWarnings(io, started);
  }
  return done(await follow(io, client, started, intervalSec * 1000, json));
}
