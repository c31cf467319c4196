// The commands of `cleaver` other than the service itself (serve, migrate: src/cli.ts), behind one
// entry that takes its input and output as arguments: the binary runs them on the process's own
// streams, and tests run them in process on captured ones (test/cli/run-cli.ts).

import { keysCommand, logisticsCommand, merchantsCommand, ordersCommand } from './admin-api-commands.js';
import { EXIT_CODES_HELP, type Io, reportError, UsageError } from './common.js';
import { listenCommand } from './listen-command.js';
import { auditCommand, operatorsCommand } from './operators-commands.js';
import { platformCommand } from './platform-commands.js';
import { posCommand } from './pos-commands.js';
import { sandboxCommand } from './sandbox-commands.js';
import { triggerCommand } from './trigger-command.js';

export const USAGE = `Usage: cleaver <command> [options]

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
  platform tail                   the platform feed (D36), followed live (--once: one page)

POS (the /v1 API; --client-id/--client-secret or CLEAVER_CLIENT_ID/CLEAVER_CLIENT_SECRET):
  pos token|onboard|catalog|merchant|order|events|requests|webhooks|homologation
  pos orders show|confirm|preparing|details|ready|picked-up|dispatch|delivered|cancel|
             accept-cancellation|deny-cancellation|validate-code|track|weigh ORDER_ID
                                  every order action (cleaver pos orders --help)

Every command takes --url (or CLEAVER_URL), --json for machine-readable output and --help,
e.g. "cleaver pos --help".

Configuration of serve/migrate/sandbox comes from environment variables (see README.md): PORT,
HOST, DATABASE_URL, CLEAVER_DATA_DIR, CLEAVER_ENV, CLEAVER_ADMIN_TOKEN, CLEAVER_SECRET_KEY,
CLEAVER_PUBLIC_URL, CLEAVER_APP_ID, REDIS_URL, CLEAVER_WEBHOOK_RETRY_SCHEDULE,
CLEAVER_WEBHOOK_LEASE_SEC, CLEAVER_DB_WAIT_SEC (how long a start waits for the database; default 60),
CLEAVER_MIGRATE_ON_START, LOG_LEVEL.

${EXIT_CODES_HELP}`;

export const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  merchants: merchantsCommand,
  keys: keysCommand,
  logistics: logisticsCommand,
  orders: ordersCommand,
  operators: operatorsCommand,
  audit: auditCommand,
  platform: platformCommand,
  pos: posCommand,
  sandbox: sandboxCommand,
  trigger: triggerCommand,
  listen: listenCommand,
};

/** Whether `name` is one of the commands of this file (not serve or migrate). */
export function isClientCommand(name: string | undefined): name is string {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

/** Runs a client command on `io`; an error it throws becomes its message and exit code. */
export async function runClientCommand(name: string, args: string[], io: Io): Promise<number> {
  try {
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}"`);
    return await command(args, io);
  } catch (error) {
    return reportError(io, error, args.includes('--json'));
  }
}

/**
 * `cleaver`, `cleaver --help` and unknown commands: the usage text and the exit code (2 when the
 * user gave no command or a wrong one, 0 when asked for help).
 */
export function printUsage(command: string | undefined, io: Io): number {
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  io.stderr.write(`Unknown command "${command}"\n\n${USAGE}\n`);
  return 2;
}
