// The embedded database's upkeep (src/db/embedded-upkeep.ts): PGlite has no autovacuum, so the
// worker vacuums and analyzes each table itself, or plans keep the row counts of the first
// minutes and the rows retention deletes (D30) never free their pages. On PostgreSQL the timer
// is not started (autovacuum does it); a pass itself works on both.
import { afterEach, describe, expect, it } from 'vitest';
import { listTables, startEmbeddedUpkeep, upkeepPass } from '../../src/db/embedded-upkeep.js';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/test-db.js';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const statsOf = async (db: TestDatabase['db'], table: string) =>
  (
    await db.query<{ reltuples: number; analyzed: boolean; vacuumed: boolean }>(
      `SELECT c.reltuples::float8 AS reltuples, s.last_analyze IS NOT NULL AS analyzed,
              s.last_vacuum IS NOT NULL AS vacuumed
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = $1`,
      [table],
    )
  ).rows[0];

describe('embedded database upkeep', () => {
  it('a pass vacuums and analyzes every table of the schema, one statement each', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const tables = await listTables(db);
    expect(tables).toContain('webhook_deliveries');
    expect(tables).toContain('orders');
    expect(tables).not.toContain('pg_class');
    // Rows come and go, as retention makes them: the statistics only learn it from ANALYZE.
    await db.exec(`CREATE TABLE upkeep_probe (id int PRIMARY KEY, v text)`);
    await db.exec(`INSERT INTO upkeep_probe SELECT g, 'x' FROM generate_series(1, 5000) g`);
    await db.exec(`DELETE FROM upkeep_probe WHERE id <= 3000`);
    let pauses = 0;
    const done = await upkeepPass(db, async () => {
      pauses += 1;
    });
    expect(done).toEqual([...tables, 'upkeep_probe'].sort());
    expect(pauses).toBe(done.length);
    expect(await statsOf(db, 'upkeep_probe')).toEqual({ reltuples: 2000, analyzed: true, vacuumed: true });
  });

  it.runIf(testDbKind() === 'pglite')('the embedded database runs a pass on its own, and stops in order', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const errors: unknown[] = [];
    const upkeep = startEmbeddedUpkeep(db, {
      firstAfterMs: 10,
      everyMs: 60_000,
      pauseMs: 1,
      onError: (e) => errors.push(e),
    });
    try {
      await expect
        .poll(async () => (await statsOf(db, 'webhook_deliveries'))?.analyzed, { timeout: 20_000 })
        .toBe(true);
    } finally {
      await upkeep.stop();
    }
    expect(errors).toEqual([]);
  });

  it.runIf(testDbKind() === 'postgres')('on PostgreSQL nothing is scheduled: autovacuum does it', async () => {
    database = await createTestDatabase();
    const { db } = database;
    // A table autovacuum has no reason to visit within the test (naptime: a minute).
    await db.exec(`CREATE TABLE upkeep_probe (id int PRIMARY KEY)`);
    const upkeep = startEmbeddedUpkeep(db, { firstAfterMs: 1, everyMs: 1, pauseMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await upkeep.stop();
    expect(await statsOf(db, 'upkeep_probe')).toEqual({ reltuples: -1, analyzed: false, vacuumed: false });
  });
});
