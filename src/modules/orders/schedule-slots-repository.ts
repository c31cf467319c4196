// D44: the places taken in each slot of a merchant (schedule_slots).
import type { Queryable } from '../../db/db.js';

/**
 * Takes one place in a slot when one is left: a single conditional upsert, so of two intakes
 * racing for the last place exactly one gets a row back (PostgreSQL re-checks `taken <
 * capacity` on the row the other just wrote; the embedded database runs them one at a time).
 */
export async function takePlace(
  db: Queryable,
  merchantId: string,
  slotStart: Date,
  capacity: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO schedule_slots (merchant_id, slot_start, taken) SELECT $1, $2, 1 WHERE $3::int >= 1
     ON CONFLICT (merchant_id, slot_start) DO UPDATE SET taken = schedule_slots.taken + 1
       WHERE schedule_slots.taken < $3::int
     RETURNING taken`,
    [merchantId, slotStart, capacity],
  );
  return rows.length === 1;
}

/** A cancelled order gives its place back. */
export async function releasePlace(db: Queryable, merchantId: string, slotStart: Date): Promise<void> {
  await db.query(
    'UPDATE schedule_slots SET taken = taken - 1 WHERE merchant_id = $1 AND slot_start = $2 AND taken > 0',
    [merchantId, slotStart],
  );
}

/** Places taken in the slots starting in [from, to), by start time (ms). */
export async function takenBetween(
  db: Queryable,
  merchantId: string,
  from: Date,
  to: Date,
): Promise<Map<number, number>> {
  const { rows } = await db.query<{ slot_start: Date; taken: number }>(
    'SELECT slot_start, taken FROM schedule_slots WHERE merchant_id = $1 AND slot_start >= $2 AND slot_start < $3',
    [merchantId, from, to],
  );
  return new Map(rows.map((r) => [r.slot_start.getTime(), r.taken]));
}

/** Scheduled orders still CREATED after their confirmation deadline (D44). */
export async function unconfirmedPastDeadline(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM orders WHERE status = 'CREATED' AND confirm_by IS NOT NULL AND confirm_by <= $1
      ORDER BY confirm_by LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}
