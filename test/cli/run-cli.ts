// Runs the `cleaver` binary as a user would: a child process, `node bin/cleaver.js …`.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  // Nothing from the test runner's environment leaks into the command.
  for (const name of [
    'CLEAVER_URL',
    'CLEAVER_ADMIN_TOKEN',
    'CLEAVER_CLIENT_ID',
    'CLEAVER_CLIENT_SECRET',
    'DATABASE_URL',
    // Colour is decided by the command's own environment (test/cli/cli-terminal.test.ts).
    'FORCE_COLOR',
    'NO_COLOR',
  ]) {
    if (!(name in env)) delete childEnv[name];
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/cleaver.js', ...args],
      { cwd: ROOT, env: childEnv as NodeJS.ProcessEnv, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A local port nobody listens on (taken, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
