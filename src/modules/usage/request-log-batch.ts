// What one row of the request log holds: the requests of one key written by one flush, as a JSON
// array, oldest first (migration 0021, docs/adr/0014-request-log-in-batches.md). A request inside
// is an array, not an object: the bytes of a batch are what the embedded database's CPU follows.
// A request's position is its batch's seq * 1024 + its index in the batch, so that positions
// stay one number ordered as the requests were written (a batch holds at most 1,000).
import type { RequestLogBatchInsert, RequestLogBatchRow } from './request-log-repository.js';

/** A request as the log records it, before it is written. */
export interface LoggedRow {
  /** Epoch milliseconds. */
  at: number;
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  errorTitle: string | null;
  body: string | null;
  bodyTruncated: boolean;
  /** What the service forgave in the request (D39), or null. */
  warning: string | null;
}

/** The warning is last and left out when there is none: rows written before it read as none. */
type StoredRequest = [
  at: number,
  requestId: string,
  method: string,
  path: string,
  status: number,
  durationMs: number,
  errorTitle: string | null,
  body: string | null,
  bodyTruncated: 0 | 1,
  warning?: string,
];

/** Requests a batch holds at most (positions leave room for 1,024). */
export const BATCH_MAX = 1000;
const POSITION_BASE = 1024n;

/** One key's requests of one flush (at most BATCH_MAX, oldest first) as a row to insert. */
export function toBatch(key: { keyId: string; merchantId: string }, rows: LoggedRow[]): RequestLogBatchInsert {
  const stored = rows.map((r): StoredRequest => {
    const row: StoredRequest = [
      r.at,
      r.requestId,
      r.method,
      r.path,
      r.status,
      r.durationMs,
      r.errorTitle,
      r.body,
      r.bodyTruncated ? 1 : 0,
    ];
    if (r.warning !== null) row.push(r.warning);
    return row;
  });
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first === undefined || last === undefined || rows.length > BATCH_MAX) {
    throw new RangeError(`a request log batch holds 1 to ${BATCH_MAX} requests, not ${rows.length}`);
  }
  return {
    keyId: key.keyId,
    merchantId: key.merchantId,
    firstAt: new Date(first.at),
    lastAt: new Date(last.at),
    entries: rows.length,
    requests: JSON.stringify(stored),
  };
}

/** A request read back, with its position. */
export interface ReadRequest extends LoggedRow {
  position: string;
}

/** The batch and index of a position (the `before` of a page). */
export function splitPosition(position: string): { seq: string; index: number } {
  const n = BigInt(position);
  return { seq: (n / POSITION_BASE).toString(), index: Number(n % POSITION_BASE) };
}

/**
 * The requests of a key's batches (newest batch first, as listKeyBatches reads them) newest
 * first: only its newest `keep`, none older than `since`, only those before `before`, those
 * `wanted` accepts, at most `limit`.
 */
export function* newestRequests(
  batches: RequestLogBatchRow[],
  window: { keep: number; since: number; before?: string },
): Generator<ReadRequest> {
  const before = window.before === undefined ? undefined : splitPosition(window.before);
  for (const batch of batches) {
    const stored = JSON.parse(batch.requests) as StoredRequest[];
    // Only the batch's newest (keep - newer) requests are among the key's newest `keep`.
    const oldest = Math.max(0, stored.length - (window.keep - batch.newer));
    let from = stored.length - 1;
    if (before !== undefined && batch.seq === before.seq) from = Math.min(from, before.index - 1);
    const base = BigInt(batch.seq) * POSITION_BASE;
    for (let i = from; i >= oldest; i--) {
      const s = stored[i];
      if (s === undefined || s[0] < window.since) continue;
      yield {
        position: (base + BigInt(i)).toString(),
        at: s[0],
        requestId: s[1],
        method: s[2],
        path: s[3],
        status: s[4],
        durationMs: s[5],
        errorTitle: s[6],
        body: s[7],
        bodyTruncated: s[8] === 1,
        warning: s[9] ?? null,
      };
    }
  }
}
