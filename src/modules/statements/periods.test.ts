// D45's periods: days and Monday weeks of America/Sao_Paulo, whatever the zone's offset was.
import { describe, expect, it } from 'vitest';
import { nextPeriod, periodContaining } from './periods.js';

const iso = (p: { start: Date; end: Date }) => [p.start.toISOString(), p.end.toISOString()];

describe('settlement periods (America/Sao_Paulo)', () => {
  it('a day runs from local midnight to local midnight (−03:00 since 2019)', () => {
    expect(iso(periodContaining(new Date('2026-03-05T02:59:59Z'), 'DAILY'))).toEqual([
      '2026-03-04T03:00:00.000Z',
      '2026-03-05T03:00:00.000Z',
    ]);
    expect(iso(periodContaining(new Date('2026-03-05T03:00:00Z'), 'DAILY'))).toEqual([
      '2026-03-05T03:00:00.000Z',
      '2026-03-06T03:00:00.000Z',
    ]);
  });

  it('a week starts on Monday: Sunday 23:59 local is still the week before', () => {
    // Sunday 2026-03-08 23:59 −03:00
    expect(iso(periodContaining(new Date('2026-03-09T02:59:00Z'), 'WEEKLY'))).toEqual([
      '2026-03-02T03:00:00.000Z',
      '2026-03-09T03:00:00.000Z',
    ]);
    expect(iso(periodContaining(new Date('2026-03-09T03:00:00Z'), 'WEEKLY'))).toEqual([
      '2026-03-09T03:00:00.000Z',
      '2026-03-16T03:00:00.000Z',
    ]);
    // A week across the turn of the year.
    expect(iso(periodContaining(new Date('2027-01-01T12:00:00Z'), 'WEEKLY'))).toEqual([
      '2026-12-28T03:00:00.000Z',
      '2027-01-04T03:00:00.000Z',
    ]);
  });

  it('follows the zone data where the offset changed: the DST of 2018 (a 23-hour day, −02:00)', () => {
    // 2018-11-04: clocks jumped from 00:00 to 01:00, so the day began at 01:00 −02:00.
    expect(iso(periodContaining(new Date('2018-11-04T12:00:00Z'), 'DAILY'))).toEqual([
      '2018-11-04T03:00:00.000Z',
      '2018-11-05T02:00:00.000Z',
    ]);
    expect(iso(periodContaining(new Date('2018-12-10T12:00:00Z'), 'DAILY'))).toEqual([
      '2018-12-10T02:00:00.000Z',
      '2018-12-11T02:00:00.000Z',
    ]);
  });

  it('a new period never starts before the latest statement ends (a cycle changed mid-week)', () => {
    // A DAILY statement ended Wednesday 2026-03-04 at midnight; the cycle is WEEKLY from then on.
    const latestEnd = new Date('2026-03-04T03:00:00Z');
    expect(iso(nextPeriod(new Date('2026-03-05T12:00:00Z'), 'WEEKLY', latestEnd))).toEqual([
      '2026-03-04T03:00:00.000Z',
      '2026-03-09T03:00:00.000Z',
    ]);
    // A line whose moment is before that end (another process's clock) opens the period after it.
    expect(iso(nextPeriod(new Date('2026-03-03T12:00:00Z'), 'DAILY', latestEnd))).toEqual([
      '2026-03-04T03:00:00.000Z',
      '2026-03-05T03:00:00.000Z',
    ]);
  });
});
