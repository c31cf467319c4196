// Shared plumbing of the `cleaver` command: option parsing, where credentials come from,
// output (tables for people, --json for scripts) and the exit codes.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  CatalogSyncTimeoutError,
  CleaverApiError,
  CleaverAuthError,
  CleaverNetworkError,
  createOperatorClient,
  createPosClient,
  type OperatorClient,
  type PosClient,
} from '@cleaver/pos-client';
import { STARTUP_EXIT, StartupError } from '../config.js';
import { colourWanted, paint } from './terminal.js';

/** Exit codes; listed in `cleaver --help`. */
export const EXIT = {
  OK: 0,
  API_ERROR: 1,
  USAGE: 2,
  AUTH: 3,
  SYNC_FAILED: 4,
  SYNC_TIMEOUT: 5,
  UNREACHABLE: 6,
  HOMOLOGATION_FAILED: 7,
  ...STARTUP_EXIT,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0   success
  1   the API answered with an error (4xx/5xx other than auth), e.g. 400 or 404
  2   usage error: unknown command or option, missing argument, unreadable file
  3   authentication: missing or refused credentials (401/403)
  4   catalog sync finished with FAIL (read moreInfo)
  5   timed out waiting for a catalog sync (still PROCESSING; nothing was resent)
  6   the server could not be reached
  7   a homologation run finished without passing every required criterion (or was cancelled)
  Starting the service (serve, migrate, sandbox demo), one line on stderr saying what to do:
  65  the database schema does not fit: migrations pending with --no-migrate, or a migration failed
  69  the database did not answer within CLEAVER_DB_WAIT_SEC seconds
  78  configuration: a bad environment value, the port in use, the data directory in use or
      not writable, the database refusing the login or missing`;

export type Env = Record<string, string | undefined>;

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Env;
  /** Standard input (`--password-stdin`). */
  stdin?: NodeJS.ReadableStream;
  /** Aborted on SIGINT/SIGTERM: long-running commands stop cleanly. */
  signal?: AbortSignal;
}

export const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** parseArgs options that take a value (`--name VALUE`), declared by their names. */
export function valueOptions<const N extends string>(...names: N[]): Record<N, { type: 'string' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Record<N, { type: 'string' }>;
}

/** parseArgs options that are flags (`--once`), declared by their names. */
export function flagOptions<const N extends string>(...names: N[]): Record<N, { type: 'boolean' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])) as Record<N, { type: 'boolean' }>;
}

export const ADMIN_OPTIONS = {
  ...GLOBAL_OPTIONS,
  'admin-token': { type: 'string' },
  'data-dir': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const POS_OPTIONS = {
  ...GLOBAL_OPTIONS,
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const CONNECTION_HELP = `Connection:
  --url URL               API base URL (env CLEAVER_URL; default http://127.0.0.1:8080)
  --json                  machine-readable output
  -h, --help              this help`;

export const ADMIN_HELP = `${CONNECTION_HELP}
  --admin-token TOKEN     operator token (env CLEAVER_ADMIN_TOKEN; default: the admin-token file of
                          --data-dir / CLEAVER_DATA_DIR / ./.cleaver, as a sandbox server writes it)`;

export const POS_HELP = `${CONNECTION_HELP}
  --client-id ID          merchant id (env CLEAVER_CLIENT_ID)
  --client-secret SECRET  integration key secret (env CLEAVER_CLIENT_SECRET; prefer the env variable:
                          arguments are visible to other users in the process list)`;

/** parseArgs with our error type: an unknown option is a usage error (exit 2). */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  // A negative number is a value, not an option: `--lat -23.55` means `--lat=-23.55` (parseArgs
  // refuses a value that starts with a dash otherwise, and coordinates in Brazil all do).
  const joined: string[] = [];
  const rest = [...args];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const value = rest[0];
    if (name && options[name]?.type === 'string' && value !== undefined && /^-\d/.test(value)) {
      joined.push(`${arg}=${value}`);
      rest.shift();
    } else joined.push(arg);
  }
  try {
    return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs explains over several lines; a usage error is one.
    throw new UsageError((error as Error).message.replace(/\s*\n\s*/g, ' '));
  }
}

export function baseUrl(flag: string | undefined, env: Env): string {
  const url = flag ?? env.CLEAVER_URL ?? 'http://127.0.0.1:8080';
  try {
    new URL(url);
  } catch {
    throw new UsageError(`--url is not a valid URL: "${url}"`);
  }
  return url;
}

// The user agent names the CLI in the audit log (docs/security.md).
export function operatorClient(
  values: { url?: string; 'admin-token'?: string; 'data-dir'?: string },
  env: Env,
): OperatorClient {
  return createOperatorClient({
    ...operatorConnection(values, env),
    retry: { maxAttempts: 3 },
    userAgent: 'cleaver-cli',
  });
}

/** Where the operator API is and the bearer token to use (the bootstrap token or a personal one). */
export function operatorConnection(
  values: { url?: string; 'admin-token'?: string; 'data-dir'?: string },
  env: Env,
): { baseUrl: string; adminToken: string } {
  let adminToken = values['admin-token'] ?? env.CLEAVER_ADMIN_TOKEN;
  if (!adminToken) {
    const file = join(resolve(values['data-dir'] ?? env.CLEAVER_DATA_DIR ?? './.cleaver'), 'admin-token');
    try {
      adminToken = readFileSync(file, 'utf8').trim();
    } catch {
      throw new CleaverAuthError(
        0, // refused before asking the server
        `No operator token: pass --admin-token, set CLEAVER_ADMIN_TOKEN, or run next to a sandbox data dir (${file} not found)`,
        '-',
        '-',
        undefined,
      );
    }
  }
  return { baseUrl: baseUrl(values.url, env), adminToken };
}

export function posClient(
  values: { url?: string; 'client-id'?: string; 'client-secret'?: string },
  env: Env,
  extra: Partial<Parameters<typeof createPosClient>[0]> = {},
): PosClient {
  const clientId = values['client-id'] ?? env.CLEAVER_CLIENT_ID;
  const clientSecret = values['client-secret'] ?? env.CLEAVER_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    throw new CleaverAuthError(
      0, // refused before asking the server
      'No POS credentials: pass --client-id and --client-secret, or set CLEAVER_CLIENT_ID and CLEAVER_CLIENT_SECRET',
      '-',
      '-',
      undefined,
    );
  }
  return createPosClient({ baseUrl: baseUrl(values.url, env), clientId, clientSecret, ...extra });
}

export function requirePositional(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined || value === '') throw new UsageError(`missing argument ${name}`);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A positional that must be a uuid (order and merchant ids are): a usage error names it. */
export function requireUuid(positionals: string[], index: number, name: string, hint = ''): string {
  const value = requirePositional(positionals, index, name);
  if (!UUID.test(value)) throw new UsageError(`${name} must be a uuid, got "${value}"${hint}`);
  return value;
}

/** Arguments after the last one a command takes are a mistake worth stopping for. */
export function noMoreArguments(positionals: string[], count: number, command: string): void {
  const extra = positionals[count];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" after "${command}"`);
}

export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** `--help`: the command's text on stdout, and success. */
export function printHelp(io: Io, text: string): number {
  io.stdout.write(`${text}\n`);
  return EXIT.OK;
}

/** What an action did: the value as JSON with --json, else one line for a person. */
export function printDone(io: Io, json: boolean | undefined, value: unknown, line: string): void {
  if (json) printJson(io, value);
  else io.stdout.write(`${line}\n`);
}

export type Cell = string | number | null | undefined;

/** Money as people read it: two decimals always (49.90, not 49.9), then the currency if given. */
export function money(value: number, currency?: string): string {
  return `${value.toFixed(2)}${currency ? ` ${currency}` : ''}`;
}

/** A list: the items as JSON with --json, else a table of one row per item. */
export function printList<T>(
  io: Io,
  json: boolean | undefined,
  items: T[],
  columns: string[],
  row: (item: T) => Cell[],
) {
  if (json) printJson(io, items);
  else printTable(io, columns, items.map(row));
}

/** A plain aligned table: the header row, then one row per record. */
export function printTable(io: Io, columns: string[], rows: Cell[][]): void {
  const cells = [columns, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)));
  for (const row of cells) {
    io.stdout.write(`${row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')}\n`);
  }
}

/** One record: the value as JSON with --json, else its fields one a line for a person. */
export function printRecord(io: Io, json: boolean | undefined, value: unknown, fields: Array<[string, Cell]>): void {
  if (json) printJson(io, value);
  else printFields(io, fields);
}

export function printFields(io: Io, fields: Array<[string, Cell]>): void {
  const width = Math.max(...fields.map(([k]) => k.length));
  for (const [k, v] of fields) io.stdout.write(`${`${k}:`.padEnd(width + 2)}${v ?? '-'}\n`);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Maps what went wrong to a message on stderr (or JSON on stdout with --json, on one line for a
 * command that prints JSON lines) and an exit code.
 */
export function reportError(io: Io, error: unknown, json: boolean, options: { jsonLines?: boolean } = {}): number {
  let code: number;
  let payload: Record<string, unknown>;
  if (error instanceof UsageError) {
    code = EXIT.USAGE;
    payload = { error: 'usage', message: error.message };
  } else if (error instanceof CleaverAuthError) {
    code = EXIT.AUTH;
    payload = { error: 'auth', status: error.status, title: error.title };
  } else if (error instanceof CleaverApiError) {
    code = EXIT.API_ERROR;
    payload = { error: 'api', status: error.status, title: error.title, request: `${error.method} ${error.path}` };
    // The router's own 404: the path itself is unknown to that server, not the order or merchant.
    if (error.status === 404 && error.title === 'Route not found') {
      payload.hint =
        'this server does not offer that endpoint (an older Cleaver, or a sandbox-only route on a production server)';
    }
  } else if (error instanceof CatalogSyncTimeoutError) {
    code = EXIT.SYNC_TIMEOUT;
    payload = { error: 'timeout', message: error.message, lastStatus: error.lastStatus };
  } else if (error instanceof CleaverNetworkError) {
    code = EXIT.UNREACHABLE;
    payload = { error: 'unreachable', message: error.message };
    // Nothing listening there: say where the CLI looked and how to point it elsewhere.
    if (error.stage === 'connect') {
      payload.hint = `no Cleaver service answers at ${originOf(error.url)}: start one (npm start, cleaver sandbox demo) or set CLEAVER_URL (or --url) to where it runs`;
    }
  } else if (error instanceof StartupError) {
    // `sandbox demo` starts the service itself: the same one-line reasons as `serve`.
    code = error.exitCode;
    payload = { error: 'startup', message: error.message };
  } else {
    throw error;
  }
  // A streaming command's stdout is JSON lines: its error is one more line, not a document over many.
  if (json && options.jsonLines) io.stdout.write(`${JSON.stringify(payload)}\n`);
  else if (json) printJson(io, payload);
  else {
    const detail =
      'title' in payload
        ? `${payload.status ? `${payload.status} ` : ''}${payload.title}${payload.request ? ` (${payload.request})` : ''}`
        : payload.message;
    // One line, so that scripts and people see the whole problem at once.
    const hint = payload.hint ? `: ${payload.hint}` : code === EXIT.USAGE ? ' (usage: cleaver --help)' : '';
    io.stderr.write(`${paint(colourWanted(io.stderr, io.env)).red('cleaver:')} ${detail}${hint}\n`);
  }
  return code;
}
