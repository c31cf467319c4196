// `npm run build`: the POS client package (the CLI uses it), then the service with tsc into dist/,
// with what the service reads from disk beside its code (migrations, console assets), and a
// stamp of the sources it was built from (scripts/start.mjs rebuilds when they changed).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceStamp } from './source-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const started = Date.now();

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: join(root, 'packages/pos-client'), stdio: 'inherit' });
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
for (const dir of ['db/migrations', 'console/assets']) {
  mkdirSync(join(root, 'dist', dir), { recursive: true });
  cpSync(join(root, 'src', dir), join(root, 'dist', dir), { recursive: true });
}
writeFileSync(join(root, 'dist', '.source-stamp'), sourceStamp(root));
process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
