// `npm run build`: the POS client package (the CLI uses it), then the service bundled by esbuild
// into dist/ (our modules in a few files, every package from node_modules left as an import),
// with what the service reads from disk beside its code (migrations, console assets), and a
// stamp of the sources it was built from (scripts/start.mjs rebuilds when they changed).
// Why a bundle and not tsc's one file per module: docs/adr/0005-production-build.md. Types are
// checked by `npm run typecheck` (tsc), not here.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sourceStamp } from './source-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: join(root, 'packages/pos-client'), stdio: 'inherit' });
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // The embedded database's thread is an entry of its own: src/db/pglite-thread.ts starts it
  // from dist/pglite-worker.js, beside the chunks.
  entryPoints: { cli: 'src/cli.ts', 'pglite-worker': 'src/db/pglite-worker.ts' },
  outdir: dist,
  bundle: true,
  // Modules loaded with import() (the server, PGlite's adapter…) stay separate chunks, loaded
  // only by the processes that use them.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Packages keep their own files: native addons, WebAssembly and their lazy requires work as
  // installed, and @cleaver/pos-client is the workspace package's build (tsconfig.build.json).
  packages: 'external',
  tsconfig: 'tsconfig.build.json',
  // Not minified: stack traces and heap snapshots keep our names; the maps name the .ts lines.
  sourcemap: 'linked',
  logLevel: 'warning',
});
// Every chunk sits at the top of dist/, so the code finds these beside itself
// (src/db/migrate.ts: ./migrations; src/console/console-app.ts: ./assets;
// src/plugins/openapi-docs/guides.ts: ./docs/events.md, ./docs/guides).
for (const [from, to] of [
  ['src/db/migrations', 'migrations'],
  ['src/console/assets', 'assets'],
]) {
  mkdirSync(join(dist, to), { recursive: true });
  cpSync(join(root, from), join(dist, to), { recursive: true });
}
mkdirSync(join(dist, 'docs'), { recursive: true });
cpSync(join(root, 'docs/events.md'), join(dist, 'docs/events.md'));
cpSync(join(root, 'docs/guides'), join(dist, 'docs/guides'), { recursive: true });
writeFileSync(join(dist, '.source-stamp'), sourceStamp(root));
process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
