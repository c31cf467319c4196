import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { migrate } from '../../src/db/migrate.js';
import { wrapPglite } from '../../src/db/pglite.js';
import { openPostgres } from '../../src/db/postgres.js';
import { PGLITE_TEMPLATE_FILE } from './pglite-template.js';

export type TestDbKind = 'pglite' | 'postgres';
export const testDbKind = (): TestDbKind => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

export interface TestDatabase {
  db: Db;
  kind: TestDbKind;
  /** Connection string (PostgreSQL only), for tests that start other processes on it. */
  url?: string;
  close(): Promise<void>;
}

let pgliteTemplate: Promise<PGliteInterface> | undefined;
let pgliteBaseline: Promise<Baseline> | undefined;
/** Databases given back, reset to the template's state, waiting for the next test of this worker. */
const idle: PGliteInterface[] = [];

/**
 * A migrated PGlite kept in memory; clone() of it is much faster than a new initdb + migrate.
 * It is loaded from the tarball the global setup made, when there is one.
 */
function migratedPgliteTemplate(): Promise<PGliteInterface> {
  pgliteTemplate ??= (async () => {
    if (existsSync(PGLITE_TEMPLATE_FILE)) {
      const tarball = new Blob([readFileSync(PGLITE_TEMPLATE_FILE)]);
      const template = await PGlite.create({ loadDataDir: tarball });
      await migrate(wrapPglite(template)); // no-op unless migrations changed since the dump
      return template;
    }
    const template = await PGlite.create();
    await migrate(wrapPglite(template));
    return template;
  })();
  return pgliteTemplate;
}

/** A fresh, migrated, empty database of the kind this test project runs on. */
export async function createTestDatabase(kind: TestDbKind = testDbKind()): Promise<TestDatabase> {
  if (kind === 'pglite') return checkOutPglite();
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const template = inject('postgresTemplate');
  // Copies share the template's run prefix, so the run's teardown finds and drops them.
  const name = `${template.replace(/_template$/, '')}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = openPostgres({ connectionString: url.toString(), max: 10 });
  return {
    db,
    kind,
    url: url.toString(),
    async close() {
      await db.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

// ---- PGlite: reuse instead of a copy per test -------------------------------------------------
//
// A clone() of the migrated template starts a new PostgreSQL in WebAssembly: 1–2 s, paid by every
// test app. A database a test has closed is instead reset to the template's state (every table
// emptied, the rows the migrations inserted put back, every sequence where the template had it,
// the session's state discarded) and handed to the next test of the same worker: about a tenth of
// the cost. What a test could leave behind that a reset does not undo, a changed schema, makes
// the database be closed for good instead. Each checkout gets a handle of its own that is dead
// once closed, as a closed PGlite is: a late query of a closed app fails instead of writing into
// the next test's database.

interface Baseline {
  /** The schema's fingerprint: a database whose fingerprint differs is not reused. */
  schema: string;
  tables: string[];
  seeds: Array<{ table: string; rows: string }>;
  sequences: Array<{ name: string; value: string; called: boolean }>;
}

const SCHEMA_FINGERPRINT = `
  SELECT string_agg(c.relkind::text || ':' || n.nspname || '.' || c.relname || ':' || c.relnatts, ',' ORDER BY n.nspname, c.relname) AS f
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%'`;

async function baselineOf(template: PGliteInterface): Promise<Baseline> {
  const schema = (await template.query<{ f: string }>(SCHEMA_FINGERPRINT)).rows[0].f;
  const tables = (
    await template.query<{ t: string }>(
      `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS t FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    )
  ).rows.map((r) => r.t);
  const seeds: Baseline['seeds'] = [];
  for (const table of tables) {
    const { rows } = await template.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${table} t`);
    if (rows[0].rows) seeds.push({ table, rows: rows[0].rows });
  }
  const sequences = (
    await template.query<{ name: string; value: string | null; called: boolean }>(
      `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text AS value,
              last_value IS NOT NULL AS called
         FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    )
  ).rows.map((r) => ({ name: r.name, value: r.value ?? '1', called: r.called }));
  return { schema, tables, seeds, sequences };
}

async function checkOutPglite(): Promise<TestDatabase> {
  const template = await migratedPgliteTemplate();
  pgliteBaseline ??= baselineOf(template);
  const baseline = await pgliteBaseline;
  // CLEAVER_TEST_PGLITE_CLONE=1: a clone per database, as before the reuse (to tell whether a failure is the reuse's).
  const reuse = process.env.CLEAVER_TEST_PGLITE_CLONE !== '1';
  const instance = (reuse ? idle.pop() : undefined) ?? (await template.clone());
  let released = false;
  // PGlite's listeners of this checkout, removed when it is given back.
  const unsubscribes: Array<() => Promise<void>> = [];
  const closedError = () => new Error('PGlite is closed');
  const handle = new Proxy(instance, {
    get(target, prop) {
      if (prop === 'closed') return released || target.closed;
      if (prop === 'close') return release;
      if (prop === 'listen') {
        return async (channel: string, callback: (payload: string) => void) => {
          if (released) throw closedError();
          const unsubscribe = await target.listen(channel, callback);
          unsubscribes.push(unsubscribe);
          return unsubscribe;
        };
      }
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (released) return Promise.reject(closedError());
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  async function release(): Promise<void> {
    if (released) return;
    released = true;
    for (const unsubscribe of unsubscribes.splice(0)) await unsubscribe().catch(() => {});
    if (instance.closed) return;
    try {
      if (reuse && (await resetPglite(instance, baseline))) {
        idle.push(instance);
        return;
      }
    } catch {
      // Not reusable: closed below like any database a test is done with.
    }
    await instance.close().catch(() => {});
  }
  const db = wrapPglite(handle);
  return { db, kind: 'pglite', close: () => db.close() };
}

/** Back to the template's state; false when the schema changed (the database is not reused). */
async function resetPglite(instance: PGliteInterface, baseline: Baseline): Promise<boolean> {
  const schema = (await instance.query<{ f: string }>(SCHEMA_FINGERPRINT)).rows[0].f;
  if (schema !== baseline.schema) return false;
  // Triggers off for the reset: the audit log refuses TRUNCATE (0008_operators_audit.sql).
  await instance.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await tx.exec(`TRUNCATE ${baseline.tables.join(', ')} RESTART IDENTITY CASCADE`);
    for (const seed of baseline.seeds) {
      await tx.query(`INSERT INTO ${seed.table} SELECT * FROM json_populate_recordset(NULL::${seed.table}, $1::json)`, [
        seed.rows,
      ]);
    }
    for (const seq of baseline.sequences) {
      await tx.query('SELECT setval($1::regclass, $2::bigint, $3)', [seq.name, seq.value, seq.called]);
    }
  });
  await instance.exec('DISCARD ALL');
  return true;
}
