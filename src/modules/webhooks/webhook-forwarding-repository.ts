// The `cleaver listen` sessions (migration 0015): one per merchant, kept alive by the listener's
// long-polls; see webhook-forwarding.ts.
import type { Queryable } from '../../db/db.js';
import type { DeliveryRow } from './webhooks-repository.js';

export interface ForwardingSession {
  merchant_id: string;
  key_id: string;
  forward_to: string;
  until: Date;
}

/** Starts or extends the merchant's session: the latest listener's URL and key win. */
export async function keepSession(
  db: Queryable,
  session: { merchantId: string; keyId: string; forwardTo: string; now: Date; until: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_forwarding (merchant_id, key_id, forward_to, started_at, until)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (merchant_id) DO UPDATE
        SET key_id = EXCLUDED.key_id, forward_to = EXCLUDED.forward_to, until = EXCLUDED.until,
            started_at = CASE WHEN webhook_forwarding.until > $4 THEN webhook_forwarding.started_at ELSE $4 END`,
    [session.merchantId, session.keyId, session.forwardTo, session.now, session.until],
  );
}

/**
 * Extends a session that still exists (false: it was ended meanwhile): a poll still waiting when
 * the listener stops must not bring its session back.
 */
export async function extendSession(db: Queryable, merchantId: string, until: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE webhook_forwarding SET until = GREATEST(until, $2) WHERE merchant_id = $1',
    [merchantId, until],
  );
  return (rowCount ?? 0) > 0;
}

export async function findSession(db: Queryable, merchantId: string): Promise<ForwardingSession | undefined> {
  const { rows } = await db.query<ForwardingSession>(
    'SELECT merchant_id, key_id, forward_to, until FROM webhook_forwarding WHERE merchant_id = $1',
    [merchantId],
  );
  return rows[0];
}

/** Ends the session: the workers deliver the merchant's webhooks to its registered URL again. */
export async function endSession(db: Queryable, merchantId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhook_forwarding WHERE merchant_id = $1', [merchantId]);
  return (rowCount ?? 0) > 0;
}

/** The merchant's delivery, with its lease, to check a listener's report against. */
export async function findMerchantDelivery(
  db: Queryable,
  merchantId: string,
  deliveryId: string,
): Promise<Pick<DeliveryRow, 'id' | 'status' | 'attempt_count' | 'lease_token' | 'updated_at'> | undefined> {
  const { rows } = await db.query<Pick<DeliveryRow, 'id' | 'status' | 'attempt_count' | 'lease_token' | 'updated_at'>>(
    `SELECT id, status, attempt_count, lease_token, updated_at FROM webhook_deliveries
      WHERE id = $1 AND merchant_id = $2`,
    [deliveryId, merchantId],
  );
  return rows[0];
}
