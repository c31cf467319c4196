import { isClientCommand, printUsage, runClientCommand, USAGE } from './cli/commands.js';
import { EXIT, type Io, noMoreArguments, parse, UsageError } from './cli/common.js';
import { loadConfig, StartupError } from './config.js';

// The server, the database drivers and Fastify load only for the commands that need them, so
// that client commands (`cleaver pos …`, `cleaver merchants …`) start quickly.

/** Long-running commands stop cleanly on the first Ctrl-C; a second one exits at once. */
async function runOnProcess(name: string, args: string[]): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const io: Io = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    signal: controller.signal,
  };
  try {
    return await runClientCommand(name, args, io);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function serve(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { role: { type: 'string' }, 'no-migrate': { type: 'boolean' } });
  noMoreArguments(positionals, 0, 'serve');
  const env = {
    ...process.env,
    ...(values.role !== undefined ? { CLEAVER_ROLE: values.role } : {}),
    ...(values['no-migrate'] ? { CLEAVER_MIGRATE_ON_START: 'false' } : {}),
  };
  const config = loadConfig(env);
  const { startServer } = await import('./server.js');
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let signalled = false;
  let early: NodeJS.Timeout | undefined;
  const stop = (running: NonNullable<typeof server>) => {
    // The stop cuts remaining connections at the deadline; this is the last resort after it.
    setTimeout(() => process.exit(0), running.config.shutdownTimeoutMs + 1_000).unref();
    running.stop().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`stop failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  const shutdown = (signal: string) => {
    // A second signal means "now": skip the drain.
    if (signalled) process.exit(130);
    signalled = true;
    process.stdout.write(`${signal} received: draining, then stopping\n`);
    if (server) stop(server);
    // Still starting (waiting for the database, say): nothing to drain yet unless the start
    // ends in a moment; exit rather than wait out a long retry.
    else early = setTimeout(() => process.exit(0), 2_000);
  };
  // Installed before the start: a supervisor may signal as soon as "listening on" is printed,
  // and the stop must still be the orderly one (exit code 0), not Node's default.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  server = await startServer(config);
  if (signalled) {
    clearTimeout(early);
    stop(server);
  }
}

async function runMigrate(args: string[]): Promise<void> {
  noMoreArguments(parse(args, {}).positionals, 0, 'migrate');
  const config = loadConfig();
  const { openDatabase, waitForDatabase } = await import('./db/open-database.js');
  const { migrate } = await import('./db/migrate.js');
  const opened = await openDatabase(config);
  try {
    await waitForDatabase(opened, config, (line) => process.stderr.write(`cleaver: ${line}\n`));
    const applied = await migrate(opened.db);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await opened.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  // `cleaver … | head`: the reader went away; stop quietly instead of a stack trace of EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  if ((command === 'serve' || command === 'migrate') && (args.includes('--help') || args.includes('-h'))) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        await serve(args);
        return -1; // keeps running
      case 'migrate':
        await runMigrate(args);
        return 0;
      default:
        if (isClientCommand(command)) return await runOnProcess(command, args);
        return printUsage(command, { stdout: process.stdout, stderr: process.stderr, env: process.env });
    }
  } catch (error) {
    // A start that cannot go on (config.ts StartupError: bad environment value, port in use,
    // database unreachable or refusing, schema not fitting): one line with the fix, no stack
    // trace unless LOG_LEVEL asks for detail.
    if (error instanceof StartupError || error instanceof UsageError) {
      process.stderr.write(
        `cleaver: ${error.message}${error instanceof UsageError ? ' (usage: cleaver --help)' : ''}\n`,
      );
      if (['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '') && error.stack) {
        process.stderr.write(`${error.stack}\n`);
        if (error.cause instanceof Error && error.cause.stack)
          process.stderr.write(`caused by: ${error.cause.stack}\n`);
      }
      return error instanceof StartupError ? error.exitCode : EXIT.USAGE;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
