// Counts what every integration key does, in memory, and writes it down in batches: one Map
// update per request on the hot path, a statement per table and 2,000 rows every few seconds
// (and at stop). The timer writes a minute's counters once that minute is over, so each counter
// is one row inserted, not a row inserted and then updated at each later flush of its minute: a
// POS polling every 30 s made two row writes of every minute (docs/benchmarks.md, "Figures of
// 2026-11-28, 10:00–12:30 UTC"); the figures are read by the hour. Presence goes out at every
// flush. Losing the last minute of counters when a process is killed is accepted: these are
// operating figures, not records (the audit log and the event log are).
import type { Db } from '../../db/db.js';
import { type Clock, epochMs } from '../../lib/clock.js';
import type { RouteGroup } from './route-groups.js';
import * as repo from './usage-repository.js';

const MINUTE = 60_000;
const MAX_BUCKETS = 200_000;
/**
 * Rows a statement writes at most. Building a statement's text is done at once on the event loop:
 * the 8,000 presence rows of a 5-second flush under the poll storm held it for 25–40 ms, and a
 * whole minute's counters (50,000 in that storm) would hold it several times longer. Requests
 * are answered between statements.
 */
const ROWS_PER_STATEMENT = 2_000;

/** A bucket being counted: its minute as epoch milliseconds. */
type Counter = Omit<repo.UsageBucket, 'minute' | 'group'> & { minute: number; group: RouteGroup };

interface Seen {
  merchantId: string;
  lastRequestAt: number;
  lastPollAt: number;
  lastAckAt: number;
}

/** What a batch writer of this module (this recorder, the request log) is given. */
export interface BatchWriterDeps {
  db: Db;
  clock: Clock;
  /** How often waiting rows are written. */
  flushEveryMs?: number;
  /** A batch the database refused. */
  onError?: (error: unknown) => void;
}

export function createUsageRecorder(deps: BatchWriterDeps) {
  const { db, clock } = deps;
  let counters = new Map<string, Counter>();
  let seen = new Map<string, Seen>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  // The counter each key and group is counting into, found without building its id: the id is
  // a number turned to text, joined and hashed, most of this function's cost on every request
  // (docs/benchmarks.md, "Figures of 2026-11-27, eighth session"). Emptied with `counters`; a
  // counter found here from an earlier minute is passed over.
  let latest = new Map<string, Map<RouteGroup, Counter>>();

  function counterOf(keyId: string, minute: number, group: RouteGroup): Counter {
    let byGroup = latest.get(keyId);
    const known = byGroup?.get(group);
    if (known !== undefined && known.minute === minute) return known;
    const id = `${keyId}|${minute}|${group}`;
    let c = counters.get(id);
    if (!c) {
      c = {
        keyId,
        minute,
        group,
        requests: 0,
        errors4xx: 0,
        throttled: 0,
        errors5xx: 0,
        latencyMsSum: 0,
        latencyMsMax: 0,
      };
      counters.set(id, c);
    }
    if (!byGroup) {
      byGroup = new Map();
      latest.set(keyId, byGroup);
    }
    byGroup.set(group, c);
    return c;
  }

  function record(
    principal: { keyId: string; merchantId: string },
    group: RouteGroup,
    status: number,
    latencyMs: number,
  ): void {
    const now = epochMs(clock);
    const c = counterOf(principal.keyId, now - (now % MINUTE), group);
    c.requests += 1;
    if (status === 429) c.throttled += 1;
    else if (status >= 400 && status < 500) c.errors4xx += 1;
    else if (status >= 500) c.errors5xx += 1;
    const ms = Math.round(latencyMs);
    c.latencyMsSum += ms;
    if (ms > c.latencyMsMax) c.latencyMsMax = ms;

    let s = seen.get(principal.keyId);
    if (!s) {
      s = { merchantId: principal.merchantId, lastRequestAt: 0, lastPollAt: 0, lastAckAt: 0 };
      seen.set(principal.keyId, s);
    }
    s.lastRequestAt = now;
    // Presence counts what worked: a poll or an acknowledgment refused is not a POS at work.
    if (status < 400) {
      if (group === 'poll') s.lastPollAt = now;
      else if (group === 'acknowledge') s.lastAckAt = now;
    }
  }

  /**
   * The counters to write now, taken out of those being counted: all of them, or only those of
   * minutes that are over (the current minute's stay, and go on counting).
   */
  function takeCounters(endedMinutesOnly: boolean): Map<string, Counter> {
    if (!endedMinutesOnly) {
      const all = counters;
      counters = new Map();
      latest = new Map();
      return all;
    }
    const now = epochMs(clock);
    const current = now - (now % MINUTE);
    const ended = new Map<string, Counter>();
    for (const [id, c] of counters) {
      if (c.minute >= current) continue;
      ended.set(id, c);
      counters.delete(id);
      // A clock set back could make this minute current again: it must not count into a counter
      // that has left.
      const byGroup = latest.get(c.keyId);
      if (byGroup?.get(c.group) === c) byGroup.delete(c.group);
      if (byGroup?.size === 0) latest.delete(c.keyId);
    }
    return ended;
  }

  /**
   * Writes what was counted since the last flush (the timer's flush: of the minutes that are
   * over); on failure it is kept for the next one.
   */
  async function flush(options: { endedMinutesOnly?: boolean } = {}): Promise<void> {
    if (flushing) return flushing;
    const batch = takeCounters(options.endedMinutesOnly === true);
    const presence = seen;
    if (batch.size === 0 && presence.size === 0) return;
    seen = new Map();
    const at = (ms: number) => (ms ? ms : null);
    flushing = (async () => {
      try {
        // Both statements or neither: a failure puts the whole batch back (below), so counters
        // written by a first statement that succeeded would be added a second time.
        await db.transaction(async (tx) => {
          const buckets = [...batch.values()];
          for (let i = 0; i < buckets.length; i += ROWS_PER_STATEMENT) {
            await repo.addUsage(tx, buckets.slice(i, i + ROWS_PER_STATEMENT));
          }
          const seenKeys = [...presence.entries()];
          for (let i = 0; i < seenKeys.length; i += ROWS_PER_STATEMENT) {
            await repo.advancePresence(
              tx,
              seenKeys.slice(i, i + ROWS_PER_STATEMENT).map(([keyId, s]) => ({
                keyId,
                merchantId: s.merchantId,
                lastRequestAt: at(s.lastRequestAt),
                lastPollAt: at(s.lastPollAt),
                lastAckAt: at(s.lastAckAt),
              })),
            );
          }
        });
      } catch (error) {
        // Database away: keep the figures and merge them into the next flush.
        for (const [id, c] of batch) {
          const later = counters.get(id);
          if (!later) counters.set(id, c);
          else {
            later.requests += c.requests;
            later.errors4xx += c.errors4xx;
            later.throttled += c.throttled;
            later.errors5xx += c.errors5xx;
            later.latencyMsSum += c.latencyMsSum;
            later.latencyMsMax = Math.max(later.latencyMsMax, c.latencyMsMax);
          }
        }
        for (const [keyId, s] of presence) {
          const later = seen.get(keyId);
          if (!later) seen.set(keyId, s);
          else {
            later.lastRequestAt = Math.max(later.lastRequestAt, s.lastRequestAt);
            later.lastPollAt = Math.max(later.lastPollAt, s.lastPollAt);
            later.lastAckAt = Math.max(later.lastAckAt, s.lastAckAt);
          }
        }
        // A long outage must not grow memory without end: past this, the oldest figures go.
        if (counters.size > MAX_BUCKETS) {
          const keep = [...counters.entries()].sort((a, b) => b[1].minute - a[1].minute).slice(0, MAX_BUCKETS / 2);
          counters = new Map(keep);
          latest = new Map();
        }
        deps.onError?.(error);
      } finally {
        flushing = undefined;
      }
    })();
    return flushing;
  }

  return {
    record,
    flush,
    start(): void {
      timer ??= setInterval(() => void flush({ endedMinutesOnly: true }), deps.flushEveryMs ?? 5_000);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
