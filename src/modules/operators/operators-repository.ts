// All SQL of operator accounts, console sessions, personal tokens and login throttles.
import type { Queryable } from '../../db/db.js';
import type { Role } from './roles.js';

export interface OperatorRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  totp_secret_enc: string | null;
  totp_pending_enc: string | null;
  totp_last_step: number | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const OPERATOR_COLUMNS = `id, email, name, role, password_hash, totp_secret_enc, totp_pending_enc, totp_last_step,
  disabled_at, created_at, updated_at`;

/** False when the email is taken (case-insensitive unique index). */
export async function insertOperator(
  db: Queryable,
  o: { id: string; email: string; name: string; role: Role; passwordHash: string | null; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO operators (id, email, name, role, password_hash, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT DO NOTHING`,
    [o.id, o.email, o.name, o.role, o.passwordHash, o.at],
  );
  return rowCount > 0;
}

export async function findOperator(db: Queryable, id: string): Promise<OperatorRow | undefined> {
  const { rows } = await db.query<OperatorRow>(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE id = $1`, [id]);
  return rows[0];
}

export async function findOperatorByEmail(db: Queryable, email: string): Promise<OperatorRow | undefined> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM operators WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0];
}

/** Keyset page in creation order; `after` is the (created_at, id) of the last row seen. */
export async function listOperators(
  db: Queryable,
  page: { limit: number; after?: { createdAt: Date; id: string } },
): Promise<OperatorRow[]> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM operators
      WHERE ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
      ORDER BY created_at, id LIMIT $1`,
    [page.limit, page.after?.createdAt ?? null, page.after?.id ?? null],
  );
  return rows;
}

export async function updateOperator(
  db: Queryable,
  id: string,
  change: { role?: Role; disabled?: boolean },
  at: Date,
): Promise<OperatorRow | undefined> {
  const { rows } = await db.query<OperatorRow>(
    `UPDATE operators SET
        role = coalesce($2, role),
        disabled_at = CASE WHEN $3::boolean IS NULL THEN disabled_at
                           WHEN $3::boolean THEN coalesce(disabled_at, $4) ELSE NULL END,
        updated_at = $4
      WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
    [id, change.role ?? null, change.disabled ?? null, at],
  );
  return rows[0];
}

export async function setPasswordHash(db: Queryable, id: string, hash: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE operators SET password_hash = $2, updated_at = $3 WHERE id = $1', [
    id,
    hash,
    at,
  ]);
  return rowCount > 0;
}

export async function setTotpPending(db: Queryable, id: string, sealed: string, at: Date): Promise<void> {
  await db.query('UPDATE operators SET totp_pending_enc = $2, updated_at = $3 WHERE id = $1', [id, sealed, at]);
}

/** The pending secret becomes the active one; `step` is the step of the code that confirmed it. */
export async function enableTotp(db: Queryable, id: string, pending: string, step: number, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE operators SET totp_secret_enc = totp_pending_enc, totp_pending_enc = NULL, totp_last_step = $3,
            updated_at = $4
      WHERE id = $1 AND totp_pending_enc = $2`,
    [id, pending, step, at],
  );
  return rowCount > 0;
}

export async function clearTotp(db: Queryable, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE operators SET totp_secret_enc = NULL, totp_pending_enc = NULL, totp_last_step = NULL, updated_at = $2
      WHERE id = $1`,
    [id, at],
  );
  return rowCount > 0;
}

/** Compare-and-set: false when this step (or a later one) was already used, i.e. a replayed code. */
export async function useTotpStep(db: Queryable, id: string, step: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE operators SET totp_last_step = $2
      WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [id, step],
  );
  return rowCount > 0;
}

// ---------------------------------------------------------------------------------------------
// Personal tokens

export interface TokenRow {
  id: string;
  operator_id: string;
  name: string;
  role: Role;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const TOKEN_COLUMNS = 'id, operator_id, name, role, token_hash, created_at, expires_at, last_used_at, revoked_at';

export async function insertToken(
  db: Queryable,
  t: { id: string; operatorId: string; name: string; role: Role; tokenHash: string; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO operator_tokens (id, operator_id, name, role, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [t.id, t.operatorId, t.name, t.role, t.tokenHash, t.at, t.expiresAt],
  );
}

/** A token with its operator, in one read: what every operator API request with it needs. */
export async function findTokenWithOperator(
  db: Queryable,
  id: string,
): Promise<(TokenRow & { email: string; operator_role: Role; disabled_at: Date | null }) | undefined> {
  const { rows } = await db.query<TokenRow & { email: string; operator_role: Role; disabled_at: Date | null }>(
    `SELECT t.id, t.operator_id, t.name, t.role, t.token_hash, t.created_at, t.expires_at, t.last_used_at,
            t.revoked_at, o.email, o.role AS operator_role, o.disabled_at
       FROM operator_tokens t JOIN operators o ON o.id = t.operator_id WHERE t.id = $1`,
    [id],
  );
  return rows[0];
}

export async function listTokens(db: Queryable, operatorId: string): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM operator_tokens WHERE operator_id = $1 ORDER BY created_at DESC, id`,
    [operatorId],
  );
  return rows;
}

export async function revokeToken(db: Queryable, operatorId: string, tokenId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE operator_tokens SET revoked_at = $3 WHERE id = $1 AND operator_id = $2 AND revoked_at IS NULL',
    [tokenId, operatorId, at],
  );
  return rowCount > 0;
}

export async function revokeAllTokens(db: Queryable, operatorId: string, at: Date): Promise<number> {
  const { rowCount } = await db.query(
    'UPDATE operator_tokens SET revoked_at = $2 WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > $2',
    [operatorId, at],
  );
  return rowCount;
}

/** last_used_at at minute precision: one write a minute per token, not one per request. */
export async function touchToken(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE operator_tokens SET last_used_at = $2
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
    [id, at],
  );
}

// ---------------------------------------------------------------------------------------------
// Console sessions

export interface SessionRow {
  id_hash: string;
  operator_id: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  email: string | null;
  role: Role | null;
  disabled_at: Date | null;
}

export async function insertSession(
  db: Queryable,
  s: { idHash: string; operatorId: string | null; at: Date; expiresAt: Date; ip: string; userAgent: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO operator_sessions (id_hash, operator_id, created_at, last_seen_at, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $3, $4, $5, $6)`,
    [s.idHash, s.operatorId, s.at, s.expiresAt, s.ip, s.userAgent],
  );
}

/** Sessions past their absolute deadline are of no use to anyone: dropped now and then (at logins). */
export async function deleteExpiredSessions(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM operator_sessions WHERE expires_at < $1', [before]);
}

export async function findSession(db: Queryable, idHash: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    `SELECT s.id_hash, s.operator_id, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at,
            o.email, o.role, o.disabled_at
       FROM operator_sessions s LEFT JOIN operators o ON o.id = s.operator_id
      WHERE s.id_hash = $1`,
    [idHash],
  );
  return rows[0];
}

/** Activity moves the idle deadline; written at most once a minute per session. */
export async function touchSession(db: Queryable, idHash: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE operator_sessions SET last_seen_at = $2
      WHERE id_hash = $1 AND last_seen_at < $2::timestamptz - interval '1 minute'`,
    [idHash, at],
  );
}

export async function revokeSession(db: Queryable, idHash: string, at: Date): Promise<void> {
  await db.query('UPDATE operator_sessions SET revoked_at = $2 WHERE id_hash = $1 AND revoked_at IS NULL', [
    idHash,
    at,
  ]);
}

export async function revokeOperatorSessions(db: Queryable, operatorId: string, at: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE operator_sessions SET revoked_at = $2
      WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
    [operatorId, at],
  );
  return rowCount;
}

export async function countActiveSessions(db: Queryable, operatorId: string, at: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM operator_sessions
      WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
    [operatorId, at],
  );
  return rows[0]?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Login throttles

export interface ThrottleRow {
  key: string;
  failures: number;
  locked_until: Date | null;
}

export async function readThrottles(db: Queryable, keys: string[]): Promise<ThrottleRow[]> {
  const { rows } = await db.query<ThrottleRow>(
    'SELECT key, failures, locked_until FROM login_throttles WHERE key = ANY($1::text[])',
    [keys],
  );
  return rows;
}

/**
 * One more failure for each key (a count that restarts after `resetBefore`), then the lock each
 * key's count calls for, computed by `lockFor` (exponential backoff, see login-throttle.ts).
 */
export async function recordFailures(
  db: Queryable,
  keys: string[],
  at: Date,
  resetBefore: Date,
): Promise<Array<{ key: string; failures: number }>> {
  const { rows } = await db.query<{ key: string; failures: number }>(
    `INSERT INTO login_throttles (key, failures, last_failure_at)
     SELECT k, 1, $2 FROM unnest($1::text[]) AS k
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN login_throttles.last_failure_at < $3 THEN 1 ELSE login_throttles.failures + 1 END,
       last_failure_at = $2
     RETURNING key, failures`,
    [keys, at, resetBefore],
  );
  return rows;
}

export async function lockThrottles(db: Queryable, locks: Array<{ key: string; until: Date }>): Promise<void> {
  if (!locks.length) return;
  await db.query(
    `UPDATE login_throttles t SET locked_until = l.until
       FROM unnest($1::text[], $2::timestamptz[]) AS l(key, until) WHERE t.key = l.key`,
    [locks.map((l) => l.key), locks.map((l) => l.until)],
  );
}

/** Counts that restarted anyway (no failure for a day) and hold no lock: dropped at each failure. */
export async function deleteStaleThrottles(db: Queryable, quietSince: Date, at: Date): Promise<void> {
  await db.query(
    'DELETE FROM login_throttles WHERE last_failure_at < $1 AND (locked_until IS NULL OR locked_until < $2)',
    [quietSince, at],
  );
}

export async function clearThrottle(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttles WHERE key = $1', [key]);
}
