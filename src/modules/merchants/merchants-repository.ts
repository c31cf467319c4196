import type { Queryable } from '../../db/db.js';

export interface MerchantRow {
  id: string;
  name: string;
  status: 'AVAILABLE' | 'UNAVAILABLE';
  pdv_external_id: string | null;
  orders_webhook_url: string | null;
  webhook_key_id: string | null;
  webhook_disabled_at: Date | null;
  get_merchant_base_url: string | null;
  get_merchant_api_key_enc: string | null;
  onboarded_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, name, status, pdv_external_id, orders_webhook_url, webhook_key_id, webhook_disabled_at,
  get_merchant_base_url, get_merchant_api_key_enc, onboarded_at, created_at, updated_at`;

export async function insertMerchant(
  db: Queryable,
  merchant: { id: string; name: string; status: string; createdAt: Date },
): Promise<MerchantRow | undefined> {
  const { rows } = await db.query<MerchantRow>(
    `INSERT INTO merchants (id, name, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
    [merchant.id, merchant.name, merchant.status, merchant.createdAt],
  );
  return rows[0];
}

export async function findMerchant(db: Queryable, id: string): Promise<MerchantRow | undefined> {
  const { rows } = await db.query<MerchantRow>(`SELECT ${COLUMNS} FROM merchants WHERE id = $1`, [id]);
  return rows[0];
}

export async function listMerchants(db: Queryable): Promise<MerchantRow[]> {
  const { rows } = await db.query<MerchantRow>(`SELECT ${COLUMNS} FROM merchants ORDER BY created_at, id`);
  return rows;
}

export async function updateMerchantProfile(
  db: Queryable,
  id: string,
  changes: { name?: string; status?: string },
  at: Date,
): Promise<MerchantRow | undefined> {
  const { rows } = await db.query<MerchantRow>(
    `UPDATE merchants SET name = COALESCE($2, name), status = COALESCE($3, status), updated_at = $4
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, changes.name ?? null, changes.status ?? null, at],
  );
  return rows[0];
}

/** Spec 4.2: only the fields sent change; a new webhook URL re-enables delivery (D11). */
export async function updateOnboarding(
  db: Queryable,
  id: string,
  settings: {
    ordersWebhookURL: string;
    webhookKeyId: string;
    getMerchantURL?: { baseURL: string; apiKeyEnc: string };
  },
  at: Date,
): Promise<MerchantRow | undefined> {
  const { rows } = await db.query<MerchantRow>(
    `UPDATE merchants
        SET orders_webhook_url = $2,
            webhook_key_id = $3,
            webhook_disabled_at = NULL,
            get_merchant_base_url = COALESCE($4, get_merchant_base_url),
            get_merchant_api_key_enc = COALESCE($5, get_merchant_api_key_enc),
            onboarded_at = $6,
            updated_at = $6
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      settings.ordersWebhookURL,
      settings.webhookKeyId,
      settings.getMerchantURL?.baseURL ?? null,
      settings.getMerchantURL?.apiKeyEnc ?? null,
      at,
    ],
  );
  return rows[0];
}
