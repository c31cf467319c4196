import { PGlite, type PGliteInterface, type Transaction } from '@electric-sql/pglite';
import type { Db, NotificationHandler, Queryable, QueryResult } from './db.js';

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
    async ping() {
      await pglite.query('SELECT 1');
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * PostgreSQL's buffer pool inside PGlite. Its default (128 MB) is allocated and touched when the
 * database starts, so it was a third of an idle embedded service's resident memory
 * (docs/benchmarks.md). The embedded database serves one process's development, sandbox or small
 * shop data, whose hot pages fit in far less; pages beyond the pool are read back from the data
 * directory's files, which the operating system caches.
 */
const SHARED_BUFFERS = '16MB';

/** Opens (or creates) the embedded database. `dataDir` undefined = in memory. */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  });
  return wrapPglite(pglite);
}
