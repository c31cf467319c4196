// PostgreSQL array literals built here, for the set-based writes that send thousands of values a
// statement (usage and presence, every few seconds per API process). node-postgres turns a
// JavaScript array into a literal by quoting and escaping every element with two regular
// expressions, and a Date by formatting it first: in the poll storm that was an eighth of an
// API process's CPU (docs/benchmarks.md, "Figures of 2026-11-28, 05:15–05:38 UTC"). Values that
// cannot hold a quote, a comma or a brace (ids, finite numbers, plain names) need none of it;
// anything else is refused rather than sent, since an unescaped comma would shift every later
// value of the statement.

const PLAIN = /^[A-Za-z0-9_.:-]+$/;

/** One element as the literal writes it: null is SQL NULL. */
function element(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return String(v);
  } else if (PLAIN.test(v) && v.toUpperCase() !== 'NULL') return v;
  throw new TypeError(`not a plain array element: ${JSON.stringify(v) ?? String(v)}`);
}

/** `{a,1.5,NULL}` of ids, plain names (letters, digits, `_.:-`) and finite numbers. */
export function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) literal += (i > 0 ? ',' : '') + element(values[i]);
  return `${literal}}`;
}
