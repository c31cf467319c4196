import { EXIT, EXIT_CODES_HELP, type Io, noMoreArguments, parse, reportError, UsageError } from './cli/common.js';
import { listenCommand } from './cli/listen-command.js';
import { keysCommand, logisticsCommand, merchantsCommand, ordersCommand } from './cli/operator-commands.js';
import { auditCommand, operatorsCommand } from './cli/operators-commands.js';
import { posCommand } from './cli/pos-commands.js';
import { sandboxCommand } from './cli/sandbox-commands.js';
import { triggerCommand } from './cli/trigger-command.js';
import { loadConfig, StartupError } from './config.js';

// The server, the database drivers and Fastify load only for the commands that need them, so
// that client commands (`cleaver pos …`, `cleaver merchants …`) start quickly.

const USAGE = `Usage: cleaver <command> [options]

Service:
  serve [--role all|api|worker] [--no-migrate]
                                  migrate, then serve the API and run the workers (default: all);
                                  --no-migrate: refuse to start while migrations are pending
  migrate                         apply pending database migrations and exit
  sandbox demo                    a running sandbox with a merchant, a catalog and sample orders
  sandbox od-pos                  an Open Delivery POS that publishes its menu the Open Delivery way
  trigger SCENARIO|all|list       play a sandbox scenario: an order and the events that follow
                                  (scheduled, cash with change, KG items, cancellations, logistics…)
  listen --forward-to URL         receive the merchant's webhooks on a local URL, signed as sent,
                                  each local answer recorded as the attempt (cleaver listen --help)

Operator (the /admin/v1 API; --admin-token or CLEAVER_ADMIN_TOKEN):
  merchants create|list|show      merchants, optionally with an integration key
  keys create|revoke              integration keys of a merchant
  logistics create                a logistics partner app
  orders create|show|customer-cancel   sandbox orders placed as if by a customer
  operators create|list|update|set-password|revoke-access|token   operator accounts and tokens
  audit list|export               the audit log (export: JSON lines)

POS (the /v1 API; --client-id/--client-secret or CLEAVER_CLIENT_ID/CLEAVER_CLIENT_SECRET):
  pos token|onboard|catalog|merchant|order|events|homologation
  pos orders show|confirm|preparing|ready|dispatch|delivered|cancel|accept-cancellation|
             deny-cancellation|validate-code|track|weigh ORDER_ID   every order action (cleaver pos orders --help)

Every command takes --url (or CLEAVER_URL), --json for machine-readable output and --help,
e.g. "cleaver pos --help".

Configuration of serve/migrate/sandbox comes from environment variables (see README.md): PORT,
HOST, DATABASE_URL, CLEAVER_DATA_DIR, CLEAVER_ENV, CLEAVER_ADMIN_TOKEN, CLEAVER_SECRET_KEY,
CLEAVER_PUBLIC_URL, CLEAVER_APP_ID, REDIS_URL, CLEAVER_WEBHOOK_RETRY_SCHEDULE,
CLEAVER_WEBHOOK_LEASE_SEC, CLEAVER_DB_WAIT_SEC (how long a start waits for the database; default 60),
CLEAVER_MIGRATE_ON_START, LOG_LEVEL.

${EXIT_CODES_HELP}`;

const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  merchants: merchantsCommand,
  keys: keysCommand,
  logistics: logisticsCommand,
  orders: ordersCommand,
  operators: operatorsCommand,
  audit: auditCommand,
  pos: posCommand,
  sandbox: sandboxCommand,
  trigger: triggerCommand,
  listen: listenCommand,
};

/** Long-running commands stop cleanly on the first Ctrl-C; a second one exits at once. */
async function runClientCommand(name: string, args: string[]): Promise<number> {
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
    return await COMMANDS[name](args, io);
  } catch (error) {
    return reportError(io, error, args.includes('--json'));
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
      case 'merchants':
      case 'keys':
      case 'logistics':
      case 'orders':
      case 'operators':
      case 'audit':
      case 'pos':
      case 'sandbox':
      case 'trigger':
      case 'listen':
        return await runClientCommand(command, args);
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        process.stderr.write(`Unknown command "${command}"\n\n${USAGE}\n`);
        return 2;
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
