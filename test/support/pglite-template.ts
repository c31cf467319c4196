import { join } from 'node:path';

export const PGLITE_TEMPLATE_DIR = join(process.cwd(), 'node_modules', '.cache', 'cleaver');
export const PGLITE_TEMPLATE_FILE = join(PGLITE_TEMPLATE_DIR, 'pglite-template.tar');
