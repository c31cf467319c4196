// The built service (`npm run build`: dist/cli.js), which the tests that start real processes run,
// as `npm start` and the `cleaver` binary do: one build per test run (the global setup below),
// instead of transpiling the sources in every process they start.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceStamp } from '../../scripts/source-stamp.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUILT_CLI = join(ROOT, 'dist', 'cli.js');
const STAMP = join(ROOT, 'dist', '.source-stamp');
const LOCK = join(ROOT, 'node_modules', '.cache', 'cleaver-build.lock');

const current = () => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === sourceStamp(ROOT);

/**
 * Builds dist/ unless it is current. Both test projects' global setups call this: the first one
 * builds under a lock directory, the other waits for it and finds the build current.
 */
export default async function buildOnce(): Promise<void> {
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than the longest build is one a killed run left behind.
      if (waited > 180_000) rmdirSync(LOCK);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (!current()) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmdirSync(LOCK);
  }
}
