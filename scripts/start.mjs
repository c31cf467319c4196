// `npm start` on a fresh clone or after a change: builds dist/ first when it is missing or older
// than the sources (a stamp, not a guess), then runs the compiled service with source maps, so
// stack traces still name the TypeScript lines, in the environment of scripts/service-env.mjs.
// Arguments pass through (`npm start -- --role api`).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceEnv } from './service-env.mjs';
import { sourceStamp } from './source-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'dist', '.source-stamp');
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
if (built !== sourceStamp(root)) {
  process.stdout.write(built ? 'sources changed since the last build: building…\n' : 'no build yet: building…\n');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}
const child = spawn(
  process.execPath,
  ['--enable-source-maps', join(root, 'dist/cli.js'), 'serve', ...process.argv.slice(2)],
  { stdio: 'inherit', env: serviceEnv() },
);
// The service handles SIGTERM/SIGINT itself (drain, D31); pass them on and mirror its exit.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
