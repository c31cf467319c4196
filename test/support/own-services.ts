// A PostgreSQL cluster and a Redis server of a test's own, on free ports, that the test may stop,
// freeze and restart: the machine's shared PostgreSQL and Redis are never touched by fault
// tests (docs/design/architecture.md#proofs).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function postgresBin(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  return join('/usr/lib/postgresql', versions[versions.length - 1], 'bin', name);
}

/** initdb and pg_ctl refuse to run as root: run them as the postgres user then. */
function asPostgres(command: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  execFileSync(file, argv, { stdio: 'pipe' });
}

export interface OwnPostgres {
  url: string;
  port: number;
  stop(): void;
  start(): void;
  destroy(): void;
}

/** A fresh cluster (initdb ≈ 1–2 s) listening on 127.0.0.1:<free port>, trust auth. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'cleaver-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  asPostgres(postgresBin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () =>
    asPostgres(postgresBin('pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  const stop = () => asPostgres(postgresBin('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (running) stop();
      running = false;
    },
    start() {
      if (!running) start();
      running = true;
    },
    destroy() {
      try {
        if (running) stop();
      } catch {
        // already gone
      }
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnRedis {
  url: string;
  port: number;
  child: ChildProcess;
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

/** `redis-server` in the foreground on a free port, nothing kept on disk. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  const deadline = Date.now() + 10_000;
  while (!out.includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    },
  };
}

export interface OwnNats {
  url: string;
  port: number;
  /** The JetStream store directory, kept across stop() and start(). */
  storeDir: string;
  /** Stops the server (SIGTERM, waits for its exit); the store stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const NATS_SERVER = '/usr/sbin/nats-server';

/**
 * `nats-server -js` (NATS 2.9) on a free port with a temporary JetStream store: a broker a test
 * may stop and start again; the machine's shared one on 4222 is never touched.
 */
export async function startOwnNats(): Promise<OwnNats> {
  const storeDir = mkdtempSync(join(tmpdir(), 'cleaver-nats-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    if (child) return;
    const proc = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d;
    });
    proc.stderr?.on('data', (d) => {
      out += d;
    });
    const deadline = Date.now() + 10_000;
    while (!out.includes('Server is ready')) {
      if (proc.exitCode !== null || Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`nats-server did not start: ${out}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child = proc;
  };
  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
