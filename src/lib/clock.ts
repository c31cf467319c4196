/** Injected wherever time matters, so tests control it instead of sleeping (style.md#tests). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * Milliseconds since the epoch. The system clock's without building a Date: the bearer check and
 * the usage counter read the time on every request (docs/benchmarks.md, "Figures of 2026-11-27,
 * eighth session"); any other clock (a test's) through its now().
 */
export function epochMs(clock: Clock): number {
  return clock === systemClock ? Date.now() : clock.now().getTime();
}

/** A clock tests can move by hand. */
export function manualClock(start = new Date('2026-01-01T12:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
    set(date: Date) {
      current = date.getTime();
    },
  };
}
