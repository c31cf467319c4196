// The set-based insert used wherever a batch of rows is written: the statement reads its rows from
// `unnest($1::type[], $2::type[], …)`, one array parameter per column, so any number of rows is
// one statement and one round trip.
import { arrayLiteral } from './array-literal.js';
import type { Queryable } from './db.js';

/** A column's values: a field of the row as it is, or what a function makes of the row. */
export type UnnestColumn<T> = keyof T | ((row: T) => unknown);

/** One array a column, in the order of `columns` (the order of the statement's parameters). */
export function unnestParams<T>(rows: readonly T[], columns: readonly UnnestColumn<T>[]): unknown[][] {
  return columns.map((column) => rows.map((row) => (typeof column === 'function' ? column(row) : row[column])));
}

/**
 * Runs `sql` with the rows as unnest parameters; no statement at all for no rows. `asLiterals`:
 * every column holds ids, plain names, numbers or nulls, sent as literals built here
 * (db/array-literal.ts) rather than escaped element by element by node-postgres: for the writes
 * of thousands of rows every few seconds on the request path's process.
 */
export async function insertUnnested<T>(
  db: Queryable,
  sql: string,
  rows: readonly T[],
  columns: readonly UnnestColumn<T>[],
  options: { asLiterals?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const params = unnestParams(rows, columns);
  await db.query(
    sql,
    options.asLiterals ? params.map((values) => arrayLiteral(values as (string | number | null)[])) : params,
  );
}
