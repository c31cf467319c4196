// The integrator's request log (what Stripe's request log gives; README.md, "The request log"):
// the last 1,000 requests of each integration key, kept 24 hours, with the error title and, for a failed
// request, its body (2 KB at most, secrets redacted). On the request path it costs one object
// pushed on an array; rows are written by one INSERT a second (or sooner when many are waiting),
// at most the newest 1,000 per key (older ones would be trimmed at once), and a key is trimmed
// back to 1,000 rows after every 100 this process wrote for it. Reads flush this process's rows
// first, so what a POS just did is in what it reads from the same process. A batch the database
// refuses is dropped and reported: this is an aid to integrators, not a record (the audit log and
// the event log are).
import { epochMs } from '../../lib/clock.js';
import { errorTitleOf } from '../../lib/error-title.js';
import { redactedJson } from '../../lib/redact.js';
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

/** A row waiting in memory: the row to insert, its time as epoch milliseconds. */
type Pending = Omit<repo.RequestLogInsert, 'at'> & { at: number };

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
}

export function createRequestLog(deps: BatchWriterDeps) {
  const { db, clock } = deps;
  const flushEveryMs = deps.flushEveryMs ?? 1_000;
  let waiting = new Map<string, Pending[]>();
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
    const row: Pending = {
      keyId: principal.keyId,
      merchantId: principal.merchantId,
      at: epochMs(clock),
      requestId: request.id,
      method: request.method,
      path: request.url.length > PATH_MAX ? request.url.slice(0, PATH_MAX) : request.url,
      status,
      durationMs: Math.round(elapsedMs),
      errorTitle: failed ? errorTitleOf(request) : null,
      body,
      bodyTruncated,
    };
    let rows = waiting.get(principal.keyId);
    if (rows === undefined) {
      rows = [];
      waiting.set(principal.keyId, rows);
    }
    rows.push(row);
    size += 1;
    // Only the newest REQUEST_LOG_KEEP of a key can be kept: older ones go in bulk, now and then.
    if (rows.length >= 2 * REQUEST_LOG_KEEP) {
      rows.splice(0, rows.length - REQUEST_LOG_KEEP);
      size -= REQUEST_LOG_KEEP;
    }
    if (size >= FLUSH_AT_ROWS) void flush();
    else if (timer === undefined) {
      timer = setTimeout(() => void flush(), flushEveryMs);
      timer.unref();
    }
  }

  async function write(batch: Map<string, Pending[]>): Promise<void> {
    const rows: repo.RequestLogInsert[] = [];
    const toTrim: string[] = [];
    for (const [keyId, pending] of batch) {
      const newest = pending.length > REQUEST_LOG_KEEP ? pending.slice(-REQUEST_LOG_KEEP) : pending;
      for (const p of newest) rows.push({ ...p, at: new Date(p.at) });
      const written = (writtenSinceTrim.get(keyId) ?? 0) + newest.length;
      if (written >= TRIM_EVERY) {
        toTrim.push(keyId);
        writtenSinceTrim.delete(keyId);
      } else writtenSinceTrim.set(keyId, written);
    }
    await repo.insertRequests(db, rows);
    await repo.trimKeys(db, toTrim, REQUEST_LOG_KEEP);
  }

  /** Writes what is waiting; resolves once everything recorded before the call is written. */
  async function flush(): Promise<void> {
    while (flushing) await flushing;
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (size === 0) return;
    const batch = waiting;
    waiting = new Map();
    size = 0;
    flushing = write(batch)
      .catch((error: unknown) => deps.onError?.(error))
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
      const since = new Date(epochMs(clock) - REQUEST_LOG_HOURS * 3_600_000);
      const rows = await repo.listKeyRequests(db, keyId, {
        since,
        keep: REQUEST_LOG_KEEP,
        beforeSeq: filter.before,
        failed: filter.failed,
        status: filter.status,
        limit: filter.limit + 1,
      });
      const page = rows.slice(0, filter.limit);
      return {
        items: page.map((r) => ({
          requestId: r.request_id,
          at: r.at.toISOString(),
          method: r.method,
          path: r.path,
          status: r.status,
          durationMs: r.duration_ms,
          errorTitle: r.error_title,
          requestBody: r.body,
          requestBodyTruncated: r.body_truncated,
        })),
        next: rows.length > filter.limit ? (page.at(-1)?.position ?? null) : null,
      };
    },
    /** D30: rows past REQUEST_LOG_HOURS, one batch per call (the retention worker). */
    prune: (now: number, limit: number) => repo.pruneRequests(db, new Date(now - REQUEST_LOG_HOURS * 3_600_000), limit),
    /** Stops the timer and writes what is waiting (app close, process stop). */
    async stop(): Promise<void> {
      await flush();
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;
