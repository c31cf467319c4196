// A migrated scratch database for a bench: PGlite as `npm start` opens it (on a thread of its own
// unless CLEAVER_EMBEDDED_DB_THREAD=false, docs/adr/0009-embedded-database-thread.md), or a
// PostgreSQL database of its own (BENCH_DATABASE_URL's server), dropped on close.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../src/db/db.js';
import { migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';
import { openPgliteThread } from '../../src/db/pglite-thread.js';
import { openPostgres } from '../../src/db/postgres.js';

export async function openBenchDb(
  kind: 'postgres' | 'pglite',
  label: string,
): Promise<{ db: Db; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const onThread = process.env.CLEAVER_EMBEDDED_DB_THREAD !== 'false';
    const db = onThread ? await openPgliteThread({}) : await openPglite();
    await migrate(db);
    return { db, close: () => db.close() };
  }
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cleaver_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = openPostgres({ connectionString: url.toString(), max: 10 });
  await migrate(db);
  return {
    db,
    async close() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
