// tsconfig's noUncheckedIndexedAccess types `rows[0]` as possibly missing. Where the SQL itself
// guarantees a row (INSERT … RETURNING without ON CONFLICT DO NOTHING, an aggregate without
// GROUP BY), firstRow says so and names the statement if that guarantee is ever broken: a bug,
// answered as a 500 like any other, never a 4xx for bad input.

export class MissingRowError extends Error {
  override name = 'MissingRowError';
}

/** The first row of a statement that always returns one; `statement` names it in the error. */
export function firstRow<T>(rows: readonly T[], statement: string): T {
  const [row] = rows;
  if (row === undefined) throw new MissingRowError(`${statement}: expected at least one, found none`);
  return row;
}
