// Rewrites the rule → tests index of test/README.md (see rule-index.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderIndex, ruleIndex, withIndex } from './rule-index.js';

const root = new URL('../..', import.meta.url).pathname;
const path = join(root, 'test/README.md');
writeFileSync(path, withIndex(readFileSync(path, 'utf8'), renderIndex(ruleIndex(root))));
process.stdout.write(`wrote ${path}\n`);
