import type { Queryable } from '../../db/db.js';

export interface IntegrationKeyRow {
  id: string;
  merchant_id: string;
  name: string;
  secret_hash: string;
  secret_enc: string;
  created_at: Date;
  last_used_at: Date | null;
}

export async function insertIntegrationKey(
  db: Queryable,
  key: { id: string; merchantId: string; name: string; secretHash: string; secretEnc: string; createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO integration_keys (id, merchant_id, name, secret_hash, secret_enc, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [key.id, key.merchantId, key.name, key.secretHash, key.secretEnc, key.createdAt],
  );
}

export async function findActiveKey(db: Queryable, keyId: string): Promise<IntegrationKeyRow | undefined> {
  const { rows } = await db.query<IntegrationKeyRow>(
    `SELECT id, merchant_id, name, secret_hash, secret_enc, created_at, last_used_at
       FROM integration_keys WHERE id = $1 AND deleted_at IS NULL`,
    [keyId],
  );
  return rows[0];
}

export async function listActiveKeys(db: Queryable, merchantId: string): Promise<IntegrationKeyRow[]> {
  const { rows } = await db.query<IntegrationKeyRow>(
    `SELECT id, merchant_id, name, secret_hash, secret_enc, created_at, last_used_at
       FROM integration_keys WHERE merchant_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
    [merchantId],
  );
  return rows;
}

/** Soft delete: events and deliveries keep referring to the key; its tokens stop working. */
export async function markKeyDeleted(db: Queryable, merchantId: string, keyId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE integration_keys SET deleted_at = $3 WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
    [keyId, merchantId, at],
  );
  return rowCount > 0;
}

export async function touchKey(db: Queryable, keyId: string, at: Date): Promise<void> {
  await db.query('UPDATE integration_keys SET last_used_at = $2 WHERE id = $1', [keyId, at]);
}

/** One read on a cache miss: is the key alive for this merchant, and is this token revoked? */
export async function checkTokenState(
  db: Queryable,
  keyId: string,
  merchantId: string,
  jti: string,
): Promise<{ keyActive: boolean; revoked: boolean }> {
  const { rows } = await db.query<{ key_active: boolean; revoked: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM integration_keys
                     WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL) AS key_active,
            EXISTS (SELECT 1 FROM auth_revocations WHERE jti = $3) AS revoked`,
    [keyId, merchantId, jti],
  );
  return { keyActive: rows[0]?.key_active === true, revoked: rows[0]?.revoked === true };
}

export interface RevocationRow {
  seq: number;
  jti: string | null;
  key_id: string | null;
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

export async function readRevocationsAfter(db: Queryable, seq: number, now: Date): Promise<RevocationRow[]> {
  const { rows } = await db.query<RevocationRow>(
    `SELECT seq, jti, key_id FROM auth_revocations
      WHERE seq > $1 AND expires_at > $2 ORDER BY seq LIMIT 5000`,
    [seq, now],
  );
  return rows;
}

export async function deleteExpiredRevocations(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM auth_revocations WHERE expires_at <= $1', [now]);
}
