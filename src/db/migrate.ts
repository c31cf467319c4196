import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STARTUP_EXIT, StartupError } from '../config.js';
import type { Db } from './db.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant shared by every process of the service; serialises concurrent migrators.
const MIGRATION_LOCK_KEY = 72_310_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

/** A migration the database refused: exit 65, and nothing of this run stays (one transaction). */
export class MigrationError extends StartupError {
  override name = 'MigrationError';
}

function migrationFailed(migration: Migration, error: unknown): Error {
  // The database going away mid-migration is an outage, not a bad migration: let it through.
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(08|57P)/.test(code)) return error as Error;
  const message = ((error as Error).message ?? String(error)).split('\n')[0];
  return new MigrationError(
    `migration ${migration.name} failed: ${message}; nothing was applied (pending migrations run in one ` +
      'transaction): fix the database or the migration, then start again',
    STARTUP_EXIT.DATABASE_SCHEMA,
    { cause: error },
  );
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so two processes
 * starting at once do not both apply them: the second waits, then finds nothing to do.
 * Returns the names applied by this call.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw migrationFailed(migration, error);
      }
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.push(migration.name);
    }
    return done;
  });
}

/** True when every known migration is applied (readiness, operator-api.md#health). */
export async function isMigrated(db: Db, migrations = loadMigrations()): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM schema_migrations WHERE version = ANY($1::int[])`,
    [migrations.map((m) => m.version)],
  );
  return rows[0]?.n === migrations.length;
}

export interface MigrationStatus {
  /** Known migrations not applied yet, in order. */
  pending: string[];
  /** Applied migrations this code does not have: a newer version migrated the database. */
  unknown: string[];
}

/** What `serve --no-migrate` checks, and what `serve` warns about (newer migrations). */
export async function migrationStatus(db: Db, migrations = loadMigrations()): Promise<MigrationStatus> {
  const { rows: table } = await db.query<{ name: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS name",
  );
  const applied = table[0]?.name
    ? (
        await db.query<{ version: number; name: string }>(
          'SELECT version, name FROM schema_migrations ORDER BY version',
        )
      ).rows
    : [];
  const known = new Set(migrations.map((m) => m.version));
  const done = new Set(applied.map((r) => r.version));
  return {
    pending: migrations.filter((m) => !done.has(m.version)).map((m) => m.name),
    unknown: applied.filter((r) => !known.has(r.version)).map((r) => r.name),
  };
}
