// Keyset pagination cursors (operator-api.md#lists): opaque to clients, a position in a stable
// order to the server. A cursor that does not decode is a 400 naming it, never a 500.
import { badRequest } from './errors.js';

/** A (time, id) position, for lists ordered by creation. */
export function encodeTimeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`, 'utf8').toString('base64url');
}

export function decodeTimeCursor(cursor: string | undefined): { at: Date; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(iso ?? '');
  if (!id || Number.isNaN(at.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw badRequest('cursor is not valid');
  return { at, id };
}

/** A sequence-number position, for lists ordered by a bigserial. */
export function decodeSeqCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^\d{1,18}$/.test(cursor)) throw badRequest('cursor is not valid');
  return Number(cursor);
}

/** Fetch one more than the page: whether a next page exists, without counting. */
export function page<T>(rows: T[], limit: number, cursorOf: (last: T) => string): { items: T[]; next: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/** A (text key, id) position, for lists ordered by a name. */
export function encodeKeyCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id]), 'utf8').toString('base64url');
}

export function decodeKeyCursor(cursor: string | undefined): { key: string; id: string } | undefined {
  if (cursor === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor is not valid');
  }
  const [key, id] = Array.isArray(parsed) ? parsed : [];
  if (typeof key !== 'string' || typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw badRequest('cursor is not valid');
  }
  return { key, id };
}
