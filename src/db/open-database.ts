import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/**
 * PGlite is a single session: two processes on one data directory would corrupt it silently.
 * An exclusive lock file (created with O_EXCL) makes the second start refuse. A lock left by a
 * process that no longer exists is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'cleaver.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && (holder === process.pid || isAlive(holder))) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is in use by process ${holder}. ` +
            'Only one process may open it; stop that process, use another CLEAVER_DATA_DIR, ' +
            'or set DATABASE_URL to share a PostgreSQL database between processes.',
        );
      }
      unlinkSync(path); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OpenedDatabase {
  db: Db;
  description: string;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  onError?: (error: Error) => void,
): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    const db = openPostgres({ connectionString: config.databaseUrl, onError });
    const url = new URL(config.databaseUrl);
    return { db, description: `PostgreSQL at ${url.host}${url.pathname}`, close: () => db.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openPglite(join(config.dataDir, 'pgdata'));
    return {
      db,
      description: `embedded PostgreSQL (PGlite) in ${config.dataDir}`,
      async close() {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
