// Spec 4.3 envelope rules of our upload body, shared by the route (PUT /v1/merchantUpdate) and the
// pull (D20), whose answer did not come through the route's schema.
import { isStatus, type UploadEnvelope } from './catalog-upload-plan.js';
import { ENTITY_TYPES, ENVELOPE_KEYS } from './catalog-upload-schema.js';

/** Edits (insert, delete, substitute, swap two neighbours) between two short keys. */
function editDistance(a: string, b: string): number {
  // d(i, j): the distance between the first i characters of a and the first j of b.
  const width = b.length + 1;
  const table = new Array<number>((a.length + 1) * width).fill(0);
  const d = (i: number, j: number) => table[i * width + j] ?? 0; // every (i, j) read is inside the table
  for (let i = 0; i <= a.length; i++) table[i * width] = i;
  for (let j = 0; j <= b.length; j++) table[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d(i - 2, j - 2) + 1);
      table[i * width + j] = best;
    }
  }
  return d(a.length, b.length);
}

/** The known key a misspelt one was meant to be: a case slip or at most a few edits away. */
function nearestEnvelopeKey(key: string): string | undefined {
  if (key.length > 64) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const known of ENVELOPE_KEYS) {
    const distance = editDistance(key.toLowerCase(), known.toLowerCase());
    if (distance <= Math.min(3, Math.floor(known.length / 3)) && (!best || distance < best.distance)) {
      best = { key: known, distance };
    }
  }
  return best?.key;
}

/**
 * D34: the title of the 400 for the first top-level key of `body` that is not one of the four,
 * suggesting the known key it is close to; null when every key is known (or the body is no
 * object: validation says so). A misspelt updatedObjects was dropped in silence before: the sync
 * reported SUCCESS and applied nothing.
 */
export function unknownEnvelopeKey(body: unknown, otherwise: string): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const unknown = Object.keys(body).find((k) => !(ENVELOPE_KEYS as readonly string[]).includes(k));
  if (unknown === undefined) return null;
  const shown = unknown.length > 64 ? `${unknown.slice(0, 64)}…` : unknown;
  const near = nearestEnvelopeKey(unknown);
  return near
    ? `${shown} is not a field of merchantUpdate: did you mean ${near}?`
    : `${shown} is not a field of merchantUpdate: ${otherwise}`;
}

/**
 * Spec 4.3 envelope rules, for bodies that did not come through the route's schema (a pulled
 * POS answer, D20). Returns the reason in the words the route's 400 titles use.
 */
export function checkEnvelope(body: unknown): { envelope: UploadEnvelope } | { reason: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { reason: 'body must be an object' };
  const b = body as Record<string, unknown>;
  if (b.entityType === undefined) return { reason: 'entityType is required' };
  if (!ENTITY_TYPES.includes(b.entityType as never)) {
    return { reason: `entityType must be one of ${ENTITY_TYPES.join(', ')}` };
  }
  const reason = checkMerchantStatus(b.entityType as UploadEnvelope['entityType'], b.merchantStatus);
  if (reason) return { reason };
  if (b.onlyAddProducts !== undefined && typeof b.onlyAddProducts !== 'boolean') {
    return { reason: 'onlyAddProducts must be boolean' };
  }
  if (b.updatedObjects === undefined) return { reason: 'updatedObjects is required' };
  if (!Array.isArray(b.updatedObjects)) return { reason: 'updatedObjects must be array' };
  return {
    envelope: {
      entityType: b.entityType as UploadEnvelope['entityType'],
      merchantStatus: b.merchantStatus,
      onlyAddProducts: b.onlyAddProducts as boolean | undefined,
      updatedObjects: b.updatedObjects,
    },
  };
}

/** Spec 4.3: required and an enum value for MERCHANT; accepted and ignored for ITEM and ITEM_OFFER. */
export function checkMerchantStatus(entityType: UploadEnvelope['entityType'], value: unknown): string | null {
  if (entityType !== 'MERCHANT') return null;
  if (value === undefined || value === null) return 'merchantStatus is required when entityType is MERCHANT';
  if (!isStatus(value)) return 'merchantStatus must be one of AVAILABLE, UNAVAILABLE';
  return null;
}
