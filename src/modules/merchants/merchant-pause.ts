// D43: the store's timed pause. `POST /v1/merchant/pause {reason, until}` (and the operator's
// twin) switches order receiving off until `until`; `DELETE` or the pause sweep switches it back
// on. Each switch is written in the merchant's history and is a `merchant STATUS_CHANGED` feed
// item carrying the pause.
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { FeedRecorder } from '../feed/index.js';
import type { MerchantRow } from './merchants-repository.js';
import * as repo from './merchants-repository.js';

const SWEEP_BATCH = 100;
const REASON_MAX = 200;

export interface StorePause {
  reason: string;
  until: string;
}

/** The pause a merchant's views show: only while it holds (a pause past its end is over). */
export function pauseOf(row: Pick<MerchantRow, 'pause_reason' | 'paused_until' | 'status'>, now: Date) {
  if (row.paused_until === null || row.paused_until <= now || row.status !== 'UNAVAILABLE') return null;
  return { reason: row.pause_reason ?? '', until: row.paused_until.toISOString() };
}

export function createMerchantPause(deps: { db: Db; clock: Clock; feed: FeedRecorder }) {
  const { db, clock, feed } = deps;

  async function recordSwitch(
    tx: Queryable,
    merchantId: string,
    change: { from: string; to: string; by: 'pos' | 'operator' | 'pause'; pause: StorePause | null },
    at: Date,
  ) {
    await repo.insertHistory(tx, {
      merchantId,
      at,
      kind: 'status',
      detail: { from: change.from, to: change.to, by: change.by, ...(change.pause ? { pause: change.pause } : {}) },
    });
    await feed(tx, {
      kind: 'merchant',
      type: 'STATUS_CHANGED',
      merchantId,
      occurredAt: at,
      data: { status: change.to, by: change.by, pause: change.pause },
    });
  }

  return {
    /** The pause a view of this merchant shows now (null when none holds). */
    currentPause: (row: Pick<MerchantRow, 'pause_reason' | 'paused_until' | 'status'>) => pauseOf(row, clock.now()),

    /** Pauses the store until `until` (an ISO time in the future), with a reason (400 naming the field). */
    async pause(merchantId: string, input: { reason: string; until: string }, by: 'pos' | 'operator') {
      const reason = input.reason.trim();
      if (!reason) throw badRequest('reason must not be empty');
      if (reason.length > REASON_MAX) throw badRequest(`reason must be at most ${REASON_MAX} characters`);
      const until = new Date(input.until);
      const at = clock.now();
      if (Number.isNaN(until.getTime())) throw badRequest('until must be an ISO date-time');
      if (until <= at) throw badRequest('until must be in the future');
      const row = await db.transaction(async (tx) => {
        const updated = await repo.pauseMerchant(tx, merchantId, { reason, until }, at);
        if (updated) {
          const pause = { reason, until: until.toISOString() };
          await recordSwitch(tx, merchantId, { from: updated.previous_status, to: 'UNAVAILABLE', by, pause }, at);
        }
        return updated;
      });
      if (!row) throw notFound('Merchant not found');
      return row;
    },

    /** Ends the store's pause now (AVAILABLE again); a store that is not paused is left as it is. */
    async resume(merchantId: string, by: 'pos' | 'operator'): Promise<MerchantRow | undefined> {
      const at = clock.now();
      return db.transaction(async (tx) => {
        const ended = await repo.endPause(tx, merchantId, at);
        if (ended) {
          await recordSwitch(tx, merchantId, { from: ended.previous_status, to: 'AVAILABLE', by, pause: null }, at);
        }
        return ended;
      });
    },

    /** The pause sweep: every store whose pause has come to its end opens again by itself. */
    async endDuePauses(): Promise<number> {
      const now = clock.now();
      let ended = 0;
      for (const merchantId of await repo.duePauses(db, now, SWEEP_BATCH)) {
        const done = await db.transaction(async (tx) => {
          const row = await repo.endPause(tx, merchantId, now, now);
          if (row) {
            await recordSwitch(
              tx,
              merchantId,
              { from: row.previous_status, to: 'AVAILABLE', by: 'pause', pause: null },
              now,
            );
          }
          return row !== undefined;
        });
        if (done) ended++;
      }
      return ended;
    },
  };
}
