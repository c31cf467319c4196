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
  if (kind === 'pglite') {
    const template = await migratedPgliteTemplate();
    const db = wrapPglite(await template.clone());
    return { db, kind, close: () => db.close() };
  }
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
