import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, nextAttemptDelayMs, parseRetryAfter, withJitter } from './retry-schedule.js';

const SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

describe('retry schedule (D11)', () => {
  it('follows the schedule, then gives up after the last entry', () => {
    const mid = () => 0.5; // no jitter
    expect(SCHEDULE.map((_, i) => nextAttemptDelayMs(i, SCHEDULE, { random: mid }))).toEqual(
      SCHEDULE.map((s) => s * 1000),
    );
    expect(nextAttemptDelayMs(SCHEDULE.length, SCHEDULE)).toBeUndefined();
  });

  it('jitters by ±20 %', () => {
    expect(withJitter(1000, () => 0)).toBe(800);
    expect(withJitter(1000, () => 1)).toBe(1200);
    for (let i = 0; i < 1000; i++) {
      const v = withJitter(300_000);
      expect(v).toBeGreaterThanOrEqual(240_000);
      expect(v).toBeLessThanOrEqual(360_000);
    }
  });

  it('honours Retry-After: never earlier than it, nor than the schedule', () => {
    const mid = () => 0.5;
    expect(nextAttemptDelayMs(1, SCHEDULE, { retryAfterMs: 60_000, random: mid })).toBe(60_000);
    expect(nextAttemptDelayMs(2, SCHEDULE, { retryAfterMs: 1_000, random: mid })).toBe(300_000);
  });

  it('reads Retry-After as seconds or an HTTP date, capped', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 3 ', now)).toBe(3_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(['7', '9'], now)).toBe(7_000);
  });
});
