// A look at every statement a test's code sends through the real database handle, in or out of a
// transaction: to count them, or to fail one (a fault injected into the real database, not a
// stand-in for it).
import type { Db, Queryable } from '../../src/db/db.js';

/**
 * Runs `onStatement` before each statement sent through `db` (queries and scripts, in and out of
 * the transactions it opens). A
 * throw fails that statement as the database would. Returns the undo.
 */
export function hookStatements(db: Db, onStatement: (sql: string) => void): () => void {
  const { query, transaction } = db;
  const hooked = (run: Queryable['query']): Queryable['query'] =>
    ((sql: string, ...rest: unknown[]) => {
      try {
        onStatement(sql);
      } catch (error) {
        return Promise.reject(error);
      }
      return (run as (...args: unknown[]) => unknown)(sql, ...rest);
    }) as Queryable['query'];
  db.query = hooked(query.bind(db));
  const hookedExec =
    (run: Queryable['exec']): Queryable['exec'] =>
    (sql: string) => {
      try {
        onStatement(sql);
      } catch (error) {
        return Promise.reject(error);
      }
      return run(sql);
    };
  const { exec } = db;
  db.exec = hookedExec(exec.bind(db));
  db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) =>
    transaction.call(db, (tx) =>
      fn({ query: hooked(tx.query.bind(tx)), exec: hookedExec(tx.exec.bind(tx)) }),
    )) as Db['transaction'];
  return () => {
    db.query = query;
    db.exec = exec;
    db.transaction = transaction;
  };
}
