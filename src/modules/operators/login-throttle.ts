// Lockout with backoff after repeated failed logins, per account and per client address: after
// `maxFailures` failures in a row the key is locked for `lockoutSec`, doubling with each further
// failure up to `maxLockoutSec`. Counts restart after a day without failures, and an account's
// count after a successful login (an address's does not: one good account must not let an
// address keep guessing others). Stored in the database, so every instance sees the same locks.
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import * as repo from './operators-repository.js';

export interface ThrottleLimits {
  accountMaxFailures: number;
  ipMaxFailures: number;
  lockoutSec: number;
  maxLockoutSec: number;
}

const QUIET_RESET_MS = 86_400_000;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/** Seconds of lock after `failures` failures of a key whose limit is `max` (0: not locked). */
export function lockSeconds(failures: number, max: number, limits: ThrottleLimits): number {
  if (failures < max) return 0;
  const doubled = limits.lockoutSec * 2 ** Math.min(failures - max, 30);
  return Math.min(doubled, limits.maxLockoutSec);
}

export function createLoginThrottle(deps: { db: Db; clock: Clock; limits: ThrottleLimits }) {
  const { db, clock, limits } = deps;
  const maxFor = (key: string) => (key.startsWith('ip:') ? limits.ipMaxFailures : limits.accountMaxFailures);

  return {
    /** Seconds until the first of these keys is free again; 0 when none is locked. */
    async lockedFor(keys: string[]): Promise<number> {
      const now = clock.now().getTime();
      let wait = 0;
      for (const row of await repo.readThrottles(db, keys)) {
        if (row.locked_until && row.locked_until.getTime() > now) {
          wait = Math.max(wait, Math.ceil((row.locked_until.getTime() - now) / 1000));
        }
      }
      return wait;
    },

    async recordFailure(keys: string[]): Promise<void> {
      const at = clock.now();
      const quietSince = new Date(at.getTime() - QUIET_RESET_MS);
      await repo.deleteStaleThrottles(db, quietSince, at);
      const counts = await repo.recordFailures(db, keys, at, quietSince);
      const locks = counts
        .map((c) => ({ key: c.key, sec: lockSeconds(c.failures, maxFor(c.key), limits) }))
        .filter((l) => l.sec > 0)
        .map((l) => ({ key: l.key, until: new Date(at.getTime() + l.sec * 1000) }));
      await repo.lockThrottles(db, locks);
    },

    recordSuccess: (email: string) => repo.clearThrottle(db, accountKey(email)),
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
