import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from './http.js';

describe('retry timing', () => {
  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T03:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 03:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 02:59:00 GMT', now)).toBe(0); // in the past: at once
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backs off exponentially with equal jitter, capped', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 100, 10_000, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 100, 10_000, () => 1))).toEqual([100, 200, 400, 800]);
    expect(backoffDelay(20, 100, 10_000, () => 1)).toBe(10_000);
    expect(backoffDelay(20, 100, 10_000, () => 0)).toBe(5_000);
  });
});
