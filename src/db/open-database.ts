import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, STARTUP_EXIT, StartupError } from '../config.js';
import { type Db, isDatabaseUnavailable } from './db.js';
import { openPostgres } from './postgres.js';

export class DataDirLockedError extends StartupError {
  override name = 'DataDirLockedError';
  constructor(message: string) {
    super(message, STARTUP_EXIT.CONFIG);
  }
}

/**
 * PGlite is a single session: two processes on one data directory would corrupt it silently.
 * An exclusive lock file (created with O_EXCL) makes the second start refuse. A lock left by a
 * process that no longer exists is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'cleaver.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && (holder === process.pid || isAlive(holder))) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is in use by process ${holder}. ` +
            'Only one process may open it; stop that process, use another CLEAVER_DATA_DIR, ' +
            'or set DATABASE_URL to share a PostgreSQL database between processes.',
        );
      }
      unlinkSync(path); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OpenedDatabase {
  db: Db;
  description: string;
  /** Where it is, for messages: `PostgreSQL at host:port` (never the credentials). */
  where: string;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'dbPreparedStatements' | 'embeddedDbThread'>>,
  onError?: (error: Error) => void,
): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    const db = openPostgres({
      connectionString: config.databaseUrl,
      onError,
      preparedStatements: config.dbPreparedStatements,
    });
    const url = new URL(config.databaseUrl);
    return {
      db,
      description: `PostgreSQL at ${url.host}${url.pathname}`,
      where: `PostgreSQL at ${url.hostname}:${url.port || '5432'}`,
      close: () => db.close(),
    };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const dataDir = join(config.dataDir, 'pgdata');
    const db = await openEmbedded(dataDir, config.embeddedDbThread ?? true);
    return {
      db,
      description: `embedded PostgreSQL (PGlite) in ${config.dataDir}`,
      where: `the embedded database in ${config.dataDir}`,
      async close() {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * The embedded database, on a thread of its own unless CLEAVER_EMBEDDED_DB_THREAD=false
 * (docs/adr/0009-embedded-database-thread.md). Loaded only here: a PostgreSQL deployment never
 * pays for the WebAssembly engine's module, and with the thread this one does not either.
 */
async function openEmbedded(dataDir: string, onThread: boolean): Promise<Db> {
  if (onThread) {
    const { openPgliteThread } = await import('./pglite-thread.js');
    return openPgliteThread({ dataDir });
  }
  const { openPglite } = await import('./pglite.js');
  return openPglite(dataDir);
}

/** A driver error in a few words: `connection refused`, `host not found`… */
export function connectionProblem(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; errors?: unknown[] };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const first = Array.isArray(e.errors) && e.errors.length ? connectionProblem(e.errors[0]) : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'ECONNRESET':
      return 'connection reset';
    case '57P03':
      return 'the database system is starting up';
    case '53300':
      return 'too many connections';
  }
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (/timeout/i.test(message)) return 'connection timed out';
  return first ?? message;
}

/** Refusals that waiting does not cure: one line with the fix, at once (exit 78). */
function refusal(error: unknown, where: string, config: Pick<Config, 'databaseUrl'>): StartupError | undefined {
  const code = (error as { code?: unknown }).code;
  const url = config.databaseUrl ? new URL(config.databaseUrl) : undefined;
  const user = url ? decodeURIComponent(url.username) || 'the default user' : 'the default user';
  const database = url ? decodeURIComponent(url.pathname.slice(1)) || user : '';
  const message = (error as Error).message;
  if (code === '28P01' || code === '28000') {
    return new StartupError(
      `${where} refused the login of ${user} (${message}): check the user and password in DATABASE_URL`,
      STARTUP_EXIT.CONFIG,
      { cause: error },
    );
  }
  if (code === '3D000') {
    return new StartupError(
      `${where} has no database "${database}": create it (createdb ${database}) or fix DATABASE_URL`,
      STARTUP_EXIT.CONFIG,
      { cause: error },
    );
  }
  return undefined;
}

/**
 * D31 at start: a database that is not up yet (PostgreSQL starting next to us) is waited for,
 * one attempt a second, `dbWaitSec` + 1 attempts, saying each time what it waits for; then the start gives
 * up with one line that says what to do (exit 69). A login or a database name the server
 * refuses is reported at once: waiting would not change it.
 */
export async function waitForDatabase(
  opened: OpenedDatabase,
  config: Pick<Config, 'databaseUrl' | 'dbWaitSec'>,
  report: (line: string) => void,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  const attempts = config.dbWaitSec + 1;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await opened.db.ping();
      if (attempt > 1) report(`${opened.where} answered after ${Math.round((Date.now() - started) / 1000)} s`);
      return;
    } catch (error) {
      const refused = refusal(error, opened.where, config);
      if (refused) throw refused;
      if (!isDatabaseUnavailable(error)) throw error;
      const problem = connectionProblem(error);
      const waited = Date.now() - started;
      // Counted in attempts, not by the clock: a slow connection timeout still gets them all.
      if (attempt >= attempts) {
        throw new StartupError(
          `${opened.where} is not reachable (${problem}) after ${Math.round(waited / 1000)} s: start it, check ` +
            'DATABASE_URL, or wait longer with CLEAVER_DB_WAIT_SEC',
          STARTUP_EXIT.DATABASE_UNREACHABLE,
          { cause: error },
        );
      }
      report(`waiting for ${opened.where} (${problem}), attempt ${attempt}/${attempts}…`);
      await sleep(1000);
    }
  }
}
