// The index from each rule (a decision D1…, a section of the spec) to the tests that cite it, in
// their names or comments. test/README.md carries it between two markers; the test beside this
// file fails when the tree and the README disagree, and prints the block to paste (or run
// `node --import tsx test/docs/write-rule-index.ts`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesToCheck, findCitations } from './citations.js';

export const BEGIN = '<!-- rule-index:begin -->';
export const END = '<!-- rule-index:end -->';
const TEST_FOLDERS = ['test', 'src', 'packages', 'examples'];

/** Rule → test files citing it (decisions by number, spec sections to two levels). */
export function ruleIndex(root: string): Map<string, string[]> {
  const index = new Map<string, Set<string>>();
  const add = (rule: string, file: string) => {
    if (!index.has(rule)) index.set(rule, new Set());
    index.get(rule)?.add(file);
  };
  // The docs tests name every rule by design: they are not evidence of one.
  const files = filesToCheck(root, TEST_FOLDERS).filter((f) => /\.test\.ts$/.test(f) && !f.startsWith('test/docs/'));
  for (const file of files) {
    // Test names are strings: read the whole text, not only comments.
    for (const c of findCitations(readFileSync(join(root, file), 'utf8'))) {
      if (c.kind === 'decision') add(`D${c.id}`, file);
      if (c.kind === 'spec') add(`spec ${c.section.split('.').slice(0, 2).join('.')}`, file);
    }
  }
  const order = (rule: string) =>
    rule.startsWith('D') ? [0, Number(rule.slice(1))] : [1, ...rule.slice(5).split('.').map(Number)];
  const cmp = (a: string, b: string) => {
    const x = order(a);
    const y = order(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++)
      if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  return new Map([...index.entries()].sort(([a], [b]) => cmp(a, b)).map(([rule, set]) => [rule, [...set].sort()]));
}

export function renderIndex(index: Map<string, string[]>): string {
  const rows = [...index.entries()].map(([rule, files]) => {
    const anchor = rule.startsWith('D')
      ? `../docs/design/decisions.md#${rule.toLowerCase()}`
      : `../docs/design/spec.md#spec-${rule.slice(5).replace(/\./g, '-')}`;
    return `| [${rule}](${anchor}) | ${files.map((f) => `\`${f}\``).join('<br>')} |`;
  });
  return [BEGIN, '| rule | tests that cite it |', '| --- | --- |', ...rows, END].join('\n');
}

/** The README with its index block replaced by `block`. */
export function withIndex(readme: string, block: string): string {
  if (!readme.includes(BEGIN)) return `${readme.trimEnd()}\n\n## Index: from a rule to its tests\n\n${block}\n`;
  return readme.slice(0, readme.indexOf(BEGIN)) + block + readme.slice(readme.indexOf(END) + END.length);
}
