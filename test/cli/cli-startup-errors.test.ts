// Starting the service when something around it is wrong: the real `cleaver serve` / `migrate`
// processes, each giving one line on stderr that says what is wrong and what to do, and an exit
// code from `cleaver --help` (78 configuration, 69 database unreachable, 65 schema). No stack
// trace unless LOG_LEVEL=debug.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations, MigrationError, migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';
import { createTestDatabase, testDbKind } from '../support/test-db.js';
import { type CliResult, closedPort, ROOT, runCli } from './run-cli.js';

const kind = testDbKind();
const tempDir = () => mkdtempSync(join(tmpdir(), 'cleaver-startup-'));
const ALL_MIGRATIONS = loadMigrations().map((m) => m.name);
/** PORT=0: the default 8080 may be taken on a shared machine, which is another error (78). */
const ANY_PORT = { PORT: '0' };

/** Exactly these lines on stderr. */
const stderrLines = (r: CliResult) => r.stderr.split('\n').filter(Boolean);

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

/** A serve that is expected to start: collects its output until it listens (or exits). */
function startServe(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['bin/cleaver.js', 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('cleaver serve: startup errors in one line', { timeout: 120_000 }, () => {
  const held: Server[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('a port in use: 78 at once, before the database is opened; sandbox demo too', async () => {
    const { server, port } = await holdPort();
    held.push(server);
    const dataDir = tempDir();
    const [serve, demo] = await Promise.all([
      runCli(['serve'], { PORT: String(port), CLEAVER_DATA_DIR: dataDir }),
      runCli(['sandbox', 'demo', '--port', String(port), '--data-dir', tempDir()]),
    ]);
    const message = `cleaver: port ${port} is already in use on 127.0.0.1: stop the other process or set PORT to a free port`;
    for (const r of [serve, demo]) {
      expect(r.code).toBe(78);
      expect(stderrLines(r)).toEqual([message]);
    }
    expect(serve.stdout).toBe(''); // nothing was migrated or started
  });

  it('PostgreSQL not reachable: says what it waits for, then 69 with the fix (the password is never shown)', async () => {
    const url = `postgres://cleaver:s3cret-pass@127.0.0.1:${await closedPort()}/cleaver`;
    const where = `PostgreSQL at ${new URL(url).host}`;
    const [waited, once, migrateRun] = await Promise.all([
      runCli(['serve'], { ...ANY_PORT, DATABASE_URL: url, CLEAVER_DB_WAIT_SEC: '2', CLEAVER_DATA_DIR: tempDir() }),
      runCli(['serve'], { ...ANY_PORT, DATABASE_URL: url, CLEAVER_DB_WAIT_SEC: '0', CLEAVER_DATA_DIR: tempDir() }),
      runCli(['migrate'], { DATABASE_URL: url, CLEAVER_DB_WAIT_SEC: '1', CLEAVER_DATA_DIR: tempDir() }),
    ]);
    expect(waited.code).toBe(69);
    const lines = stderrLines(waited);
    expect(lines.slice(0, 2)).toEqual([
      `cleaver: waiting for ${where} (connection refused), attempt 1/3…`,
      `cleaver: waiting for ${where} (connection refused), attempt 2/3…`,
    ]);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^cleaver: ${where} is not reachable \\(connection refused\\) after \\d+ s: start it, check DATABASE_URL, ` +
          'or wait longer with CLEAVER_DB_WAIT_SEC$',
      ),
    );
    expect(lines).toHaveLength(3);
    expect(once.code).toBe(69);
    // CLEAVER_DB_WAIT_SEC=0: one attempt, no waiting.
    expect(stderrLines(once)).toHaveLength(1);
    expect(stderrLines(once)[0]).toMatch(
      new RegExp(
        `^cleaver: ${where} is not reachable \\(connection refused\\) after \\d+ s: start it, check DATABASE_URL, ` +
          'or wait longer with CLEAVER_DB_WAIT_SEC$',
      ),
    );
    expect(migrateRun.code).toBe(69);
    expect(stderrLines(migrateRun).at(-1)).toContain(`${where} is not reachable (connection refused)`);
    for (const r of [waited, once, migrateRun]) {
      expect(r.stderr + r.stdout).not.toContain('s3cret-pass');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('LOG_LEVEL=debug adds the stack trace', async () => {
    const url = `postgres://cleaver@127.0.0.1:${await closedPort()}/cleaver`;
    const r = await runCli(['serve'], {
      ...ANY_PORT,
      DATABASE_URL: url,
      CLEAVER_DB_WAIT_SEC: '0',
      CLEAVER_DATA_DIR: tempDir(),
      LOG_LEVEL: 'debug',
    });
    expect(r.code).toBe(69);
    expect(stderrLines(r)[0]).toContain('is not reachable (connection refused)');
    expect(r.stderr).toMatch(/^\s+at /m);
    expect(r.stderr).toContain('caused by:');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ CLEAVER_ENV: 'staging' }, 'CLEAVER_ENV must be "sandbox" or "production", got "staging"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ CLEAVER_DB_WAIT_SEC: 'forever' }, 'CLEAVER_DB_WAIT_SEC must be a whole number from 0 to 3600, got "forever"'],
    [{ CLEAVER_MIGRATE_ON_START: 'maybe' }, 'CLEAVER_MIGRATE_ON_START must be true or false, got "maybe"'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL must use postgres: or postgresql:, got "mysql:"'],
    [{ CLEAVER_ADMIN_TOKEN: 'short' }, 'CLEAVER_ADMIN_TOKEN must be at least 32 characters long'],
    [{ CLEAVER_ROLE: 'boss' }, 'CLEAVER_ROLE must be all, api or worker, got "boss"'],
    [
      { CLEAVER_HOMOLOGATION_DURATION_MS: '5min' },
      'CLEAVER_HOMOLOGATION_DURATION_MS must be a whole number from 1 to 600000, got "5min"',
    ],
    [
      { CLEAVER_HOMOLOGATION_DURATON_MS: '60000' },
      'CLEAVER_HOMOLOGATION_DURATON_MS is not a homologation timing (known: CLEAVER_HOMOLOGATION_DURATION_MS, ' +
        'CLEAVER_HOMOLOGATION_WAIT_FOR_POS_MS, CLEAVER_HOMOLOGATION_SCENARIO_SPACING_MS, ' +
        'CLEAVER_HOMOLOGATION_CONFIRM_DEADLINE_MS, CLEAVER_HOMOLOGATION_CANCELLATION_DEADLINE_MS, ' +
        'CLEAVER_HOMOLOGATION_POLL_MIN_INTERVAL_MS, CLEAVER_HOMOLOGATION_POLL_MAX_INTERVAL_MS, ' +
        'CLEAVER_HOMOLOGATION_POLL_BURST_WINDOW_MS, CLEAVER_HOMOLOGATION_POLL_BURST_MAX, ' +
        'CLEAVER_HOMOLOGATION_RETRY_AFTER_SEC, CLEAVER_HOMOLOGATION_INJECTION_GAP_MS)',
    ],
  ])('a bad environment value %j: 78 and one line naming it', async (env, message) => {
    const r = await runCli(['serve'], { ...ANY_PORT, CLEAVER_DATA_DIR: tempDir(), ...env });
    expect(r.code).toBe(78);
    expect(stderrLines(r)).toEqual([`cleaver: ${message}`]);
    expect(r.stdout).toBe('');
  });

  it('usage: serve --role boss is 78 like CLEAVER_ROLE; an unknown serve option is 2', async () => {
    const [role, bogus] = await Promise.all([
      runCli(['serve', '--role', 'boss'], { ...ANY_PORT, CLEAVER_DATA_DIR: tempDir() }),
      runCli(['serve', '--bogus'], { ...ANY_PORT, CLEAVER_DATA_DIR: tempDir() }),
    ]);
    expect(role.code).toBe(78);
    expect(stderrLines(role)).toEqual(['cleaver: CLEAVER_ROLE must be all, api or worker, got "boss"']);
    expect(bogus.code).toBe(2);
    expect(stderrLines(bogus)).toHaveLength(1);
    expect(bogus.stderr).toMatch(/^cleaver: Unknown option '--bogus'.* \(usage: cleaver --help\)\n$/);
  });

  it('--no-migrate with migrations pending: 65, naming them and what to run', async () => {
    if (kind === 'pglite') {
      const dataDir = tempDir();
      const r = await runCli(['serve', '--no-migrate'], { ...ANY_PORT, CLEAVER_DATA_DIR: dataDir });
      expect(r.code).toBe(65);
      expect(stderrLines(r)).toEqual([
        `cleaver: the embedded database in ${dataDir} lacks ${ALL_MIGRATIONS.length} migration(s) ` +
          `(${ALL_MIGRATIONS.join(', ')}): run "cleaver migrate" first, or start without --no-migrate ` +
          '(CLEAVER_MIGRATE_ON_START=true)',
      ]);
      return;
    }
    const database = await createTestDatabase();
    try {
      const last = ALL_MIGRATIONS.at(-1) as string;
      await database.db.query('DELETE FROM schema_migrations WHERE name = $1', [last]);
      const url = new URL(database.url as string);
      const r = await runCli(['serve', '--no-migrate'], {
        ...ANY_PORT,
        DATABASE_URL: database.url as string,
        CLEAVER_DATA_DIR: tempDir(),
      });
      expect(r.code).toBe(65);
      expect(stderrLines(r)).toEqual([
        `cleaver: PostgreSQL at ${url.hostname}:${url.port || '5432'} lacks 1 migration(s) (${last}): run ` +
          '"cleaver migrate" first, or start without --no-migrate (CLEAVER_MIGRATE_ON_START=true)',
      ]);
    } finally {
      await database.close();
    }
  });

  it('migrations newer than this code: a warning, and the service starts (rolling upgrades)', async () => {
    const env: Record<string, string> = { CLEAVER_DATA_DIR: tempDir() };
    let close = async () => {};
    if (kind === 'pglite') {
      const migrated = await runCli(['migrate'], env);
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.stdout).toBe(`applied: ${ALL_MIGRATIONS.join(', ')}\n`);
      const db = await openPglite(join(env.CLEAVER_DATA_DIR, 'pgdata'));
      await db.query("INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_from_the_future')");
      await db.close();
    } else {
      const database = await createTestDatabase();
      await database.db.query("INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_from_the_future')");
      env.DATABASE_URL = database.url as string;
      close = () => database.close();
    }
    try {
      const serve = startServe(['--no-migrate'], env);
      children.push(serve.child);
      await expect.poll(() => serve.output().stdout, { timeout: 60_000, interval: 100 }).toContain('listening on');
      // The start banner names where a person goes next: the console and the API reference.
      await expect
        .poll(() => serve.output().stdout, { timeout: 10_000, interval: 100 })
        .toMatch(/console (http:\S+)\/console · API reference \1\/docs · getting started \1\/docs\/getting-started\n/);
      expect(serve.output().stderr).toMatch(
        /^cleaver: warning: .* has migrations this version of cleaver does not know \(9999_from_the_future\): a newer version migrated it; run that version if anything fails\n$/,
      );
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    } finally {
      await close();
    }
  });
});

describe('a migration that fails', () => {
  it('is a MigrationError (exit 65) naming it, and nothing of the run stays', async () => {
    const database = await createTestDatabase();
    try {
      const run = migrate(database.db, [
        ...loadMigrations(),
        { version: 9001, name: '9001_good', sql: 'CREATE TABLE sandbox_probe (id int)' },
        { version: 9002, name: '9002_broken', sql: 'ALTER TABLE no_such_table ADD COLUMN x int' },
      ]);
      await expect(run).rejects.toThrow(MigrationError);
      const error = (await run.catch((e: unknown) => e)) as MigrationError;
      expect(error.exitCode).toBe(65);
      expect(error.message).toBe(
        'migration 9002_broken failed: relation "no_such_table" does not exist; nothing was applied (pending ' +
          'migrations run in one transaction): fix the database or the migration, then start again',
      );
      const { rows } = await database.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM schema_migrations WHERE version > 9000 UNION ALL SELECT count(*)::int FROM pg_tables WHERE tablename = 'sandbox_probe'",
      );
      expect(rows.map((r) => r.n)).toEqual([0, 0]);
    } finally {
      await database.close();
    }
  });
});

describe.runIf(kind === 'postgres')('PostgreSQL refuses: at once, no waiting', { timeout: 60_000 }, () => {
  it('an unknown role and a missing database: 78 with the fix', async () => {
    const base = new URL(process.env.TEST_DATABASE_URL as string);
    const where = `PostgreSQL at ${base.hostname}:${base.port || '5432'}`;
    const noRole = new URL(base);
    noRole.username = 'cleaver_no_such_role';
    const noDb = new URL(base);
    noDb.pathname = '/cleaver_no_such_database';
    const [role, db] = await Promise.all([
      runCli(['serve'], { ...ANY_PORT, DATABASE_URL: noRole.toString(), CLEAVER_DATA_DIR: tempDir() }),
      runCli(['serve'], { ...ANY_PORT, DATABASE_URL: noDb.toString(), CLEAVER_DATA_DIR: tempDir() }),
    ]);
    expect(role.code).toBe(78);
    expect(stderrLines(role)).toEqual([
      `cleaver: ${where} refused the login of cleaver_no_such_role (role "cleaver_no_such_role" does not exist): ` +
        'check the user and password in DATABASE_URL',
    ]);
    expect(db.code).toBe(78);
    expect(stderrLines(db)).toEqual([
      `cleaver: ${where} has no database "cleaver_no_such_database": create it (createdb cleaver_no_such_database) ` +
        'or fix DATABASE_URL',
    ]);
  });
});
