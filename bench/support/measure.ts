import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

/** Runs autocannon against one URL; the server lives in another process. */
export async function load(options: {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSec?: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.durationSec ?? 5,
  });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/**
 * Whether the load generator and the server each get a core of their own (`taskset`, on a machine
 * of two cores or more; BENCH_PIN=0 turns it off). Left to the scheduler, the two processes
 * move between the cores and the rounds of one target spread several times wider than pinned
 * (docs/benchmarks.md, "Figures of 2026-11-27, eighth session"). Both targets of a ratio are
 * measured alike either way.
 */
export function pinning(): boolean {
  if (process.env.BENCH_PIN === '0' || cpus().length < 2) return false;
  return spawnSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts a TypeScript child that prints one JSON line of connection details when ready. With
 * `pinToCore`, the child runs on that core only (see pinning()).
 */
export async function startTarget<T>(
  script: string,
  env: Record<string, string> = {},
  options: { pinToCore?: number } = {},
): Promise<{ info: T; child: ChildProcess }> {
  const command = [process.execPath, '--import', 'tsx', script];
  if (options.pinToCore !== undefined) command.unshift('taskset', '-c', String(options.pinToCore));
  const child = spawn(command[0] as string, command.slice(1), {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as T);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { info, child };
}

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** One row of the table (docs/benchmarks.md); `npm run bench` collects these lines. */
export interface TableRow {
  workload: string;
  baseline: string;
  now: string;
  ratio: string;
  goal: string;
  met: boolean;
}

export const ROW_PREFIX = 'ROW ';

export function reportRow(row: TableRow): void {
  process.stdout.write(`${ROW_PREFIX}${JSON.stringify(row)}\n`);
}

const TICKS = 100; // /proc clock ticks per second (USER_HZ)

/** User + system CPU time a process has used so far, in ms (Linux /proc; 10 ms resolution). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS; // utime, stime
}

/** Every process whose command name is `comm` (as in /proc/PID/comm). */
export function processesNamed(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return pids;
}

/** Every process of the local PostgreSQL server (backends and its background processes). */
export const postgresPids = (): number[] => processesNamed('postgres');

/** CPU used by a set of processes over a span, in ms; processes that end are counted up to then. */
export function cpuMeter(pids: () => number[]) {
  const seen = new Map<number, number>();
  const read = (pid: number) => {
    try {
      return processCpuMs(pid);
    } catch {
      return undefined;
    }
  };
  for (const pid of pids()) seen.set(pid, read(pid) ?? 0);
  return () => {
    let total = 0;
    for (const pid of new Set([...seen.keys(), ...pids()])) {
      const now = read(pid);
      if (now !== undefined) total += now - (seen.get(pid) ?? 0);
    }
    return total;
  };
}
