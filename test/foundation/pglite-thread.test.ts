// The embedded database on its own thread (src/db/pglite-thread.ts, docs/adr/0009): the same Db
// as PGlite on the service's thread. Values come back as they would in process, PostgreSQL's
// errors keep their fields, a transaction holds the one session whole, NOTIFY reaches listeners,
// the data directory survives a close, and a closed database says so as the other does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { isDatabaseUnavailable } from '../../src/db/db.js';
import { migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';
import { openPgliteThread } from '../../src/db/pglite-thread.js';

let threaded: Db;
let inProcess: Db;

beforeAll(async () => {
  [threaded, inProcess] = await Promise.all([openPgliteThread({}), openPglite()]);
  const table = `CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL UNIQUE, at timestamptz, body jsonb,
                 raw bytea, big bigint, tags text[], amount numeric(10,2))`;
  await Promise.all([threaded.exec(table), inProcess.exec(table)]);
});
afterAll(async () => {
  await Promise.all([threaded?.close(), inProcess?.close()]);
});

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the statement to fail');
};

describe('embedded database on its own thread', () => {
  it('returns the same values and row counts as PGlite on the service thread', async () => {
    const at = new Date('2026-11-25T05:00:00.123Z');
    const params = [
      1,
      'rib-eye',
      at,
      { cut: 'rib', kg: 1.5 },
      new Uint8Array([0, 1, 255]),
      9007199254740993n,
      ['a', 'b'],
    ];
    const insert = 'INSERT INTO t (id, name, at, body, raw, big, tags, amount) VALUES ($1,$2,$3,$4,$5,$6,$7,12.5)';
    const select = 'SELECT * FROM t WHERE id = $1';
    for (const db of [threaded, inProcess]) {
      expect((await db.query(insert, params)).rowCount).toBe(1);
    }
    const [a, b] = await Promise.all([threaded.query(select, [1]), inProcess.query(select, [1])]);
    expect(a.rows).toEqual(b.rows);
    expect(a.rows[0]).toMatchObject({ at, body: { cut: 'rib', kg: 1.5 }, tags: ['a', 'b'], amount: '12.50' });
    expect(a.rows[0]?.raw).toBeInstanceOf(Uint8Array);
    const update = 'UPDATE t SET name = name WHERE id IN (1, 2)';
    expect((await threaded.query(update)).rowCount).toBe((await inProcess.query(update)).rowCount);
    expect((await threaded.query('SELECT 1 AS one WHERE false')).rows).toEqual([]);
  });

  it("keeps PostgreSQL's error fields: code, constraint, detail", async () => {
    await threaded.query("INSERT INTO t (id, name) VALUES (10, 'brisket')");
    const error = await errorOf(threaded.query("INSERT INTO t (id, name) VALUES (11, 'brisket')"));
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 't_name_key',
      table: 't',
      detail: 'Key (name)=(brisket) already exists.',
      message: 'duplicate key value violates unique constraint "t_name_key"',
    });
    expect(await errorOf(threaded.query('SELEC 1'))).toMatchObject({ code: '42601' });
    const uncloneable = await errorOf(threaded.query('SELECT $1::text', [() => 'x']));
    expect(uncloneable.message).toMatch(/^A statement parameter cannot be sent to the embedded database/);
    // The thread goes on after an error.
    expect((await threaded.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it('a transaction holds the session whole: statements sent meanwhile wait for its end', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const tx = threaded.transaction(async (q) => {
      await q.query("INSERT INTO t (id, name) VALUES (20, 'flank')");
      inside();
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push('transaction');
      await q.query("INSERT INTO t (id, name) VALUES (21, 'skirt')");
      return 'committed';
    });
    await entered;
    // Sent while the transaction is open: it must neither see the uncommitted row nor run inside.
    const outside = threaded.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id IN (20, 21)').then((r) => {
      order.push('outside');
      return r.rows[0]?.n;
    });
    expect(await tx).toBe('committed');
    expect(await outside).toBe(2);
    expect(order).toEqual(['transaction', 'outside']);
  });

  it('a failing transaction rolls back everything it wrote, and the next one runs', async () => {
    const error = await errorOf(
      threaded.transaction(async (q) => {
        await q.query("INSERT INTO t (id, name) VALUES (30, 'hanger')");
        await q.query("INSERT INTO t (id, name) VALUES (31, 'hanger')");
      }),
    );
    expect(error).toMatchObject({ code: '23505' });
    expect((await threaded.query('SELECT id FROM t WHERE id IN (30, 31)')).rows).toEqual([]);
    const thrown = await errorOf(
      threaded.transaction(async (q) => {
        await q.query("INSERT INTO t (id, name) VALUES (32, 'tri-tip')");
        throw new Error('the caller changed its mind');
      }),
    );
    expect(thrown.message).toBe('the caller changed its mind');
    expect((await threaded.query('SELECT id FROM t WHERE id = 32')).rows).toEqual([]);
    expect(await threaded.transaction((q) => q.query('SELECT 3 AS three').then((r) => r.rows))).toEqual([{ three: 3 }]);
  });

  it('transactions queued together run one after the other, in order', async () => {
    const seen: number[] = [];
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        threaded.transaction(async (q) => {
          const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id BETWEEN 40 AND 49');
          seen.push(rows[0]?.n ?? -1);
          await q.query('INSERT INTO t (id, name) VALUES ($1, $2)', [40 + n, `cut-${n}`]);
        }),
      ),
    );
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('NOTIFY reaches listeners on commit; unsubscribing stops it', async () => {
    const payloads: string[] = [];
    const unlisten = await threaded.listen('cleaver_test', (payload) => payloads.push(payload));
    await threaded.transaction(async (q) => {
      await q.query("SELECT pg_notify('cleaver_test', 'inside')");
      expect(payloads).toEqual([]);
    });
    await threaded.query("SELECT pg_notify('cleaver_test', 'outside')");
    await expect.poll(() => payloads).toEqual(['inside', 'outside']);
    await unlisten();
    await threaded.query("SELECT pg_notify('cleaver_test', 'after')");
    await threaded.ping();
    expect(payloads).toEqual(['inside', 'outside']);
  });

  it('a listener has run by the time the transaction that notified resolves (caughtUp has nothing to wait for)', async () => {
    // docs/adr/0012-pending-keys-cache.md: on either embedded database, a notification committed
    // before a poll begins has reached the cache, with no round trip.
    for (const db of [threaded, inProcess]) {
      let heard = 0;
      const unlisten = await db.listen('cleaver_order', () => {
        heard += 1;
      });
      for (let i = 1; i <= 20; i++) {
        await db.transaction((q) => q.query("SELECT pg_notify('cleaver_order', '')"));
        expect(heard).toBe(i);
      }
      await db.caughtUp('cleaver_order');
      await unlisten();
    }
  });

  it('the data directory outlives the thread; a closed database answers as unavailable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cleaver-pglite-thread-'));
    try {
      const first = await openPgliteThread({ dataDir: join(dir, 'pgdata') });
      await migrate(first);
      await first.exec('CREATE TABLE kept (v text)');
      await first.query("INSERT INTO kept VALUES ('picanha')");
      await first.close();
      const error = await errorOf(first.query('SELECT 1'));
      expect(isDatabaseUnavailable(error)).toBe(true);
      await first.close(); // twice is harmless

      const second = await openPgliteThread({ dataDir: join(dir, 'pgdata') });
      expect((await second.query('SELECT v FROM kept')).rows).toEqual([{ v: 'picanha' }]);
      await migrate(second); // already migrated: nothing to do
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
