import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_CLI } from '../support/built-cli.js';
import { ADMIN_TOKEN, SECRET_KEY } from '../support/test-app.js';

// Real `cleaver serve` processes for the proofs of architecture.md#proofs (several processes, outage, soak).

export interface CleaverProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT for an API process; undefined for a worker. */
  url: string | undefined;
  output(): string;
  alive(): boolean;
  exitCode(): number | null;
  stop(): Promise<void>;
}

const started: CleaverProcess[] = [];

/** Starts `node dist/cli.js serve --role ROLE` (the built service) and waits for its start line. */
export async function startCleaver(
  role: 'all' | 'api' | 'worker',
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CleaverProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-proof-'));
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--role', role], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CLEAVER_DATA_DIR: dataDir,
      CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN,
      CLEAVER_SECRET_KEY: SECRET_KEY,
      // No drain (D31) unless a test asks for one: nothing stands behind a load balancer here.
      CLEAVER_SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exit: number | null = null;
  let exited = false;
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const gone = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = true;
      exit = code ?? (signal ? 128 : null);
      resolve();
    }),
  );
  const proc: CleaverProcess = {
    child,
    url: undefined,
    output: () => out,
    alive: () => !exited,
    exitCode: () => exit,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await gone;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  started.push(proc);
  const deadline = Date.now() + timeoutMs;
  const marker = role === 'worker' ? `(${role}) on ` : 'listening on ';
  while (!out.includes(marker)) {
    if (exited) throw new Error(`cleaver ${role} exited with ${exit}: ${out}`);
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`cleaver ${role} did not start in ${timeoutMs} ms: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
  return proc;
}

/** Stops every process this module started (afterAll). */
export async function stopAllCleavers(): Promise<void> {
  await Promise.all(started.splice(0).map((p) => p.stop()));
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers `status`. */
export async function startReceiver(
  status = 200,
): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body, at: Date.now() });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** fetch with JSON in and out. */
export async function call(
  base: string | undefined,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: Headers; json: unknown; text: string }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}
