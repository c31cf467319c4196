// D11: the retry schedule. `scheduleSec[i]` is the wait before attempt i+1 (the first entry is
// the wait before the first attempt, normally 0 = immediately). After the last entry's attempt
// fails, the delivery is FAILED.

/** The most a receiver's Retry-After can push the next attempt back. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
export const JITTER = 0.2;

/** ±20 % jitter (D11), so receivers recovering from an outage are not hit in lockstep. */
export function withJitter(ms: number, random: () => number = Math.random): number {
  return Math.max(0, Math.round(ms * (1 - JITTER + 2 * JITTER * random())));
}

/**
 * Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date. Returns milliseconds from `now`,
 * or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now.getTime()), MAX_RETRY_AFTER_MS);
}

/**
 * When the attempt after `attemptsMade` failed ones is due, or undefined when the schedule is
 * exhausted (→ FAILED). A Retry-After (429/503) is honoured: the next attempt is never earlier
 * than it, and never earlier than the schedule says either.
 */
export function nextAttemptDelayMs(
  attemptsMade: number,
  scheduleSec: number[],
  options: { retryAfterMs?: number; random?: () => number } = {},
): number | undefined {
  const delaySec = scheduleSec[attemptsMade];
  if (delaySec === undefined) return undefined; // past the schedule: no attempt left
  const scheduled = withJitter(delaySec * 1000, options.random);
  return Math.max(scheduled, options.retryAfterMs ?? 0);
}
