// The request log's stored batches read back (ADR 14): newest first across batches, the window
// of a key's newest requests cut inside a batch, the 24-hour cut, and pages that start anywhere.
import { describe, expect, it } from 'vitest';
import { BATCH_MAX, type LoggedRow, newestRequests, splitPosition, toBatch } from './request-log-batch.js';
import type { RequestLogBatchRow } from './request-log-repository.js';

const KEY = { keyId: 'k', merchantId: 'm' };
const row = (n: number): LoggedRow => ({
  at: 1_000 * n,
  requestId: `r${n}`,
  method: n % 2 ? 'POST' : 'GET',
  path: `/v1/orders/${n}`,
  status: n % 3 ? 200 : 404,
  durationMs: n,
  errorTitle: n % 3 ? null : 'Order not found',
  body: n % 3 ? null : `{"n":${n}}`,
  bodyTruncated: n % 6 === 0,
  // D39: some requests carry a warning; a row without one is stored without the field.
  warning: n % 4 ? null : `warning ${n}`,
});

/** Requests 1..total in batches of the given sizes, stored as listKeyBatches returns them. */
function stored(sizes: number[], firstSeq = 7): RequestLogBatchRow[] {
  let n = 0;
  const rows = sizes.map((size, i) => {
    const batch = toBatch(
      KEY,
      Array.from({ length: size }, () => row(++n)),
    );
    return { seq: String(firstSeq + i), entries: batch.entries, requests: batch.requests, newer: 0 };
  });
  // Newest first, each with the count of newer requests.
  let newer = 0;
  return rows.reverse().map((r) => {
    const withNewer = { ...r, newer };
    newer += r.entries;
    return withNewer;
  });
}

const ids = (batches: RequestLogBatchRow[], window: Parameters<typeof newestRequests>[1]) =>
  [...newestRequests(batches, window)].map((r) => r.requestId);

describe('the request log batches', () => {
  it('give back every field as recorded, newest first across batches', () => {
    const read = [...newestRequests(stored([3, 1, 2]), { keep: 1000, since: 0 })];
    expect(read.map((r) => r.requestId)).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
    const { position, ...sixth } = read[0] ?? { position: '' };
    expect(sixth).toEqual(row(6));
    // Positions: seq × 1024 + the index in the batch, decreasing as the requests get older.
    expect(read.map((r) => r.position)).toEqual(['9217', '9216', '8192', '7170', '7169', '7168']);
    expect(splitPosition('9217')).toEqual({ seq: '9', index: 1 });
  });

  it('keep only the newest `keep` requests, the oldest batch cut in its middle', () => {
    expect(ids(stored([4, 3, 2]), { keep: 6, since: 0 })).toEqual(['r9', 'r8', 'r7', 'r6', 'r5', 'r4']);
  });

  it('skip requests older than `since` inside a batch they share with newer ones', () => {
    expect(ids(stored([4, 3]), { keep: 1000, since: 3_000 })).toEqual(['r7', 'r6', 'r5', 'r4', 'r3']);
  });

  it('start a page just before any position, inside a batch or at its first request', () => {
    const batches = stored([5, 5, 5]);
    const all = [...newestRequests(batches, { keep: 1000, since: 0 })];
    for (let i = 0; i < all.length; i++) {
      const before = all[i]?.position;
      const seq = before === undefined ? undefined : splitPosition(before).seq;
      // What listKeyBatches returns for that `before`: the batches up to its own.
      const upTo = batches.filter((b) => seq === undefined || BigInt(b.seq) <= BigInt(seq));
      expect(ids(upTo, { keep: 1000, since: 0, before })).toEqual(all.slice(i + 1).map((r) => r.requestId));
    }
  });

  it('refuse a batch of no request or of more than a batch holds', () => {
    expect(() => toBatch(KEY, [])).toThrow(RangeError);
    expect(() =>
      toBatch(
        KEY,
        Array.from({ length: BATCH_MAX + 1 }, (_, i) => row(i)),
      ),
    ).toThrow(RangeError);
  });
});
