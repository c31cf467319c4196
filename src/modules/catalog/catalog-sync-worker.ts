// D16: the processing worker. Woken at once by NOTIFY (both databases deliver it on commit), plus
// a slow sweep for expired leases of crashed workers; no busy polling. Tests drive it with
// runOnce()/drain() and a manual clock instead of sleeping (STYLE.md).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { type ClaimedSync, claimNextSync, SYNC_CHANNEL } from './catalog-sync-repository.js';

export interface CatalogSyncWorkerDeps {
  db: Db;
  clock: Clock;
  /** Applies one claimed upload and finishes it (SUCCESS/FAIL) under the lease. */
  process(sync: ClaimedSync): Promise<void>;
  /** Finishes an upload that failed too often to keep retrying. */
  giveUp(sync: ClaimedSync): Promise<void>;
  leaseMs?: number;
  sweepMs?: number;
  maxAttempts?: number;
  onError?(error: unknown, sync: ClaimedSync): void;
}

export function createCatalogSyncWorker(deps: CatalogSyncWorkerDeps) {
  const { db, clock } = deps;
  const owner = randomUUID();
  const leaseMs = deps.leaseMs ?? 120_000;
  const sweepMs = deps.sweepMs ?? 30_000;
  const maxAttempts = deps.maxAttempts ?? 5;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  /** Claims and processes one upload; false when none is runnable now. */
  async function runOnce(): Promise<boolean> {
    const sync = await claimNextSync(db, owner, clock.now(), leaseMs);
    if (!sync) return false;
    try {
      if (sync.attempts > maxAttempts) await deps.giveUp(sync);
      else await deps.process(sync);
    } catch (error) {
      // The transaction rolled back: nothing of this upload is applied. The lease stays, so the
      // upload runs again from the start once it expires (D16).
      deps.onError?.(error, sync);
    }
    return true;
  }

  /** Runs until nothing is runnable; returns how many uploads were claimed. */
  async function drain(): Promise<number> {
    let n = 0;
    while (!stopped && (await runOnce())) n += 1;
    return n;
  }

  /** Runs the worker in the background; a no-op unless start() was called (tests drive drain()). */
  function wake(): void {
    if (!started || stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch {
          // database unreachable: the next notification or sweep tries again
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  }

  return {
    runOnce,
    drain,
    wake,
    async start() {
      stopped = false;
      started = true;
      unlisten = await db.listen(SYNC_CHANNEL, wake, wake);
      timer = setInterval(wake, sweepMs);
      timer.unref();
      wake();
    },
    async stop() {
      stopped = true;
      started = false;
      if (timer) clearInterval(timer);
      await unlisten?.();
      await running;
    },
  };
}

export type CatalogSyncWorker = ReturnType<typeof createCatalogSyncWorker>;
