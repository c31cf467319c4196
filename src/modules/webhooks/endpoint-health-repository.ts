// Endpoint health of each merchant's webhook endpoint, read by operators and notices:
// its state from recent attempts, when it started failing, and disabling with a reason. Kept
// apart from the delivery queue's statements; webhooks-repository re-exports it.
import type { Queryable } from '../../db/db.js';
import { unnestParams } from '../../db/unnest.js';

export interface HealthChange {
  merchant_id: string;
  previous: 'healthy' | 'failing' | null;
  state: 'healthy' | 'failing';
  failing_since: Date | null;
  last_error: string | null;
  url: string | null;
}

/**
 * Folds a batch of attempt outcomes into each merchant's endpoint health, set-based, and returns
 * the merchants whose state changed. `outcomes` are in the order the attempts finished, and the
 * last to finish per merchant decides its state: attempts run side by side, so a slow one that
 * started first can be the newest news about the endpoint. A failure keeps the time the endpoint
 * started failing: its first failure since it last succeeded.
 */
export async function updateEndpointHealth(
  db: Queryable,
  outcomes: Array<{ merchantId: string; ok: boolean; error: string | null; at: Date }>,
): Promise<HealthChange[]> {
  if (outcomes.length === 0) return [];
  const { rows } = await db.query<HealthChange>(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::boolean[], $3::text[], $4::timestamptz[]) WITH ORDINALITY
         AS r(merchant_id, ok, error, at, finished)
     ), latest AS (
       SELECT DISTINCT ON (merchant_id) merchant_id, ok, error FROM r ORDER BY merchant_id, finished DESC
     ), summary AS (
       SELECT merchant_id, max(at) AS attempt_at, max(at) FILTER (WHERE ok) AS success_at,
              max(finished) FILTER (WHERE ok) AS success_n
         FROM r GROUP BY merchant_id
     ), first_failure AS (
       -- The failures since the batch's last success: an earlier run of failures has ended.
       SELECT f.merchant_id, min(f.at) AS at FROM r f JOIN summary s ON s.merchant_id = f.merchant_id
        WHERE NOT f.ok AND f.finished > COALESCE(s.success_n, 0)
        GROUP BY f.merchant_id
     ), previous AS (
       SELECT h.merchant_id, h.state FROM webhook_endpoint_health h WHERE h.merchant_id IN (SELECT merchant_id FROM latest)
     ), upserted AS (
       INSERT INTO webhook_endpoint_health AS h
              (merchant_id, state, failing_since, last_error, last_success_at, last_attempt_at, changed_at)
       SELECT l.merchant_id, CASE WHEN l.ok THEN 'healthy' ELSE 'failing' END,
              CASE WHEN l.ok THEN NULL ELSE f.at END, CASE WHEN l.ok THEN NULL ELSE l.error END,
              s.success_at, s.attempt_at, s.attempt_at
         FROM latest l JOIN summary s ON s.merchant_id = l.merchant_id
         LEFT JOIN first_failure f ON f.merchant_id = l.merchant_id
       ON CONFLICT (merchant_id) DO UPDATE SET
         state = EXCLUDED.state,
         -- A success in this batch ended the earlier run of failures.
         failing_since = CASE WHEN EXCLUDED.state = 'healthy' THEN NULL
                              WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.failing_since
                              ELSE COALESCE(h.failing_since, EXCLUDED.failing_since) END,
         last_error = COALESCE(EXCLUDED.last_error, h.last_error),
         last_success_at = GREATEST(h.last_success_at, EXCLUDED.last_success_at),
         last_attempt_at = GREATEST(h.last_attempt_at, EXCLUDED.last_attempt_at),
         changed_at = CASE WHEN h.state = EXCLUDED.state THEN h.changed_at ELSE EXCLUDED.changed_at END
       RETURNING h.merchant_id, h.state, h.failing_since, h.last_error
     )
     SELECT u.merchant_id, p.state AS previous, u.state, u.failing_since, u.last_error, m.orders_webhook_url AS url
       FROM upserted u LEFT JOIN previous p ON p.merchant_id = u.merchant_id
       JOIN merchants m ON m.id = u.merchant_id
      WHERE p.state IS DISTINCT FROM u.state`,
    unnestParams(outcomes, ['merchantId', 'ok', 'error', 'at']),
  );
  return rows;
}

export interface EndpointHealthRow {
  merchant_id: string;
  url: string | null;
  /** The profile of the key that registered the URL (null: none, or deleted): the webhook path (D28). */
  profile: 'cleaver' | 'opendelivery' | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  state: 'healthy' | 'failing' | null;
  failing_since: Date | null;
  last_error: string | null;
  last_success_at: Date | null;
  last_attempt_at: Date | null;
}

export async function endpointHealthOf(db: Queryable, merchantIds: string[]): Promise<EndpointHealthRow[]> {
  const { rows } = await db.query<EndpointHealthRow>(
    `SELECT m.id AS merchant_id, m.orders_webhook_url AS url, m.webhook_disabled_at AS disabled_at,
            m.webhook_disabled_reason AS disabled_reason, h.state, h.failing_since, h.last_error,
            h.last_success_at, h.last_attempt_at,
            (SELECT k.profile FROM integration_keys k WHERE k.id = m.webhook_key_id) AS profile
       FROM merchants m LEFT JOIN webhook_endpoint_health h ON h.merchant_id = m.id
      WHERE m.id = ANY($1::uuid[])`,
    [merchantIds],
  );
  return rows;
}

/**
 * Endpoints in trouble now, failing the longest first: every failing one, the disabled among
 * them (a 410 or failing too long is a failed attempt first), and how many there are in all.
 * The partial index on failing endpoints keeps this cheap enough for every console page.
 */
export async function troubledEndpoints(
  db: Queryable,
  limit: number,
): Promise<{ rows: EndpointHealthRow[]; total: number }> {
  const { rows } = await db.query<EndpointHealthRow & { total: string }>(
    `SELECT m.id AS merchant_id, m.orders_webhook_url AS url, m.webhook_disabled_at AS disabled_at,
            m.webhook_disabled_reason AS disabled_reason, h.state, h.failing_since, h.last_error,
            h.last_success_at, h.last_attempt_at, count(*) OVER () AS total,
            (SELECT k.profile FROM integration_keys k WHERE k.id = m.webhook_key_id) AS profile
       FROM webhook_endpoint_health h JOIN merchants m ON m.id = h.merchant_id
      WHERE h.state = 'failing' AND m.orders_webhook_url IS NOT NULL
      ORDER BY h.failing_since, h.merchant_id LIMIT $1`,
    [limit],
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/** Endpoints failing since before `before` whose webhook is still enabled. */
export async function failingSince(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<Array<{ merchant_id: string; url: string }>> {
  const { rows } = await db.query<{ merchant_id: string; url: string }>(
    `SELECT h.merchant_id, m.orders_webhook_url AS url FROM webhook_endpoint_health h JOIN merchants m ON m.id = h.merchant_id
      WHERE h.state = 'failing' AND h.failing_since < $1 AND m.webhook_disabled_at IS NULL
        AND m.orders_webhook_url IS NOT NULL
      ORDER BY h.failing_since LIMIT $2`,
    [before, limit],
  );
  return rows;
}

/** Disables a merchant's webhook with a reason (a 410, or failing too long), unless re-registered since. */
export async function disableWebhookWithReason(
  db: Queryable,
  merchantId: string,
  baseUrl: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE merchants SET webhook_disabled_at = $3, webhook_disabled_reason = $4, updated_at = $3
      WHERE id = $1 AND orders_webhook_url = $2 AND webhook_disabled_at IS NULL`,
    [merchantId, baseUrl, at, reason],
  );
  return rowCount > 0;
}

export async function countEndpointsByState(
  db: Queryable,
): Promise<{ healthy: number; failing: number; disabled: number }> {
  const { rows } = await db.query<{ healthy: number; failing: number; disabled: number }>(
    `SELECT count(*) FILTER (WHERE m.webhook_disabled_at IS NULL AND h.state = 'healthy')::int AS healthy,
            count(*) FILTER (WHERE m.webhook_disabled_at IS NULL AND h.state = 'failing')::int AS failing,
            (SELECT count(*)::int FROM merchants WHERE webhook_disabled_at IS NOT NULL) AS disabled
       FROM webhook_endpoint_health h JOIN merchants m ON m.id = h.merchant_id`,
  );
  return rows[0] ?? { healthy: 0, failing: 0, disabled: 0 };
}
