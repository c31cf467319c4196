import type { Queryable } from '../../db/db.js';
import type { IntegrationProfile } from './profiles.js';

export interface IntegrationKeyRow {
  id: string;
  merchant_id: string;
  name: string;
  secret_hash: string;
  secret_enc: string;
  created_at: Date;
  last_used_at: Date | null;
  profile: IntegrationProfile;
  /** D42: the opt-in event types the key asked for (the integration setting `extraEventTypes`). */
  extra_event_types: string[];
}

const KEY_COLUMNS =
  'id, merchant_id, name, secret_hash, secret_enc, created_at, last_used_at, profile, extra_event_types';

export async function insertIntegrationKey(
  db: Queryable,
  key: {
    id: string;
    merchantId: string;
    name: string;
    secretHash: string;
    secretEnc: string;
    createdAt: Date;
    profile: IntegrationProfile;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO integration_keys (id, merchant_id, name, secret_hash, secret_enc, created_at, profile)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [key.id, key.merchantId, key.name, key.secretHash, key.secretEnc, key.createdAt, key.profile],
  );
}

export async function findActiveKey(db: Queryable, keyId: string): Promise<IntegrationKeyRow | undefined> {
  const { rows } = await db.query<IntegrationKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM integration_keys WHERE id = $1 AND deleted_at IS NULL`,
    [keyId],
  );
  return rows[0];
}

export async function listActiveKeys(db: Queryable, merchantId: string): Promise<IntegrationKeyRow[]> {
  const { rows } = await db.query<IntegrationKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM integration_keys WHERE merchant_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
    [merchantId],
  );
  return rows;
}

/** D42: a live key of this merchant asks for these opt-in event types (and no others). */
export async function updateKeyExtraEventTypes(
  db: Queryable,
  merchantId: string,
  keyId: string,
  types: string[],
): Promise<IntegrationKeyRow | undefined> {
  const { rows } = await db.query<IntegrationKeyRow>(
    `UPDATE integration_keys SET extra_event_types = $3::text[]
      WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL
     RETURNING ${KEY_COLUMNS}`,
    [keyId, merchantId, types],
  );
  return rows[0];
}

/** D27: a live key of this merchant takes another profile; undefined when there is no such key. */
export async function updateKeyProfile(
  db: Queryable,
  merchantId: string,
  keyId: string,
  profile: IntegrationProfile,
): Promise<{ row: IntegrationKeyRow; changed: boolean } | undefined> {
  const { rows } = await db.query<IntegrationKeyRow & { previous: IntegrationProfile }>(
    `UPDATE integration_keys k SET profile = $3
       FROM (SELECT id, profile AS previous FROM integration_keys
              WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL FOR UPDATE) old
      WHERE k.id = old.id
     RETURNING k.id, k.merchant_id, k.name, k.secret_hash, k.secret_enc, k.created_at, k.last_used_at, k.profile,
               k.extra_event_types, old.previous`,
    [keyId, merchantId, profile],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { previous, ...key } = row;
  return { row: key, changed: previous !== profile };
}

/** The feed row every process tails (architecture.md#revocation-feed). */
export async function insertProfileChange(
  db: Queryable,
  change: { keyId: string; profile: IntegrationProfile; expiresAt: Date },
): Promise<void> {
  await db.query('INSERT INTO key_profile_changes (key_id, profile, expires_at) VALUES ($1, $2, $3)', [
    change.keyId,
    change.profile,
    change.expiresAt,
  ]);
}

/** Soft delete: events and deliveries keep referring to the key; its tokens stop working. */
export async function markKeyDeleted(db: Queryable, merchantId: string, keyId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE integration_keys SET deleted_at = $3 WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    [keyId, merchantId, at],
  );
  return rowCount > 0;
}

/** When each key last got a token (presence). */
export async function lastTokenTimes(db: Queryable, keyIds: string[]): Promise<Map<string, Date | null>> {
  const { rows } = await db.query<{ id: string; last_used_at: Date | null }>(
    'SELECT id, last_used_at FROM integration_keys WHERE id = ANY($1::uuid[])',
    [keyIds],
  );
  return new Map(rows.map((r) => [r.id, r.last_used_at]));
}

export async function touchKey(db: Queryable, keyId: string, at: Date): Promise<void> {
  await db.query('UPDATE integration_keys SET last_used_at = $2 WHERE id = $1', [keyId, at]);
}

/**
 * One read on a cache miss: is the key alive for this merchant (and with which profile, D27),
 * and is this token revoked?
 */
export interface TokenStateQuery {
  keyId: string;
  merchantId: string;
  jti: string;
}

export interface TokenState {
  keyActive: boolean;
  revoked: boolean;
  profile: IntegrationProfile | null;
}

/**
 * The state of each token in one statement, in the order asked: whether its key still exists for
 * its merchant (and the key's profile), and whether the token itself was revoked.
 */
export async function checkTokenStates(db: Queryable, queries: readonly TokenStateQuery[]): Promise<TokenState[]> {
  const { rows } = await db.query<{ profile: IntegrationProfile | null; revoked: boolean }>(
    `SELECT k.profile, EXISTS (SELECT 1 FROM auth_revocations r WHERE r.jti = q.jti) AS revoked
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS q (key_id, merchant_id, jti, n)
       LEFT JOIN integration_keys k ON k.id = q.key_id AND k.merchant_id = q.merchant_id AND k.deleted_at IS NULL
      ORDER BY q.n`,
    [queries.map((q) => q.keyId), queries.map((q) => q.merchantId), queries.map((q) => q.jti)],
    { prepare: 'auth-token-states' },
  );
  return rows.map((r) => ({ keyActive: r.profile !== null, revoked: r.revoked === true, profile: r.profile }));
}

export interface RevocationRow {
  seq: number;
  jti: string | null;
  key_id: string | null;
}

export interface ProfileChangeRow {
  seq: number;
  key_id: string;
  profile: IntegrationProfile;
}

/**
 * The revocations and the profile changes are two logs tailed the same way: the unexpired rows
 * after `seq`, oldest first, at most 5,000 a read. Each SQL text keeps its own prepared name.
 */
const TAILED_LOGS = {
  revocations: {
    sql: 'SELECT seq, jti, key_id FROM auth_revocations WHERE seq > $1 AND expires_at > $2 ORDER BY seq LIMIT 5000',
    prepare: 'auth-revocations-after',
  },
  profileChanges: {
    sql: 'SELECT seq, key_id, profile FROM key_profile_changes WHERE seq > $1 AND expires_at > $2 ORDER BY seq LIMIT 5000',
    prepare: 'auth-profile-changes-after',
  },
};

async function readLogAfter<T>(db: Queryable, log: keyof typeof TAILED_LOGS, seq: number, now: Date): Promise<T[]> {
  const { sql, prepare } = TAILED_LOGS[log];
  const { rows } = await db.query<T>(sql, [seq, now], { prepare });
  return rows;
}

/** The profile changes after `seq`, oldest first (tailed with the revocations). */
export function readProfileChangesAfter(db: Queryable, seq: number, now: Date): Promise<ProfileChangeRow[]> {
  return readLogAfter<ProfileChangeRow>(db, 'profileChanges', seq, now);
}

export async function insertRevocation(
  db: Queryable,
  revocation: { jti?: string; keyId?: string; expiresAt: Date },
): Promise<void> {
  await db.query('INSERT INTO auth_revocations (jti, key_id, expires_at) VALUES ($1, $2, $3)', [
    revocation.jti ?? null,
    revocation.keyId ?? null,
    revocation.expiresAt,
  ]);
}

export function readRevocationsAfter(db: Queryable, seq: number, now: Date): Promise<RevocationRow[]> {
  return readLogAfter<RevocationRow>(db, 'revocations', seq, now);
}

export async function deleteExpiredRevocations(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM auth_revocations WHERE expires_at <= $1', [now]);
  await db.query('DELETE FROM key_profile_changes WHERE expires_at <= $1', [now]);
}
