// Array literals built without node-postgres's per-element escaping: what they accept, and what
// they refuse (a value that would need quoting) rather than shift the values after it.
import { describe, expect, it } from 'vitest';
import { arrayLiteral } from './array-literal.js';

describe('array literals', () => {
  it('write ids, plain names, numbers and nulls as PostgreSQL reads them', () => {
    expect(arrayLiteral(['0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10', 'poll', null])).toBe(
      '{0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10,poll,NULL}',
    );
    expect(arrayLiteral([1795827723456, 0, -1.5, null])).toBe('{1795827723456,0,-1.5,NULL}');
    expect(arrayLiteral([])).toBe('{}');
  });

  it('refuse what would need quoting rather than shift the values after it', () => {
    for (const bad of ['a,b', 'a}', '"a"', 'a b', '', 'null', 'NULL', 'a\\b', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => arrayLiteral([bad]), String(bad)).toThrow(TypeError);
    }
  });
});
