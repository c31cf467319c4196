// test/README.md's index from each rule to its tests stays true (rule-index.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEGIN, END, renderIndex, ruleIndex } from './rule-index.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Table cells without the padding a formatter adds. */
const normalise = (block: string) =>
  block
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => cell.trim().replace(/^-+$/, '---'))
            .join('|')
        : line,
    )
    .join('\n');

describe('rule → test index', () => {
  it('test/README.md lists, for every cited rule, the tests that cite it', () => {
    const readme = readFileSync(join(ROOT, 'test/README.md'), 'utf8');
    const block = readme.includes(BEGIN) ? readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length) : '';
    // On failure: node --import tsx test/docs/write-rule-index.ts
    expect(normalise(block)).toBe(normalise(renderIndex(ruleIndex(ROOT))));
  });

  it('covers every decision that has a test, and the spec sections of the POS endpoints', () => {
    const index = ruleIndex(ROOT);
    for (const rule of ['D1', 'D3', 'D4', 'D7', 'D10', 'D11', 'D12', 'D16', 'D23', 'D31', 'spec 4.13', 'spec 5.2']) {
      expect(index.get(rule)?.length ?? 0, rule).toBeGreaterThan(0);
    }
  });
});
