import { EXIT_CODES_HELP, type Io, reportError } from './cli/common.js';
import { keysCommand, logisticsCommand, merchantsCommand, ordersCommand } from './cli/operator-commands.js';
import { posCommand } from './cli/pos-commands.js';
import { sandboxCommand } from './cli/sandbox-commands.js';
import { ConfigError, loadConfig } from './config.js';

// The server, the database drivers and Fastify load only for the commands that need them, so
// that client commands (`cleaver pos …`, `cleaver merchants …`) start quickly.

const USAGE = `Usage: cleaver <command> [options]

Service:
  serve [--role all|api|worker]   migrate, then serve the API and run the workers (default: all)
  migrate                         apply pending database migrations and exit
  sandbox demo                    a running sandbox with a merchant, a catalog and sample orders

Operator (the /admin/v1 API; --admin-token or CLEAVER_ADMIN_TOKEN):
  merchants create|list|show      merchants, optionally with an integration key
  keys create|revoke              integration keys of a merchant
  logistics create                a logistics partner app
  orders create|show|customer-cancel   sandbox orders placed as if by a customer

POS (the /v1 API; --client-id/--client-secret or CLEAVER_CLIENT_ID/CLEAVER_CLIENT_SECRET):
  pos token|onboard|catalog|merchant|order|events

Every command takes --url (or CLEAVER_URL), --json for machine-readable output and --help,
e.g. "cleaver pos --help".

Configuration of serve/migrate/sandbox comes from environment variables (see README.md): PORT,
HOST, DATABASE_URL, CLEAVER_DATA_DIR, CLEAVER_ENV, CLEAVER_ADMIN_TOKEN, CLEAVER_SECRET_KEY,
CLEAVER_PUBLIC_URL, CLEAVER_APP_ID, REDIS_URL, CLEAVER_WEBHOOK_RETRY_SCHEDULE,
CLEAVER_WEBHOOK_LEASE_SEC.

${EXIT_CODES_HELP}`;

const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  merchants: merchantsCommand,
  keys: keysCommand,
  logistics: logisticsCommand,
  orders: ordersCommand,
  pos: posCommand,
  sandbox: sandboxCommand,
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
  const io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: controller.signal };
  try {
    return await COMMANDS[name](args, io);
  } catch (error) {
    return reportError(io, error, args.includes('--json'));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index >= 0) return args[index + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

async function serve(args: string[]): Promise<void> {
  const role = option(args, '--role');
  const env = role ? { ...process.env, CLEAVER_ROLE: role } : process.env;
  const { startServer } = await import('./server.js');
  const server = await startServer(loadConfig(env));
  const shutdown = (signal: string) => {
    process.stdout.write(`${signal} received, shutting down\n`);
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

async function runMigrate(): Promise<void> {
  const config = loadConfig();
  const { openDatabase } = await import('./db/open-database.js');
  const { migrate } = await import('./db/migrate.js');
  const opened = await openDatabase(config);
  try {
    const applied = await migrate(opened.db);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await opened.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
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
        await runMigrate();
        return 0;
      case 'merchants':
      case 'keys':
      case 'logistics':
      case 'orders':
      case 'pos':
      case 'sandbox':
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
    // DataDirLockedError (db/open-database.ts) is matched by name: that module loads lazily.
    if (error instanceof ConfigError || (error instanceof Error && error.name === 'DataDirLockedError')) {
      process.stderr.write(`cleaver: ${error.message}\n`);
      return 78; // EX_CONFIG
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
