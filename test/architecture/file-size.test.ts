// docs/design/architecture.md: small modules with names that explain them. A source file in
// src/modules longer than LIMIT lines must say at its top why it is one file ("Size: …" in its
// leading comment), so growth is a decision rather than an accident.
import { describe, expect, it } from 'vitest';
import { readTree, type SourceFile } from './boundaries.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const LIMIT = 350;

/** The comment lines before the first statement of a file. */
function leadingComment(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('//') || t.startsWith('/*') || t.startsWith('*')) lines.push(t);
    else break;
  }
  return lines.join('\n');
}

function unexplainedLongFiles(files: SourceFile[], limit = LIMIT): string[] {
  return files
    .filter((f) => f.text.split('\n').length > limit && !/\bSize:/.test(leadingComment(f.text)))
    .map((f) => `${f.path}: ${f.text.split('\n').length} lines and no "Size:" note at its top`);
}

describe('file size', () => {
  it(`every file in src/modules over ${LIMIT} lines explains its size at its top`, () => {
    expect(unexplainedLongFiles(readTree(ROOT, 'src/modules'))).toEqual([]);
  });

  it('reports a long file without a note and accepts one with it', () => {
    const long = 'x;\n'.repeat(LIMIT + 1);
    expect(unexplainedLongFiles([{ path: 'a.ts', text: long }])).toHaveLength(1);
    expect(unexplainedLongFiles([{ path: 'b.ts', text: `// Size: one table of rules.\n${long}` }])).toEqual([]);
    expect(unexplainedLongFiles([{ path: 'c.ts', text: 'x;\n'.repeat(10) }])).toEqual([]);
  });
});
