// What dist/ was built from: a hash of every source file's path, size and modification time.
// Cheap (no file is read) and enough to tell that something changed since the build.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// docs/events.md and docs/guides/ are served by the service (/docs/…) and copied into dist/.
const ROOTS = [
  'src',
  'packages/pos-client/src',
  'docs/events.md',
  'docs/guides',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
];

export function sourceStamp(root) {
  const hash = createHash('sha256');
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else {
      hash.update(`${relative(root, path)}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  for (const r of ROOTS) visit(join(root, r));
  return hash.digest('hex');
}
