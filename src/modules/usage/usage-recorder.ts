// Counts what every integration key does, in memory, and writes it down in batches: a few field
// updates per request on the hot path, a statement per table and 2,000 rows every few seconds
// (and at stop). The timer writes a minute's counters once that minute is over, so each counter
// is one row inserted, not a row inserted and then updated at each later flush of its minute: a
// POS polling every 30 s made two row writes of every minute (docs/benchmarks.md, "Figures of
// 2026-11-28, 10:00–12:30 UTC"); the figures are read by the hour. Presence goes out at every
// flush. Losing the last minute of counters when a process is killed is accepted: these are
// operating figures, not records (the audit log and the event log are).
//
// Each key's figures live in one record kept for as long as the key is in use here, and a
// request only changes its fields: a record made per request or per minute lived for seconds to a
// minute, long enough for the collector to copy it out of the young generation and later sweep it
// from the old one, at every poll of the storm (docs/benchmarks.md, "Figures of 2026-12-06").
import type { Db } from '../../db/db.js';
import { type Clock, epochMs } from '../../lib/clock.js';
import type { RouteGroup } from './route-groups.js';
import * as repo from './usage-repository.js';

const MINUTE = 60_000;
/** Counts waiting to be written (the database away) kept at most; past it the oldest go. */
const MAX_BUCKETS = 200_000;
/**
 * Rows a statement writes at most. Building a statement's text is done at once on the event loop:
 * the 8,000 presence rows of a 5-second flush under the poll storm held it for 25–40 ms, and a
 * whole minute's counters (50,000 in that storm) would hold it several times longer. Requests
 * are answered between statements.
 */
const ROWS_PER_STATEMENT = 2_000;
/** A key with nothing left to write and no request for this long is forgotten here (memory). */
const FORGET_IDLE_MS = 10 * MINUTE;

/** One key and group's counts of one minute (`minute`, epoch milliseconds), reused minute after minute. */
interface Counter extends repo.UsageBucket {
  group: RouteGroup;
  /** On the list of counters holding counts not yet taken. */
  due: boolean;
}

/** One key's figures in this process. */
interface KeyUsage {
  readonly keyId: string;
  readonly merchantId: string;
  lastRequestAt: number;
  lastPollAt: number;
  lastAckAt: number;
  /** On the list of keys whose presence changed since it was last taken. */
  presenceDue: boolean;
  readonly counters: Map<RouteGroup, Counter>;
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

const bucketId = (b: repo.UsageBucket) => `${b.keyId}|${b.minute}|${b.group}`;

/** Adds `b` into the bucket of the same key, minute and group in `into`, or puts it there. */
function mergeInto(into: Map<string, repo.UsageBucket>, b: repo.UsageBucket): void {
  const id = bucketId(b);
  const same = into.get(id);
  if (!same) {
    into.set(id, b);
    return;
  }
  same.requests += b.requests;
  same.errors4xx += b.errors4xx;
  same.throttled += b.throttled;
  same.errors5xx += b.errors5xx;
  same.latencyMsSum += b.latencyMsSum;
  same.latencyMsMax = Math.max(same.latencyMsMax, b.latencyMsMax);
}

/** The counter's counts as a row of their own; the counter is left empty. */
function takeCounts(c: Counter): repo.UsageBucket {
  const row: repo.UsageBucket = {
    keyId: c.keyId,
    minute: c.minute,
    group: c.group,
    requests: c.requests,
    errors4xx: c.errors4xx,
    throttled: c.throttled,
    errors5xx: c.errors5xx,
    latencyMsSum: c.latencyMsSum,
    latencyMsMax: c.latencyMsMax,
  };
  c.requests = 0;
  c.errors4xx = 0;
  c.throttled = 0;
  c.errors5xx = 0;
  c.latencyMsSum = 0;
  c.latencyMsMax = 0;
  return row;
}

export function createUsageRecorder(deps: BatchWriterDeps) {
  const { db, clock } = deps;
  const keys = new Map<string, KeyUsage>();
  /** Counters holding counts not yet taken, and keys whose presence changed: what a flush looks at. */
  let countersDue: Counter[] = [];
  let presenceDue: KeyUsage[] = [];
  /**
   * Counts taken out of their counter and not written yet: a counter's earlier minute when a
   * request of a new one came before the timer took it, and batches the database refused.
   */
  let waiting = new Map<string, repo.UsageBucket>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let sweptAt = 0;

  function usageOf(keyId: string, merchantId: string): KeyUsage {
    let k = keys.get(keyId);
    if (!k) {
      k = { keyId, merchantId, lastRequestAt: 0, lastPollAt: 0, lastAckAt: 0, presenceDue: false, counters: new Map() };
      keys.set(keyId, k);
    }
    return k;
  }

  function counterOf(k: KeyUsage, minute: number, group: RouteGroup): Counter {
    let c = k.counters.get(group);
    if (!c) {
      c = {
        keyId: k.keyId,
        minute,
        group,
        requests: 0,
        errors4xx: 0,
        throttled: 0,
        errors5xx: 0,
        latencyMsSum: 0,
        latencyMsMax: 0,
        due: false,
      };
      k.counters.set(group, c);
    } else if (c.minute !== minute) {
      // Its minute is over (or the clock was set back) and the timer has not taken it yet.
      if (c.requests > 0) mergeInto(waiting, takeCounts(c));
      c.minute = minute;
    }
    if (!c.due) {
      c.due = true;
      countersDue.push(c);
    }
    return c;
  }

  function record(
    principal: { keyId: string; merchantId: string },
    group: RouteGroup,
    status: number,
    latencyMs: number,
  ): void {
    const now = epochMs(clock);
    const k = usageOf(principal.keyId, principal.merchantId);
    const c = counterOf(k, now - (now % MINUTE), group);
    c.requests += 1;
    if (status === 429) c.throttled += 1;
    else if (status >= 400 && status < 500) c.errors4xx += 1;
    else if (status >= 500) c.errors5xx += 1;
    const ms = Math.round(latencyMs);
    c.latencyMsSum += ms;
    if (ms > c.latencyMsMax) c.latencyMsMax = ms;

    k.lastRequestAt = now;
    // Presence counts what worked: a poll or an acknowledgment refused is not a POS at work.
    if (status < 400) {
      if (group === 'poll') k.lastPollAt = now;
      else if (group === 'acknowledge') k.lastAckAt = now;
    }
    if (!k.presenceDue) {
      k.presenceDue = true;
      presenceDue.push(k);
    }
  }

  /**
   * The counts to write now, taken out of the counters: all of them, or only those of minutes
   * that are over (the current minute's stay, and go on counting).
   */
  function takeCounters(endedMinutesOnly: boolean): Map<string, repo.UsageBucket> {
    const now = epochMs(clock);
    const current = now - (now % MINUTE);
    const batch = waiting;
    waiting = new Map();
    const stillCounting: Counter[] = [];
    for (const c of countersDue) {
      if (endedMinutesOnly && c.minute >= current) {
        stillCounting.push(c);
        continue;
      }
      c.due = false;
      if (c.requests > 0) mergeInto(batch, takeCounts(c));
    }
    countersDue = stillCounting;
    return batch;
  }

  /**
   * Forgets keys idle for FORGET_IDLE_MS, at most once a minute. A counter still due stays on
   * `countersDue` and is written all the same; a key whose presence is due is kept, so that a
   * record made anew when it comes back cannot put its presence row twice in one statement.
   */
  function sweep(): void {
    const now = epochMs(clock);
    if (now - sweptAt < MINUTE) return;
    sweptAt = now;
    for (const [keyId, k] of keys) {
      if (!k.presenceDue && now - k.lastRequestAt >= FORGET_IDLE_MS) keys.delete(keyId);
    }
  }

  /**
   * Writes what was counted since the last flush (the timer's flush: of the minutes that are
   * over); on failure it is kept for the next one.
   */
  async function flush(options: { endedMinutesOnly?: boolean } = {}): Promise<void> {
    if (flushing) return flushing;
    sweep();
    const batch = takeCounters(options.endedMinutesOnly === true);
    const presence = presenceDue;
    if (batch.size === 0 && presence.length === 0) return;
    presenceDue = [];
    for (const k of presence) k.presenceDue = false;
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
          for (let i = 0; i < presence.length; i += ROWS_PER_STATEMENT) {
            // The latest times, also those of requests made since the flush began: presence
            // only moves forward (GREATEST), and the key is due again for the next flush anyway.
            await repo.advancePresence(
              tx,
              presence.slice(i, i + ROWS_PER_STATEMENT).map((k) => ({
                keyId: k.keyId,
                merchantId: k.merchantId,
                lastRequestAt: at(k.lastRequestAt),
                lastPollAt: at(k.lastPollAt),
                lastAckAt: at(k.lastAckAt),
              })),
            );
          }
        });
      } catch (error) {
        // Database away: keep the figures and write them with the next flush.
        for (const b of batch.values()) mergeInto(waiting, b);
        for (const k of presence) {
          if (k.presenceDue) continue;
          k.presenceDue = true;
          presenceDue.push(k);
        }
        // A long outage must not grow memory without end: past this, the oldest figures go.
        if (waiting.size > MAX_BUCKETS) {
          const keep = [...waiting.entries()].sort((a, b) => b[1].minute - a[1].minute).slice(0, MAX_BUCKETS / 2);
          waiting = new Map(keep);
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
    /** How many keys' figures this process holds (tests; FORGET_IDLE_MS bounds it). */
    keysHeld: (): number => keys.size,
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
