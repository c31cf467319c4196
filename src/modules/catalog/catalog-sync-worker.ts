// D16: the catalog sync queue as a leased-row queue (src/jobs/leased-worker.ts). One upload at a
// time per process; a long apply keeps its lease alive with a heartbeat, so the lease can be
// short and a crashed worker's upload is taken over within seconds (the wake-up timer fires
// when the earliest lease runs out). Tests drive it with runOnce()/drain() and a manual clock.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.js';
import { createLeasedWorker, type LeasedQueue } from '../../jobs/leased-worker.js';
import { throttledReport } from '../../jobs/throttled-report.js';
import type { Clock } from '../../lib/clock.js';
import {
  type ClaimedSync,
  claimNextSync,
  extendSyncLeases,
  nextLeaseExpiry,
  SYNC_CHANNEL,
} from './catalog-sync-repository.js';

/** Default lease: a crashed worker's upload runs again within this (plus the wake-up). */
export const DEFAULT_CATALOG_LEASE_MS = 8_000;

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
  onError?(error: unknown): void;
}

export function createCatalogSyncWorker(deps: CatalogSyncWorkerDeps) {
  const { db, clock } = deps;
  const owner = randomUUID();
  const leaseMs = deps.leaseMs ?? DEFAULT_CATALOG_LEASE_MS;
  const maxAttempts = deps.maxAttempts ?? 5;

  const queue: LeasedQueue<ClaimedSync> = {
    name: 'catalog-syncs',
    channel: SYNC_CHANNEL,
    async claim() {
      const sync = await claimNextSync(db, owner, clock.now(), leaseMs);
      return sync ? [sync] : [];
    },
    // A throw rolled the apply transaction back: nothing of the upload is applied. The lease
    // stays, so the upload runs again from the start once it expires (D16).
    handle: (sync) => (sync.attempts > maxAttempts ? deps.giveUp(sync) : deps.process(sync)),
    heartbeat: (syncs) =>
      extendSyncLeases(
        db,
        syncs.map((s) => s.id),
        owner,
        clock.now(),
        leaseMs,
      ),
    nextWakeAt: () => nextLeaseExpiry(db, clock.now()),
  };
  const worker = createLeasedWorker(queue, {
    db,
    now: () => clock.now(),
    concurrency: 1,
    heartbeatMs: Math.max(250, Math.floor(leaseMs / 4)),
    safetyPollMs: deps.sweepMs ?? 30_000,
    onError: deps.onError ?? throttledReport('catalog sync'),
  });

  return {
    ...worker,
    leaseMs,
    /** Claims and processes one upload; false when none is runnable now. */
    runOnce: async (): Promise<boolean> => (await worker.runOnce(1)) > 0,
  };
}

export type CatalogSyncWorker = ReturnType<typeof createCatalogSyncWorker>;
