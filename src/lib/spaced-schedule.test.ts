import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { spacedSchedule } from './spaced-schedule.js';

describe('spacedSchedule', () => {
  it('runs a batch at once after a quiet spell, and spaces the batches that follow by the gap', async () => {
    const batches: Array<{ keys: readonly number[]; at: number }> = [];
    const loader = new DataLoader<number, number>(
      async (keys) => {
        batches.push({ keys, at: performance.now() });
        return keys.map((k) => k * 2);
      },
      { cache: false, batchScheduleFn: spacedSchedule(200) },
    );
    const started = performance.now();
    // One turn's loads share a batch, run at the end of that turn: nothing waits after a quiet spell.
    expect(await Promise.all([loader.load(1), loader.load(2)])).toEqual([2, 4]);
    expect(batches[0]?.at).toBeDefined();
    expect((batches[0]?.at ?? 0) - started).toBeLessThan(150);
    // Loads within the gap wait for its end and go together, each with its own answer.
    const late = [loader.load(3)];
    await new Promise((resolve) => setTimeout(resolve, 5));
    late.push(loader.load(4));
    expect(await Promise.all(late)).toEqual([6, 8]);
    expect(batches.map((b) => b.keys)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect((batches[1]?.at ?? 0) - (batches[0]?.at ?? 0)).toBeGreaterThanOrEqual(199);
    // After a spell longer than the gap, at once again.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const quiet = performance.now();
    expect(await loader.load(5)).toBe(10);
    expect((batches[2]?.at ?? 0) - quiet).toBeLessThan(150);
  });
});
