// D45: settlement periods are days or weeks (from Monday) of America/Sao_Paulo. The zone's
// offset is never assumed: it is asked of Intl for the instant at hand, so a change of the
// zone's rules (the country had daylight saving time until 2019) is followed by the runtime's
// time-zone data, not by an edit here.

export const SETTLEMENT_ZONE = 'America/Sao_Paulo';
export const SETTLEMENT_CYCLES = ['DAILY', 'WEEKLY'] as const;
export type SettlementCycle = (typeof SETTLEMENT_CYCLES)[number];

export interface Period {
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: SETTLEMENT_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The wall-clock reading in the zone at `instant`, as if it were UTC (milliseconds). */
function wallClockMs(instant: number): number {
  const p = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of parts.formatToParts(new Date(instant))) {
    if (part.type in p) p[part.type as keyof typeof p] = Number(part.value);
  }
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The zone's offset from UTC at `instant`, in milliseconds (−3 h for Sao Paulo today). */
export const zoneOffsetMs = (instant: number): number => wallClockMs(instant) - Math.floor(instant / 1000) * 1000;

/**
 * The instant the zone's clocks read `wall` (a UTC-encoded wall-clock time). Two rounds: the
 * offset taken at the first guess is right except across a change of offset, which the second
 * round settles. A midnight skipped by a change (as Brazil's DST once did) resolves to the
 * first instant after it, the day's actual start.
 */
function instantOfWallClock(wall: number): number {
  const first = wall - zoneOffsetMs(wall);
  const second = wall - zoneOffsetMs(first);
  if (wallClockMs(second) === wall) return second;
  // In a gap: of the two, the earliest instant whose clocks read `wall` or later.
  return [first, second].filter((c) => wallClockMs(c) >= wall).reduce((a, b) => Math.min(a, b));
}

/** The zone's calendar date at `instant` as a UTC-midnight timestamp (ms). */
function localDate(instant: number): number {
  const wall = wallClockMs(instant);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/** The day (DAILY) or the Monday-to-Monday week (WEEKLY) of the zone that contains `at`. */
export function periodContaining(at: Date, cycle: SettlementCycle): Period {
  const date = localDate(at.getTime());
  let first = date;
  let days = 1;
  if (cycle === 'WEEKLY') {
    // getUTCDay on the UTC-encoded date is the zone's weekday: 0 Sunday … 6 Saturday.
    const sinceMonday = (new Date(date).getUTCDay() + 6) % 7;
    first = date - sinceMonday * DAY_MS;
    days = 7;
  }
  return { start: new Date(instantOfWallClock(first)), end: new Date(instantOfWallClock(first + days * DAY_MS)) };
}

/**
 * The period a new statement opened at `at` covers: the cycle's period containing `at`, except
 * that it never starts before the merchant's latest statement ends (a cycle changed from DAILY
 * to WEEKLY mid-week starts its first week where the last day ended, so no instant belongs to
 * two statements). `at` earlier than that end is moved to it.
 */
export function nextPeriod(at: Date, cycle: SettlementCycle, latestEnd: Date | null): Period {
  const from = latestEnd && latestEnd.getTime() > at.getTime() ? latestEnd : at;
  const natural = periodContaining(from, cycle);
  const start = latestEnd && latestEnd.getTime() > natural.start.getTime() ? latestEnd : natural.start;
  return { start, end: natural.end };
}
