import { performance } from 'node:perf_hooks';

/**
 * A DataLoader `batchScheduleFn` whose batches start at least `gapMs` apart. After a quiet spell
 * a batch runs at the end of the turn, as before; under load, what arrives within the gap shares
 * the next statement. A statement is a write to a database process that is often asleep, and on
 * this kind of virtual machine that write costs the writer some 80–150 µs of CPU (the poll
 * storm's first pass sent one for every one or two new tokens; docs/benchmarks.md, "Figures of
 * 2026-11-28, 07:00–08:10 UTC"). The same spacing as the pending-keys check's round trips
 * (docs/adr/0012-pending-keys-cache.md, "Spacing the round trips").
 */
export function spacedSchedule(gapMs: number): (run: () => void) => void {
  let lastRunAt = Number.NEGATIVE_INFINITY;
  return (run) => {
    const go = () => {
      lastRunAt = performance.now();
      run();
    };
    const wait = lastRunAt + gapMs - performance.now();
    // Whole milliseconds up: a timer of 4.3 ms may fire after 4.
    if (wait > 0) setTimeout(go, Math.ceil(wait));
    else setImmediate(go);
  };
}
