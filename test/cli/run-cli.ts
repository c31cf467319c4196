// Runs the `cleaver` command for tests. The client commands (all but serve, migrate, sandbox demo) are
// logic over HTTP: they run in this process, on captured output, with the environment a child
// would get (`runCli`). Starting the service and the binary itself are proven on real processes
// running the built JavaScript, as a user runs it (`runCliProcess`; test/support/built-cli.ts).
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { isClientCommand, printUsage, runClientCommand } from '../../src/cli/commands.js';
import type { Io } from '../../src/cli/common.js';
import { BUILT_CLI } from '../support/built-cli.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Standard input of the command (`--password-stdin`). */
  stdin?: string;
  /** How long the command may run before it is told to stop (its --help says how it stops). */
  timeoutMs?: number;
  /** Tells the command to stop before its time is up (a follower once it printed what a test waits for). */
  signal?: AbortSignal;
  /** Called with all of stdout so far after each write (to wait on a follower's output). */
  onStdout?: (text: string) => void;
}

/** Nothing from the test runner's environment that names a service or credentials reaches a command. */
const SCRUBBED = [
  'CLEAVER_URL',
  'CLEAVER_ADMIN_TOKEN',
  'CLEAVER_CLIENT_ID',
  'CLEAVER_CLIENT_SECRET',
  'DATABASE_URL',
  // Colour is decided by the command's own environment (src/cli/terminal.test.ts).
  'FORCE_COLOR',
  'NO_COLOR',
];

function commandEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const name of SCRUBBED) if (!(name in env)) delete merged[name];
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged;
}

class Capture extends Writable {
  text = '';
  constructor(private readonly onText?: (text: string) => void) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    this.onText?.(this.text);
    done();
  }
}

/** `cleaver ARGS` as a user would type it; client commands in process, the service in a child. */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: CliOptions = {},
): Promise<CliResult> {
  const [command, ...rest] = args;
  // The commands that start the service own the process (its signals, its exit, a lock file).
  if (command === 'serve' || command === 'migrate' || (command === 'sandbox' && rest[0] === 'demo')) {
    return runCliProcess(args, env, options);
  }
  const stdout = new Capture(options.onStdout);
  const stderr = new Capture();
  const io: Io = {
    stdout,
    stderr,
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: commandEnv(env),
    signal: AbortSignal.any([
      AbortSignal.timeout(options.timeoutMs ?? 60_000),
      ...(options.signal ? [options.signal] : []),
    ]),
  };
  const code = isClientCommand(command) ? await runClientCommand(command, rest, io) : printUsage(command, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** `node dist/cli.js ARGS`: the built binary in a child process (test/support/built-cli.ts). */
export function runCliProcess(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: CliOptions = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BUILT_CLI, ...args],
      { cwd: ROOT, env: commandEnv(env) as NodeJS.ProcessEnv, timeout: options.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    else child.stdin?.end();
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
