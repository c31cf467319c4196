import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/test-db.js';
import { type Operation, rejectedWriteProblems, watchWrites } from './fuzz-support.js';

// The fuzz suite's "nothing written when rejected" check, on hand-made fingerprints: it must
// catch every write except what the route's declaration allows (rejectedMayWrite): the one
// partial write the spec allows (spec 4.13 rule 2; D39: every valid element of a batch with a
// refused one, and the daily notice of a forgiven type mismatch) and the feed item of a refused
// delivery code (D36), declared as below in events-routes.ts and orders-routes.ts.

function op(method: string, path: string, rejectedMayWrite: Partial<Operation['rejectedMayWrite']> = {}): Operation {
  return {
    method,
    path,
    operationId: 'x',
    parameters: [],
    body: undefined,
    security: 'bearer',
    rejectedMayWrite: { update: [], append: [], ...rejectedMayWrite },
  };
}

const ack = op('POST', '/v1/events/acknowledgment', { update: ['event_receipts'], append: ['notices'] });
const confirm = op('POST', '/v1/orders/{orderId}/confirm');
const before = 'event_receipts:4:100,orders:2:7';

describe('rejectedWriteProblems', () => {
  it('finds nothing when no table changed', () => {
    expect(rejectedWriteProblems(confirm, before, before)).toEqual([]);
  });

  it('allows an acknowledgment batch with a refused element to keep the others’ acknowledgments and its notice (D39)', () => {
    expect(rejectedWriteProblems(ack, before, 'event_receipts:4:250,orders:2:7')).toEqual([]);
    const withNotices = `${before},notices:1:9`;
    expect(rejectedWriteProblems(ack, withNotices, 'event_receipts:4:250,orders:2:7,notices:2:10')).toEqual([]);
    expect(rejectedWriteProblems(ack, withNotices, 'event_receipts:4:250,orders:2:7,notices:1:10')).toEqual([
      'notices: 1 rows → 1 rows (updated)',
    ]);
  });

  it('reports an acknowledgment batch that added receipts or touched another table', () => {
    expect(rejectedWriteProblems(ack, before, 'event_receipts:5:250,orders:2:7')).toEqual([
      'event_receipts: 4 rows → 5 rows',
    ]);
    expect(rejectedWriteProblems(ack, before, 'event_receipts:4:100,orders:2:8')).toEqual([
      'orders: 2 rows → 2 rows (updated)',
    ]);
  });

  it('allows a refused delivery code to add its feed item (D36), and nothing else', () => {
    const code = op('POST', '/v1/orders/{orderId}/validateCode', { append: ['feed_items'] });
    const withFeed = `${before},feed_items:3:1`;
    expect(rejectedWriteProblems(code, withFeed, `${before},feed_items:4:2`)).toEqual([]);
    expect(rejectedWriteProblems(code, withFeed, `${before},feed_items:3:2`)).toEqual([
      'feed_items: 3 rows → 3 rows (updated)',
    ]);
    expect(rejectedWriteProblems(code, withFeed, 'event_receipts:4:100,orders:2:8,feed_items:4:2')).toEqual([
      'orders: 2 rows → 2 rows (updated)',
    ]);
    expect(rejectedWriteProblems(confirm, withFeed, `${before},feed_items:4:2`)).toEqual([
      'feed_items: 3 rows → 4 rows',
    ]);
  });

  it('reports any write of a rejected request of another operation', () => {
    expect(rejectedWriteProblems(confirm, before, 'event_receipts:4:250,orders:2:7')).toEqual([
      'event_receipts: 4 rows → 4 rows (updated)',
    ]);
    expect(rejectedWriteProblems(confirm, before, `${before},webhook_deliveries:1:3`)).toEqual([
      'webhook_deliveries: 0 rows → 1 rows',
    ]);
  });
});

describe('watchWrites', () => {
  it('sees a write however it is sent, and nothing for reads', async () => {
    const database = await createTestDatabase();
    const watch = watchWrites(database.db);
    try {
      await database.db.query('SELECT count(*) FROM orders');
      await database.db.transaction((tx) => tx.query('SELECT 1'));
      expect(watch.wrote()).toBe(false);
      const sends = [
        () => database.db.query("INSERT INTO merchants (id, name) VALUES (gen_random_uuid(), 'w')"),
        () => database.db.transaction((tx) => tx.query("UPDATE merchants SET name = 'x'")),
        () => database.db.transaction((tx) => tx.exec('DELETE FROM merchants')),
        () => database.db.exec('SELECT 1; DELETE FROM merchants'),
      ];
      for (const send of sends) {
        watch.reset();
        await send();
        expect(watch.wrote()).toBe(true);
      }
    } finally {
      watch.stop();
      await database.close();
    }
  });
});
