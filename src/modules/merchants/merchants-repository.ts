import type { Queryable } from '../../db/db.js';
import { type SearchPageFilter, searchPageParams } from '../../db/search-page.js';
import type { ScaleLabelLayout } from '../scale-labels/index.js';

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
  /** D38: ± share of the ordered quantity a weighing may differ by (numeric as text, exact). */
  weighing_tolerance_percent: string;
  /** D41: the scale label layouts, tried in order. */
  scale_label_layouts: ScaleLabelLayout[];
  /** D42: what a weighing out of tolerance does, how long the platform has, and the default. */
  weighing_out_of_tolerance: 'REFUSE' | 'ASK';
  weighing_approval_seconds: number;
  weighing_approval_default: 'ACCEPT' | 'REJECT' | 'REMOVE_LINES';
  /** D43: the store's timed pause (status UNAVAILABLE until paused_until); null: not paused. */
  pause_reason: string | null;
  paused_until: Date | null;
  /** D44: the scheduling settings as set; null: the defaults. */
  scheduling: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, name, status, pdv_external_id, orders_webhook_url, webhook_key_id, webhook_disabled_at,
  get_merchant_base_url, get_merchant_api_key_enc, onboarded_at, weighing_tolerance_percent::text AS weighing_tolerance_percent,
  scale_label_layouts, weighing_out_of_tolerance, weighing_approval_seconds, weighing_approval_default,
  pause_reason, paused_until, scheduling, created_at, updated_at`;
/** The same columns of `merchants m`, for statements that join another row source. */
const M_COLUMNS = COLUMNS.split(',')
  .map((c) => `m.${c.trim()}`)
  .join(', ');

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

export async function existingMerchantIds(db: Queryable, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM merchants WHERE id = ANY($1::uuid[])', [ids]);
  return rows.map((r) => r.id);
}

/** Names of these merchants (a page of a list that spans merchants shows who each row is of). */
export async function merchantNames(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM merchants WHERE id = ANY($1::uuid[])',
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function findMerchant(db: Queryable, id: string): Promise<MerchantRow | undefined> {
  const { rows } = await db.query<MerchantRow>(`SELECT ${COLUMNS} FROM merchants WHERE id = $1`, [id]);
  return rows[0];
}

/**
 * A page of merchants by creation (keyset after `after`), optionally matching `q`: part of the
 * name (any case), or exactly the id or the store's POS code.
 */
export async function listMerchants(
  db: Queryable,
  filter: SearchPageFilter & { status?: string } = {},
): Promise<MerchantRow[]> {
  const page = searchPageParams(filter);
  const { rows } = await db.query<MerchantRow>(
    `SELECT ${COLUMNS} FROM merchants
      WHERE ($1::text IS NULL OR name ILIKE '%' || $6 || '%' OR id::text = lower($1) OR pdv_external_id = $1)
        AND ($2::text IS NULL OR status = $2)
        AND ($3::timestamptz IS NULL OR (created_at, id) > ($3, $4::uuid))
      ORDER BY created_at, id LIMIT $5`,
    [page.q, filter.status ?? null, page.afterAt, page.afterId, page.limit, page.qLiteral],
  );
  return rows;
}

/**
 * A name or status set by an operator or a POS notification. A status set by hand also ends a
 * switch-off made by presence: from then on the person's choice stands.
 */
export async function updateMerchantProfile(
  db: Queryable,
  id: string,
  changes: { name?: string; status?: string; weighingTolerancePercent?: string } & WeighingApprovalSettings,
  at: Date,
): Promise<(MerchantRow & { previous_status: string }) | undefined> {
  const { rows } = await db.query<MerchantRow & { previous_status: string }>(
    `WITH before AS (SELECT status FROM merchants WHERE id = $1 FOR UPDATE)
     UPDATE merchants m SET name = COALESCE($2, m.name), status = COALESCE($3, m.status), updated_at = $4,
            auto_unavailable_at = CASE WHEN $3::text IS NULL THEN m.auto_unavailable_at END,
            pause_reason = CASE WHEN $3::text IS NULL THEN m.pause_reason END,
            paused_until = CASE WHEN $3::text IS NULL THEN m.paused_until END,
            weighing_tolerance_percent = COALESCE($5::numeric, m.weighing_tolerance_percent),
            weighing_out_of_tolerance = COALESCE($6, m.weighing_out_of_tolerance),
            weighing_approval_seconds = COALESCE($7::int, m.weighing_approval_seconds),
            weighing_approval_default = COALESCE($8, m.weighing_approval_default)
       FROM before
      WHERE m.id = $1 RETURNING ${M_COLUMNS}, before.status AS previous_status`,
    [
      id,
      changes.name ?? null,
      changes.status ?? null,
      at,
      changes.weighingTolerancePercent ?? null,
      changes.weighingOutOfTolerance ?? null,
      changes.weighingApprovalSeconds ?? null,
      changes.weighingApprovalDefault ?? null,
    ],
  );
  return rows[0];
}

/** D42: the merchant's weighing approval settings, as PATCH /admin/v1/merchants/{id} sets them. */
export interface WeighingApprovalSettings {
  weighingOutOfTolerance?: 'REFUSE' | 'ASK';
  weighingApprovalSeconds?: number;
  weighingApprovalDefault?: 'ACCEPT' | 'REJECT' | 'REMOVE_LINES';
}

/** D41: replaces the merchant's label layouts; undefined when there is no such merchant. */
export async function setScaleLabelLayouts(
  db: Queryable,
  id: string,
  layouts: ScaleLabelLayout[],
  at: Date,
): Promise<ScaleLabelLayout[] | undefined> {
  const { rows } = await db.query<{ scale_label_layouts: ScaleLabelLayout[] }>(
    `UPDATE merchants SET scale_label_layouts = $2::jsonb, updated_at = $3 WHERE id = $1 RETURNING scale_label_layouts`,
    [id, JSON.stringify(layouts), at],
  );
  return rows[0]?.scale_label_layouts;
}

export async function insertHistory(
  db: Queryable,
  entry: { merchantId: string; at: Date; kind: string; detail: Record<string, unknown> },
): Promise<void> {
  await db.query('INSERT INTO merchant_history (merchant_id, at, kind, detail) VALUES ($1, $2, $3, $4::jsonb)', [
    entry.merchantId,
    entry.at,
    entry.kind,
    JSON.stringify(entry.detail),
  ]);
}

export interface HistoryRow {
  id: number;
  at: Date;
  kind: string;
  detail: Record<string, unknown>;
}

export async function listHistory(db: Queryable, merchantId: string, limit: number): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    'SELECT id, at, kind, detail FROM merchant_history WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2',
    [merchantId, limit],
  );
  return rows;
}

/** Presence's switch-off: only an AVAILABLE merchant not switched off already. */
export async function switchOffByPresence(db: Queryable, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE merchants SET status = 'UNAVAILABLE', auto_unavailable_at = $2, updated_at = $2
      WHERE id = $1 AND status = 'AVAILABLE' AND auto_unavailable_at IS NULL`,
    [id, at],
  );
  return rowCount > 0;
}

/** Undoes presence's own switch-offs among `ids` (never one an operator made). */
export async function switchBackByPresence(db: Queryable, ids: string[], at: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `UPDATE merchants SET status = 'AVAILABLE', auto_unavailable_at = NULL, updated_at = $2
      WHERE id = ANY($1::uuid[]) AND auto_unavailable_at IS NOT NULL AND status = 'UNAVAILABLE'
      RETURNING id`,
    [ids, at],
  );
  return rows.map((r) => r.id);
}

export async function autoUnavailableIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM merchants WHERE auto_unavailable_at IS NOT NULL');
  return rows.map((r) => r.id);
}

/**
 * Spec 4.3: a MERCHANT catalog upload sets the order-receiving switch and the store's POS id, in
 * the transaction that applies the catalog (the caller's); an unchanged row is not rewritten.
 */
export async function applyCatalogIdentity(
  db: Queryable,
  id: string,
  identity: { status: string; pdvExternalId: string },
  at: Date,
): Promise<{ previousStatus: string } | undefined> {
  const { rows } = await db.query<{ previous_status: string }>(
    `WITH before AS (SELECT status FROM merchants WHERE id = $1 FOR UPDATE)
     UPDATE merchants m SET status = $2, pdv_external_id = $3, updated_at = $4
       FROM before
      WHERE m.id = $1 AND (m.status IS DISTINCT FROM $2 OR m.pdv_external_id IS DISTINCT FROM $3)
      RETURNING before.status AS previous_status`,
    [id, identity.status, identity.pdvExternalId, at],
  );
  return rows[0] ? { previousStatus: rows[0].previous_status } : undefined;
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
            webhook_disabled_at = NULL, webhook_disabled_reason = NULL,
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

// ---- D43: the store's timed pause -----------------------------------------------------------

/** Pauses the store: UNAVAILABLE until `until`, with the reason; the status before is returned. */
export async function pauseMerchant(
  db: Queryable,
  id: string,
  pause: { reason: string; until: Date },
  at: Date,
): Promise<(MerchantRow & { previous_status: string }) | undefined> {
  const { rows } = await db.query<MerchantRow & { previous_status: string }>(
    `WITH before AS (SELECT status FROM merchants WHERE id = $1 FOR UPDATE)
     UPDATE merchants m SET status = 'UNAVAILABLE', pause_reason = $2, paused_until = $3, auto_unavailable_at = NULL,
            updated_at = $4
       FROM before
      WHERE m.id = $1 RETURNING ${M_COLUMNS}, before.status AS previous_status`,
    [id, pause.reason, pause.until, at],
  );
  return rows[0];
}

/**
 * Ends a pause: AVAILABLE again. Only a paused store (a compare-and-set on the pause), so the
 * sweep of two workers and a POS's resume never end one pause twice; `due` ends only a pause
 * whose time has come.
 */
export async function endPause(
  db: Queryable,
  id: string,
  at: Date,
  due?: Date,
): Promise<(MerchantRow & { previous_status: string; ended_reason: string | null }) | undefined> {
  const { rows } = await db.query<MerchantRow & { previous_status: string; ended_reason: string | null }>(
    `WITH before AS (SELECT status, pause_reason FROM merchants WHERE id = $1 AND paused_until IS NOT NULL FOR UPDATE)
     UPDATE merchants m SET status = 'AVAILABLE', pause_reason = NULL, paused_until = NULL, updated_at = $2
       FROM before
      WHERE m.id = $1 AND m.paused_until IS NOT NULL AND ($3::timestamptz IS NULL OR m.paused_until <= $3)
      RETURNING ${M_COLUMNS}, before.status AS previous_status, before.pause_reason AS ended_reason`,
    [id, at, due ?? null],
  );
  return rows[0];
}

/** Stores whose pause has come to its end (the sweep ends each with endPause). */
export async function duePauses(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM merchants WHERE paused_until IS NOT NULL AND paused_until <= $1 ORDER BY paused_until LIMIT $2',
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/** D44: the scheduling settings, as the operator set them (validated by the service). */
export async function setScheduling(
  db: Queryable,
  id: string,
  scheduling: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await db.query('UPDATE merchants SET scheduling = $2::jsonb, updated_at = $3 WHERE id = $1', [
    id,
    JSON.stringify(scheduling),
    at,
  ]);
}
