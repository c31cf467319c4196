// POST /v1/events/acknowledgment, one element after the other (spec 4.13, D4, D39). Every element
// is processed whatever happened to the ones before it: a refused element never holds back those
// after it, and the answer is the first refusal (or 202). Under an `opendelivery` key the
// occurrence id decides what is acknowledged; a type that disagrees with it is reported, never
// refused (D39).
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/index.js';
import type { OrderEventType } from './event-contract.js';
import { EVENT_TYPE_BY_ID } from './event-dialects.js';
import * as repo from './events-repository.js';

export interface AcknowledgmentInput {
  id: string;
  orderId: string;
  eventType: OrderEventType;
}

/** D39: an element an opendelivery key sent with another type than the occurrence its id names. */
export interface TypeMismatch {
  occurrenceId: string;
  orderId: string;
  /** The type the occurrence has. */
  eventType: string;
  /** The type the element said. */
  acknowledgedAs: OrderEventType;
}

export interface AcknowledgmentResult {
  /** The first element's refusal, if any: the answer (D39); every other element was processed. */
  failure?: AppError;
  mismatches: TypeMismatch[];
}

const orderNotFound = () => notFound('Order not found');
/** D32: the element's eventType is not the type its id names (spec 4.13's `{title: <field>}`). */
const wrongEventType = () => new AppError(400, 'eventType');

/**
 * One element. Resolves with the mismatch it was forgiven (opendelivery key), nothing otherwise;
 * throws the AppError that refuses it.
 *
 * `id` may be either form of eventId, whatever the key's profile (D28): the type's id (D1),
 * which acknowledges the event's current occurrence, or an occurrence id, which acknowledges
 * that occurrence only. The two never collide (a type id is a version 5 uuid, an occurrence
 * id a random version 4 one), so events polled before a profile change keep their identity.
 */
async function acknowledgeOne(
  db: Db,
  clock: Clock,
  principal: Principal,
  element: AcknowledgmentInput,
): Promise<TypeMismatch | undefined> {
  const type = EVENT_TYPE_BY_ID.get(element.id.toLowerCase());
  if (type) {
    const owner = await repo.merchantOfOrder(db, element.orderId);
    if (!owner) throw new AppError(400, 'orderId');
    if (owner !== principal.merchantId) throw orderNotFound();
    // D32: the type's id names another type than the one sent. It names no occurrence, so
    // nothing says which event the POS handled: refused, naming the field to fix.
    if (type !== element.eventType) throw wrongEventType();
    await repo.acknowledgeReceipt(db, {
      keyId: principal.keyId,
      orderId: element.orderId,
      eventType: type,
      at: clock.now(),
    });
    return undefined;
  }
  const occurrenceId = element.id.toLowerCase();
  const { owner, occurrence } = await repo.lookupOccurrence(db, occurrenceId, element.orderId);
  // D21: another merchant's occurrence is as unknown as one that never was.
  if (!occurrence || occurrence.merchant_id !== principal.merchantId) throw new AppError(400, 'id');
  if (!owner) throw new AppError(400, 'orderId');
  if (owner !== principal.merchantId) throw orderNotFound();
  // Rule 4: an occurrence of another order acknowledges nothing; an earlier occurrence of a
  // re-opened event neither (its newer occurrence is still unseen).
  if (occurrence.order_id !== element.orderId) return undefined;
  const mismatch = occurrence.event_type !== element.eventType;
  // D39: the occurrence id is unique (D27), so for an opendelivery key it alone says what was
  // handled. A cleaver key's records never carry it as eventId; there a disagreement is a bug to
  // name (D32).
  if (mismatch && principal.profile !== 'opendelivery') throw wrongEventType();
  await repo.acknowledgeOccurrence(db, {
    keyId: principal.keyId,
    orderId: element.orderId,
    eventType: occurrence.event_type,
    occurrenceId,
    at: clock.now(),
  });
  return mismatch
    ? { occurrenceId, orderId: element.orderId, eventType: occurrence.event_type, acknowledgedAs: element.eventType }
    : undefined;
}

/** Every element, in order, each its own statement (rule 2); repeats are no-ops (rule 3). */
export async function acknowledgeElements(
  db: Db,
  clock: Clock,
  principal: Principal,
  elements: AcknowledgmentInput[],
): Promise<AcknowledgmentResult> {
  const result: AcknowledgmentResult = { mismatches: [] };
  for (const element of elements) {
    try {
      const mismatch = await acknowledgeOne(db, clock, principal, element);
      if (mismatch) result.mismatches.push(mismatch);
    } catch (error) {
      // D39: a refused element is the answer (the first one) but stops nothing; anything else
      // (the database away) is no answer about the element, so the request fails as it is.
      if (!(error instanceof AppError)) throw error;
      result.failure ??= error;
    }
  }
  return result;
}

/** What the key's request log keeps of the mismatches of one request (D39). */
export function mismatchWarning(mismatches: TypeMismatch[]): string | undefined {
  const [first] = mismatches;
  if (!first) return undefined;
  const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : '';
  return (
    `${first.eventType} acknowledged as ${first.acknowledgedAs} (order ${first.orderId}, eventId ` +
    `${first.occurrenceId})${more}: acknowledged by its eventId; send the eventType as polled`
  );
}
