import { mkdirSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '../../src/db/migrate.js';
import { wrapPglite } from '../../src/db/pglite.js';
import { PGLITE_TEMPLATE_DIR, PGLITE_TEMPLATE_FILE } from './pglite-template.js';

/**
 * initdb + migrations cost seconds in PGlite; do them once per run and let every test file load
 * the migrated data directory from a tarball instead.
 */
export default async function setup(): Promise<void> {
  const template = await PGlite.create();
  await migrate(wrapPglite(template));
  const dump = await template.dumpDataDir('none');
  await template.close();
  mkdirSync(PGLITE_TEMPLATE_DIR, { recursive: true });
  writeFileSync(PGLITE_TEMPLATE_FILE, Buffer.from(await dump.arrayBuffer()));
}
