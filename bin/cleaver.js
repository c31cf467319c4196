#!/usr/bin/env node
// Runs the built service (dist/cli.js, `npm run build`), as `npm start` does: a command starts
// in a fraction of the time it took to transpile the sources on every call. When dist/ is
// missing or older than the sources (a stamp of them, scripts/source-stamp.mjs), it is built
// first, once, saying so on stderr so that a command's own output stays clean.
// `npm run dev` still runs the TypeScript sources directly, for development.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sourceStamp } from '../scripts/source-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = new URL('../dist/.source-stamp', import.meta.url);
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
if (built !== sourceStamp(root)) {
  process.stderr.write(built ? 'cleaver: sources changed since the last build: building…\n' : 'cleaver: building…\n');
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url))], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
await import('../dist/cli.js');
