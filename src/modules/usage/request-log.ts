// The integrator's request log (what Stripe's request log gives; README.md, "The request log"):
// the last 1,000 requests of each integration key, kept 24 hours, with the error title and, for a failed
// request, its body (2 KB at most, secrets redacted). On the request path it costs one object
// pushed on an array; requests are written by one INSERT a second (or sooner when many are
// waiting), each key's as one row (modules/usage/request-log-batch.ts, ADR 14), at most its newest
// 1,000 (older ones would be trimmed at once), and a key is trimmed back to the batches of its
// newest 1,000 after every 100 requests this process wrote for it. Reads flush this process's
// requests first, so what a POS just did is in what it reads from the same process. A batch the database
// refuses is reported and written again with the next one (D46: a failover loses none of it); past
// UNWRITTEN_MAX_ROWS of a long outage the oldest go: this is an aid to integrators, not a record
// (the audit log and the event log are).
import { epochMs } from '../../lib/clock.js';
import { errorTitleOf } from '../../lib/error-title.js';
import { redactedJson } from '../../lib/redact.js';
import { requestWarningOf } from '../../lib/request-warning.js';
import { BATCH_MAX, type LoggedRow, newestRequests, splitPosition, toBatch } from './request-log-batch.js';
import * as repo from './request-log-repository.js';
import type { BatchWriterDeps } from './usage-recorder.js';

/** Rows kept per key. */
export const REQUEST_LOG_KEEP = 1000;
/** Hours a row is kept. */
export const REQUEST_LOG_HOURS = 24;
/** Bytes of a failed request's body kept (after redaction). */
export const REQUEST_LOG_BODY_BYTES = 2048;
/** Characters of path and query kept. */
const PATH_MAX = 1000;
/** A key is trimmed back to REQUEST_LOG_KEEP after this many rows written for it by this process. */
const TRIM_EVERY = 100;
/** Rows waiting in memory, all keys together, that start a flush before the timer does. */
const FLUSH_AT_ROWS = 5000;
/** Stored batches (one per key and flush) kept for a retry while the database is away. */
const UNWRITTEN_MAX_ROWS = 10_000;

/** What one write inserts: the keys' batches, and the keys to trim after it. */
interface Written {
  rows: repo.RequestLogBatchInsert[];
  toTrim: string[];
}

/**
 * A key's requests since the last flush, its newest BATCH_MAX at most, in slots that are reused
 * flush after flush: a key that asks thousands of times a second allocates nothing per request.
 * An object per request, kept until the flush, outlived the young generation at that rate and was
 * copied and promoted by the collector, which cost more than the log's writes (docs/benchmarks.md,
 * "The request log's cost per request"). A key with nothing in an interval is dropped at the flush.
 */
interface KeyRequests {
  merchantId: string;
  slots: LoggedRow[];
  /** The slot of the oldest request kept, once more than BATCH_MAX came in one interval. */
  start: number;
  count: number;
}

/** What the log reads of a request (a Fastify request has all of it). */
export interface LoggedRequest {
  id: string;
  method: string;
  url: string;
  body?: unknown;
}

export interface RequestLogEntry {
  requestId: string;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  errorTitle: string | null;
  requestBody: string | null;
  requestBodyTruncated: boolean;
  /** What the service forgave in the request (D39), or null. */
  warning: string | null;
}

export function createRequestLog(deps: BatchWriterDeps) {
  const { db, clock } = deps;
  const flushEveryMs = deps.flushEveryMs ?? 1_000;
  const waiting = new Map<string, KeyRequests>();
  let size = 0;
  const writtenSinceTrim = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  function record(
    principal: { keyId: string; merchantId: string },
    request: LoggedRequest,
    status: number,
    elapsedMs: number,
  ): void {
    const failed = status >= 400;
    let body: string | null = null;
    let bodyTruncated = false;
    if (failed && request.body !== undefined && request.body !== null) {
      const redacted = redactedJson(request.body, REQUEST_LOG_BODY_BYTES);
      body = redacted.text;
      bodyTruncated = redacted.truncated;
    }
    let ring = waiting.get(principal.keyId);
    if (ring === undefined) {
      ring = { merchantId: principal.merchantId, slots: [], start: 0, count: 0 };
      waiting.set(principal.keyId, ring);
    }
    // Only a key's newest BATCH_MAX can be kept: past that, the oldest slot takes the new request.
    let index: number;
    if (ring.count < BATCH_MAX) {
      index = ring.count;
      ring.count += 1;
      size += 1;
    } else {
      index = ring.start;
      ring.start = (ring.start + 1) % BATCH_MAX;
    }
    let slot = ring.slots[index];
    if (slot === undefined) {
      slot = {
        at: 0,
        requestId: '',
        method: '',
        path: '',
        status: 0,
        durationMs: 0,
        errorTitle: null,
        body: null,
        bodyTruncated: false,
        warning: null,
      };
      ring.slots[index] = slot;
    }
    slot.at = epochMs(clock);
    slot.requestId = request.id;
    slot.method = request.method;
    slot.path = request.url.length > PATH_MAX ? request.url.slice(0, PATH_MAX) : request.url;
    slot.status = status;
    slot.durationMs = Math.round(elapsedMs);
    slot.errorTitle = failed ? errorTitleOf(request) : null;
    slot.body = body;
    slot.bodyTruncated = bodyTruncated;
    slot.warning = requestWarningOf(request);
    if (size >= FLUSH_AT_ROWS) void flush();
    else if (timer === undefined) {
      timer = setTimeout(() => void flush(), flushEveryMs);
      timer.unref();
    }
  }

  /**
   * The rows of what is waiting, oldest first per key, serialized now (the slots are reused by the
   * next request); keys with nothing since the last flush leave.
   */
  function takeWaiting(): { rows: repo.RequestLogBatchInsert[]; toTrim: string[] } {
    const rows: repo.RequestLogBatchInsert[] = [];
    const toTrim: string[] = [];
    for (const [keyId, ring] of waiting) {
      if (ring.count === 0) {
        waiting.delete(keyId);
        continue;
      }
      const ordered: LoggedRow[] = [];
      for (let n = 0; n < ring.count; n++) {
        const slot = ring.slots[(ring.start + n) % BATCH_MAX];
        if (slot !== undefined) ordered.push(slot);
      }
      rows.push(toBatch({ keyId, merchantId: ring.merchantId }, ordered));
      ring.start = 0;
      ring.count = 0;
      const written = (writtenSinceTrim.get(keyId) ?? 0) + ordered.length;
      if (written >= TRIM_EVERY) {
        toTrim.push(keyId);
        writtenSinceTrim.delete(keyId);
      } else writtenSinceTrim.set(keyId, written);
    }
    size = 0;
    return { rows, toTrim };
  }

  async function write({ rows, toTrim }: Written): Promise<void> {
    await repo.insertBatches(db, rows);
    await repo.trimKeys(db, toTrim, REQUEST_LOG_KEEP);
  }

  /**
   * D46: what a write the database refused (a failover) left, written ahead of the next batch
   * instead of dropped; the oldest rows go past UNWRITTEN_MAX_ROWS (a long outage).
   */
  let unwritten: Written | undefined;

  function keepUnwritten(batch: Written): void {
    const rows = unwritten ? [...unwritten.rows, ...batch.rows] : batch.rows;
    const toTrim = unwritten ? [...new Set([...unwritten.toTrim, ...batch.toTrim])] : batch.toTrim;
    unwritten = { rows: rows.length > UNWRITTEN_MAX_ROWS ? rows.slice(-UNWRITTEN_MAX_ROWS) : rows, toTrim };
    if (timer === undefined) {
      timer = setTimeout(() => void flush(), flushEveryMs);
      timer.unref();
    }
  }

  /** Writes what is waiting; resolves once everything recorded before the call is written. */
  async function flush(): Promise<void> {
    while (flushing) await flushing;
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (size === 0 && unwritten === undefined) return;
    const fresh = size === 0 ? { rows: [], toTrim: [] } : takeWaiting();
    const batch = unwritten
      ? { rows: [...unwritten.rows, ...fresh.rows], toTrim: [...new Set([...unwritten.toTrim, ...fresh.toTrim])] }
      : fresh;
    unwritten = undefined;
    flushing = write(batch)
      .catch((error: unknown) => {
        keepUnwritten(batch);
        deps.onError?.(error);
      })
      .finally(() => {
        flushing = undefined;
      });
    await flushing;
  }

  return {
    record,
    flush,
    /**
     * A key's requests, newest first: the newest REQUEST_LOG_KEEP of the last REQUEST_LOG_HOURS,
     * `limit` at a time before the `before` position (the `next` of the previous page).
     */
    async list(
      keyId: string,
      filter: { limit: number; before?: string; failed?: boolean; status?: number },
    ): Promise<{ items: RequestLogEntry[]; next: string | null }> {
      await flush();
      const since = epochMs(clock) - REQUEST_LOG_HOURS * 3_600_000;
      const batches = await repo.listKeyBatches(db, keyId, {
        since: new Date(since),
        keep: REQUEST_LOG_KEEP,
        beforeSeq: filter.before === undefined ? undefined : splitPosition(filter.before).seq,
      });
      const items: RequestLogEntry[] = [];
      let last: string | undefined;
      for (const r of newestRequests(batches, { keep: REQUEST_LOG_KEEP, since, before: filter.before })) {
        if (filter.failed && r.status < 400) continue;
        if (filter.status !== undefined && r.status !== filter.status) continue;
        // One more than the page: whether there is a next one.
        if (items.length === filter.limit) return { items, next: last ?? null };
        items.push({
          requestId: r.requestId,
          at: new Date(r.at).toISOString(),
          method: r.method,
          path: r.path,
          status: r.status,
          durationMs: r.durationMs,
          errorTitle: r.errorTitle,
          requestBody: r.body,
          requestBodyTruncated: r.bodyTruncated,
          warning: r.warning,
        });
        last = r.position;
      }
      return { items, next: null };
    },
    /**
     * D30: requests past REQUEST_LOG_HOURS, `limit` stored batches at most per call (the retention
     * worker); returns how many requests went. A batch goes once its newest request is past.
     */
    prune: (now: number, limit: number) => repo.pruneBatches(db, new Date(now - REQUEST_LOG_HOURS * 3_600_000), limit),
    /** Stops the timer and writes what is waiting (app close, process stop). */
    async stop(): Promise<void> {
      await flush();
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;
