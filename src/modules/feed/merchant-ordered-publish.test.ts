// The relay's publishing rule (D36): many publishes in flight, never two of one merchant; after a
// failure nothing new leaves; the mark may move only over acknowledged items without a gap.
// Against a model broker that stores a message when its publish is called (unless the publish
// fails) and acknowledges it after a random delay, pages added while earlier ones are in flight.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedRuns } from '../../../test/support/generated-inputs.js';
import { MerchantOrderedPublisher, publishInMerchantOrder } from './merchant-ordered-publish.js';

interface Row {
  merchant_id: string;
  position: number;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('publishing in merchant order', () => {
  it('keeps each merchant in order, bounds what is in flight, stops at a failure, marks only a gapless prefix', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.nat({ max: 70 }), { nil: undefined }),
        fc.integer({ min: 1, max: 4 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 3 })),
        async (merchants, window, failAt, pages, delays) => {
          const rows: Row[] = merchants.map((m, i) => ({ merchant_id: `m${m}`, position: i + 1 }));
          const stored: Row[] = [];
          const inFlight = new Set<string>();
          let most = 0;
          const acked = new Set<number>();
          const marks: number[] = [];
          const delay = delays[Symbol.iterator]();
          const publisher = new MerchantOrderedPublisher<Row>(
            async (row) => {
              expect(inFlight.has(row.merchant_id)).toBe(false);
              inFlight.add(row.merchant_id);
              most = Math.max(most, inFlight.size);
              const fails = failAt !== undefined && row.position === failAt;
              if (!fails) stored.push(row);
              await pause(delay.next().value as number);
              inFlight.delete(row.merchant_id);
              if (fails) throw new Error('broker away');
              acked.add(row.position);
            },
            window,
            (through) => marks.push(through),
          );
          const size = Math.ceil(rows.length / pages) || 1;
          for (let i = 0; i < rows.length; i += size) {
            publisher.add(rows.slice(i, i + size));
            await publisher.hungry();
          }
          const result = await publisher.drained();

          expect(most).toBeLessThanOrEqual(window);
          for (const m of new Set(merchants)) {
            const mine = stored.filter((r) => r.merchant_id === `m${m}`).map((r) => r.position);
            expect(mine).toEqual([...mine].sort((a, b) => a - b));
          }
          let prefix = 0;
          while (prefix < rows.length && acked.has(prefix + 1)) prefix++;
          expect(result.ackedThrough).toBe(prefix > 0 ? prefix : null);
          expect(result.sent).toBe(acked.size);
          expect(marks).toEqual([...marks].sort((a, b) => a - b));
          if (prefix > 0) expect(marks.at(-1)).toBe(prefix);
          const failing = failAt !== undefined && failAt >= 1 && failAt <= rows.length;
          if (failing) {
            expect(result.error).toBeInstanceOf(Error);
            expect(prefix).toBeLessThan(failAt);
            // The failed merchant's later items never left: its order cannot be overtaken.
            const failed = rows[failAt - 1] as Row;
            expect(stored.some((r) => r.merchant_id === failed.merchant_id && r.position > failAt)).toBe(false);
          } else {
            expect(result.error).toBeUndefined();
            expect(result.sent).toBe(rows.length);
            expect(stored).toHaveLength(rows.length);
          }
        },
      ),
      { numRuns: generatedRuns(300, 30) },
    );
  });

  it('sends a page of one merchant one item at a time, of many merchants many at once', async () => {
    let inFlight = 0;
    let most = 0;
    const publish = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await pause(1);
      inFlight--;
    };
    const one = await publishInMerchantOrder(
      Array.from({ length: 5 }, (_, i) => ({ merchant_id: 'a', position: i + 1 })),
      publish,
      4,
    );
    expect(one).toEqual({ sent: 5, ackedThrough: 5, error: undefined });
    expect(most).toBe(1);
    most = 0;
    const many = await publishInMerchantOrder(
      Array.from({ length: 12 }, (_, i) => ({ merchant_id: `m${i % 6}`, position: i + 1 })),
      publish,
      4,
    );
    expect(many).toEqual({ sent: 12, ackedThrough: 12, error: undefined });
    expect(most).toBe(4);
  });
});
