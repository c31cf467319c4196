import { PGlite, type PGliteInterface, type Transaction } from '@electric-sql/pglite';
import type { Db, NotificationHandler, Queryable, QueryResult } from './db.js';
import { PGLITE_SETTINGS } from './pglite-settings.js';

function wrap(handle: PGliteInterface | Transaction): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await handle.query<T>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await handle.exec(sql);
    },
  };
}

export function wrapPglite(pglite: PGliteInterface): Db {
  const direct = wrap(pglite);
  return {
    kind: 'pglite',
    query: direct.query,
    exec: direct.exec,
    // PGlite is one session: transactions run one at a time behind its own mutex. The main
    // handle must never be used inside the callback (it would wait on itself).
    transaction: (fn) => pglite.transaction((tx) => fn(wrap(tx))),
    // NOTIFY reaches listeners of the same (only) session on commit, so workers are woken
    // in-process with the same SQL as on PostgreSQL.
    async listen(channel: string, handler: NotificationHandler) {
      const unsubscribe = await pglite.listen(channel, handler);
      return async () => {
        if (!pglite.closed) await unsubscribe();
      };
    },
    // One session, and its listeners run before the statement that committed resolves (tested
    // in test/events/pending-keys-cache.test.ts): nothing committed can still be on its way.
    caughtUp: () => (pglite.closed ? Promise.reject(new Error('PGlite is closed')) : Promise.resolve()),
    async ping() {
      await pglite.query('SELECT 1');
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** Opens (or creates) the embedded database on this thread. `dataDir` undefined = in memory. */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
  return wrapPglite(pglite);
}
