// All SQL of the audit log. Only INSERT and SELECT: the table refuses UPDATE and DELETE
// (migration 0008).
import type { Queryable } from '../../db/db.js';

export type ActorKind = 'bootstrap' | 'operator' | 'token' | 'anonymous';
export type Channel = 'api' | 'console';

/** What an entry says, in the columns whose names need no translation between SQL and code. */
interface AuditEntryFields {
  at: Date;
  actor: string;
  role: string | null;
  channel: Channel;
  action: string;
  target: Record<string, string>;
  details: Record<string, unknown>;
  outcome: 'success' | 'failure';
  reason: string | null;
  ip: string | null;
}

export interface AuditInsert extends AuditEntryFields {
  actorKind: ActorKind;
  operatorId: string | null;
  tokenId: string | null;
  statusCode: number;
  userAgent: string | null;
}

export interface AuditRow extends AuditEntryFields {
  id: number;
  actor_kind: ActorKind;
  operator_id: string | null;
  token_id: string | null;
  status_code: number;
  user_agent: string | null;
}

export async function insertAudit(db: Queryable, e: AuditInsert): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (at, actor_kind, actor, operator_id, token_id, role, channel, action, target, details,
                            status_code, outcome, reason, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14, $15)`,
    [
      e.at,
      e.actorKind,
      e.actor,
      e.operatorId,
      e.tokenId,
      e.role,
      e.channel,
      e.action,
      JSON.stringify(e.target),
      JSON.stringify(e.details),
      e.statusCode,
      e.outcome,
      e.reason,
      e.ip,
      e.userAgent,
    ],
  );
}

export interface AuditFilter {
  /** An operator's email or id, a token id, `bootstrap-token` or `anonymous`. */
  actor?: string;
  /** An action (`integrationKey.create`) or a family (`integrationKey`). */
  action?: string;
  since?: Date;
  until?: Date;
}

/**
 * Newest first (`order: 'desc'`, the list) or oldest first (`asc`, the export), keyset-paged on
 * id: `after` is the id of the last row already seen.
 */
export async function listAudit(
  db: Queryable,
  filter: AuditFilter,
  page: { limit: number; after?: number; order: 'asc' | 'desc' },
): Promise<AuditRow[]> {
  const desc = page.order === 'desc';
  const { rows } = await db.query<AuditRow>(
    `SELECT id, at, actor_kind, actor, operator_id, token_id, role, channel, action, target, details,
            status_code, outcome, reason, ip, user_agent
       FROM audit_log
      WHERE ($1::text IS NULL OR lower(actor) = lower($1) OR operator_id::text = lower($1) OR token_id::text = lower($1))
        AND ($2::text IS NULL OR action = $2 OR action LIKE $2 || '.%')
        AND ($3::timestamptz IS NULL OR at >= $3)
        AND ($4::timestamptz IS NULL OR at < $4)
        AND ($5::bigint IS NULL OR ${desc ? 'id < $5' : 'id > $5'})
      ORDER BY id ${desc ? 'DESC' : 'ASC'} LIMIT $6`,
    [
      filter.actor ?? null,
      filter.action ?? null,
      filter.since ?? null,
      filter.until ?? null,
      page.after ?? null,
      page.limit,
    ],
  );
  return rows;
}
