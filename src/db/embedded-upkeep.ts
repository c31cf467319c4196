// What autovacuum does for PostgreSQL, for the embedded database. PGlite runs PostgreSQL as a
// single session with no background processes: no autovacuum, so nothing ever refreshes the
// planner's statistics or reclaims the space of deleted and updated rows (and its per-table
// activity counters are not kept, so there is no threshold to watch either). Left alone, an
// embedded service plans with the row counts of its first minutes for the rest of its life (a
// webhook backlog made each claim read the whole backlog; docs/adr/0007-embedded-database-upkeep.md), and
// the rows retention deletes never free their pages.
//
// One table at a time, `VACUUM (ANALYZE)`, with a pause between tables: the single session is
// shared with the requests, so the pass is cut into short statements they can slip between.
import type { Db } from './db.js';

export interface UpkeepOptions {
  /** Time between the end of one pass over every table and the start of the next. */
  everyMs?: number;
  /** The first pass, after the start (migrations and first requests come first). */
  firstAfterMs?: number;
  /** Pause between two tables of a pass. */
  pauseMs?: number;
  onError?: (error: unknown) => void;
}

const MINUTE = 60_000;

/** The tables of our schema (migrations create every one in `public`). */
export async function listTables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** One pass: every table vacuumed and analyzed, one statement each. Returns the tables done. */
export async function upkeepPass(db: Db, pause: () => Promise<void> = async () => {}): Promise<string[]> {
  const done: string[] = [];
  for (const table of await listTables(db)) {
    // Names come from the catalog, quoted as identifiers all the same.
    await db.exec(`VACUUM (ANALYZE) "${table.replaceAll('"', '""')}"`);
    done.push(table);
    await pause();
  }
  return done;
}

/** Starts the periodic upkeep of an embedded database; a no-op on PostgreSQL (autovacuum). */
export function startEmbeddedUpkeep(db: Db, options: UpkeepOptions = {}): { stop(): Promise<void> } {
  if (db.kind !== 'pglite') return { stop: async () => {} };
  const everyMs = options.everyMs ?? 10 * MINUTE;
  const pauseMs = options.pauseMs ?? 50;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const pause = () =>
    new Promise<void>((resolve, reject) => {
      if (stopped) reject(new Error('stopped'));
      else setTimeout(resolve, pauseMs).unref();
    });
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = upkeepPass(db, pause)
        .catch((error: unknown) => {
          if (!stopped) options.onError?.(error);
        })
        .finally(() => schedule(everyMs));
    }, ms);
    timer.unref();
  };
  schedule(options.firstAfterMs ?? MINUTE);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
