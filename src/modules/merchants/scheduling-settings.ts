// D44: a merchant's scheduling settings and its slots, as pure functions. Slots are cut from the
// store's hours (local time of America/Sao_Paulo, the days D45 counts in too), one after the
// other from each period's start, `slotMinutes` long; a slot that would run past the period's
// end is not offered. The model had no store hours before (Open Delivery's `services` are not
// taken, od-merchant-plan.ts): they are part of these settings. Unset, the store is open all day
// every day (00:00–24:00), so merchants who never set hours keep taking encomendas at any time.
import { badRequest } from '../../lib/errors.js';

export const TIME_ZONE = 'America/Sao_Paulo';
export const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;
export type Day = (typeof DAYS)[number];

export interface StoreHours {
  dayOfWeek: Day[];
  timePeriods: { startTime: string; endTime: string };
}

export interface Scheduling {
  slotMinutes: number;
  capacityPerSlot: number;
  horizonDays: number;
  confirmWithinMinutes: number;
  hours: StoreHours[];
}

export const DEFAULT_SCHEDULING: Scheduling = {
  slotMinutes: 60,
  capacityPerSlot: 10,
  horizonDays: 14,
  confirmWithinMinutes: 30,
  hours: [{ dayOfWeek: [...DAYS], timePeriods: { startTime: '00:00', endTime: '24:00' } }],
};

const MINUTE = 60_000;
/** HH:MM, 24:00 being the end of the day. */
const TIME = /^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;
const DAY_MS = 86_400_000;

/** The stored settings over the defaults. */
export const schedulingOf = (stored: Record<string, unknown> | null): Scheduling => ({
  ...DEFAULT_SCHEDULING,
  ...(stored as Partial<Scheduling> | null),
});

function whole(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${field} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** PATCH …/merchants/{id} `scheduling`: the fields sent over the current ones (400 naming the field). */
export function checkScheduling(input: Partial<Scheduling>, current: Scheduling): Scheduling {
  const next = { ...current };
  if (input.slotMinutes !== undefined) next.slotMinutes = whole(input.slotMinutes, 'scheduling.slotMinutes', 15, 240);
  if (input.capacityPerSlot !== undefined) {
    next.capacityPerSlot = whole(input.capacityPerSlot, 'scheduling.capacityPerSlot', 1, 1000);
  }
  if (input.horizonDays !== undefined) next.horizonDays = whole(input.horizonDays, 'scheduling.horizonDays', 1, 365);
  if (input.confirmWithinMinutes !== undefined) {
    next.confirmWithinMinutes = whole(input.confirmWithinMinutes, 'scheduling.confirmWithinMinutes', 1, 1440);
  }
  if (input.hours !== undefined) {
    input.hours.forEach((h, i) => {
      const at = `scheduling.hours[${i}].timePeriods`;
      for (const key of ['startTime', 'endTime'] as const) {
        if (!TIME.test(h.timePeriods[key])) throw badRequest(`${at}.${key} must be HH:MM (00:00 to 24:00)`);
      }
      if (minutesOf(h.timePeriods.endTime) <= minutesOf(h.timePeriods.startTime)) {
        throw badRequest(`${at}.endTime must be after ${at}.startTime`);
      }
    });
    next.hours = input.hours.map((h) => ({ dayOfWeek: [...new Set(h.dayOfWeek)], timePeriods: { ...h.timePeriods } }));
  }
  return next;
}

const zoneParts = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The zone's offset from UTC at `at` (ms; negative west of Greenwich). */
function offsetAt(at: number): number {
  const p = Object.fromEntries(zoneParts.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** A local wall time of the zone (day as a UTC midnight, minutes into it) as an instant. */
function localToInstant(dayUtcMidnight: number, minutes: number): number {
  const wall = dayUtcMidnight + minutes * MINUTE;
  const guess = wall - offsetAt(wall);
  return wall - offsetAt(guess);
}

export interface Slot {
  start: Date;
  end: Date;
}

/** Every slot starting in [from, to), oldest first. */
export function slotsBetween(s: Scheduling, from: Date, to: Date): Slot[] {
  const slots: Slot[] = [];
  // Local days from the one before `from` (a period may straddle UTC midnight) to `to`'s.
  const firstDay = Math.floor((from.getTime() + offsetAt(from.getTime())) / DAY_MS) * DAY_MS - DAY_MS;
  for (let day = firstDay; day <= to.getTime() + DAY_MS; day += DAY_MS) {
    const weekday = DAYS[new Date(day).getUTCDay()] as Day;
    for (const h of s.hours) {
      if (!h.dayOfWeek.includes(weekday)) continue;
      const open = minutesOf(h.timePeriods.startTime);
      const close = minutesOf(h.timePeriods.endTime);
      for (let m = open; m + s.slotMinutes <= close; m += s.slotMinutes) {
        const start = localToInstant(day, m);
        if (start >= from.getTime() && start < to.getTime()) {
          slots.push({ start: new Date(start), end: new Date(start + s.slotMinutes * MINUTE) });
        }
      }
    }
  }
  return slots.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** The slot `at` falls in, if the store is open then. */
export function slotAt(s: Scheduling, at: Date): Slot | undefined {
  const window = s.slotMinutes * MINUTE;
  return slotsBetween(s, new Date(at.getTime() - window), new Date(at.getTime() + 1)).find(
    (slot) => slot.start <= at && at < slot.end,
  );
}
