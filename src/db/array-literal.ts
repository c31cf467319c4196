// PostgreSQL array literals built here, for the set-based writes that send thousands of values a
// statement (usage and presence, every few seconds per API process). node-postgres turns a
// JavaScript array into a literal by quoting and escaping every element with two regular
// expressions, and a Date by formatting it first: in the poll storm that was an eighth of an
// API process's CPU (docs/benchmarks.md, "The poll storm's CPU"). Values that cannot hold a
// quote, a comma or a brace (ids, numbers, plain names) need none of it; anything else is refused
// rather than sent, since an unescaped comma would shift every later value of the statement.

const PLAIN = /^[A-Za-z0-9_.:-]+$/;

/** `{a,b,NULL}` of ids or plain names (letters, digits, `_.:-`); null is SQL NULL. */
export function plainTextArray(values: ReadonlyArray<string | null>): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) literal += ',';
    if (v === null || v === undefined) literal += 'NULL';
    else if (PLAIN.test(v) && v.toUpperCase() !== 'NULL') literal += v;
    else throw new TypeError(`not a plain array element: ${JSON.stringify(v)}`);
  }
  return `${literal}}`;
}

/** `{1,2.5,NULL}` of finite numbers; null is SQL NULL. */
export function numberArray(values: ReadonlyArray<number | null>): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) literal += ',';
    if (v === null || v === undefined) literal += 'NULL';
    else if (Number.isFinite(v)) literal += String(v);
    else throw new TypeError(`not a finite number: ${v}`);
  }
  return `${literal}}`;
}
