// SQL of applying an upload plan, in the caller's transaction (D16). Set-based: a fixed number of
// statements over unnest(...) arrays whatever the catalog size (style.md#sql), never a query per
// item. The merchant's own row (status, store id) is the merchants module's: the sync processor
// writes it through that module, in the same transaction. Size: one statement set per kind of
// upload (MERCHANT, ITEM, ITEM_OFFER), each counting what it really changed; split, the three would
// share their helpers across files for no reader's gain.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db.js';
import { unnestParams } from '../../db/unnest.js';
import { newSortableId } from './catalog-ids.js';
import type { ItemPlan, KindCounts, MerchantPlan, OfferPlan } from './catalog-upload-plan.js';

const newCode = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;

// The trade fields (D41, D42, D44) in every statement that writes items: the plan's columns,
// their unnest names and types, and the stored columns. Given, a field replaces the stored
// value; absent (null), the stored value stays. The weight's three columns go together.
const TRADE_COLUMNS = ['scaleCode', 'weightMin', 'weightMax', 'weightStep', 'leadTimeHours'] as const;
const TRADE_STORED = 'scale_code, weight_min, weight_max, weight_step, lead_time_hours';
const TRADE_NAMES = 'scale, wmin, wmax, wstep, lead';
const TRADE_TYPES = ['text', 'numeric', 'numeric', 'numeric', 'numeric'];
const TRADE_NAMES_OF = (alias: string) =>
  TRADE_NAMES.split(', ')
    .map((n) => `${alias}.${n}`)
    .join(', ');
/** `$first::text[], $(first+1)::numeric[], …`: the trade columns' unnest parameters. */
const TRADE_ARRAYS = (first: number) => TRADE_TYPES.map((type, i) => `$${first + i}::${type}[]`).join(', ');
/** The values an update leaves: the given one, or the stored one when absent (the weight's three as one). */
const TRADE_NEW =
  'COALESCE(u.scale, p.scale_code), COALESCE(u.wmin, p.weight_min), COALESCE(u.wmax, p.weight_max), ' +
  'COALESCE(u.wstep, p.weight_step), COALESCE(u.lead, p.lead_time_hours)';
const TRADE_SET =
  'scale_code = COALESCE(u.scale, p.scale_code), weight_min = COALESCE(u.wmin, p.weight_min), ' +
  'weight_max = COALESCE(u.wmax, p.weight_max), weight_step = COALESCE(u.wstep, p.weight_step), ' +
  'lead_time_hours = COALESCE(u.lead, p.lead_time_hours)';

/** The plan's rows the merchant has already, and the new ones, whose ids are chosen here (into `ids`). */
function splitByStored<T extends { pdvId: string }>(rows: T[], ids: Map<string, string>): [T[], T[]] {
  const stored = rows.filter((r) => ids.has(r.pdvId));
  const fresh = rows.filter((r) => !ids.has(r.pdvId));
  for (const r of fresh) ids.set(r.pdvId, newSortableId());
  return [stored, fresh];
}

/** Ids of the POS-linked rows whose POS id the payload's rows do not carry. */
function notIn(ids: Map<string, string>, rows: { pdvId: string }[]): string[] {
  const inPayload = new Set(rows.map((r) => r.pdvId));
  return [...ids].filter(([pdv]) => !inPayload.has(pdv)).map(([, id]) => id);
}

export async function applyMerchantPlan(
  tx: Queryable,
  merchantId: string,
  plan: MerchantPlan,
  at: Date,
): Promise<{ categories: KindCounts; products: KindCounts }> {
  // unnest(...) of tens of thousands of rows materialises in a tuplestore and hashes against the
  // existing rows: with the 4 MB default both spill to disk and a 50k-item upload stops scaling
  // linearly (bench/catalog.ts). For this transaction only.
  await tx.query(`SET LOCAL work_mem = '64MB'`);
  // What changed is counted from the statements themselves (RETURNING): an object the payload
  // matched counts as updated only when one of its stored values really changed, otherwise as
  // unchanged, so an identical re-push reports everything unchanged.
  const categories: KindCounts = { created: 0, updated: 0, unchanged: 0, removed: 0 };
  const products: KindCounts = { created: 0, updated: 0, unchanged: 0, removed: 0 };

  // Ids of the merchant's POS-linked rows, read once: new rows are inserted with ids chosen
  // here and links/images are written by id, so no statement re-joins on POS codes.
  const categoryIds = await posIds(tx, 'categories', merchantId);
  const productIds = await posIds(tx, 'products', merchantId);

  // Categories: index only at creation; name and status every upload (D19); rows that did not
  // change are not rewritten. A category whose products changed (a link added, dropped or moved)
  // is updated too: its itemOfferId is part of it in the payload.
  const [oldCats, newCats] = splitByStored(plan.categories, categoryIds);
  categories.created = newCats.length;
  const changedCats = new Set<string>();
  if (oldCats.length > 0) {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE categories c SET name = u.name, status = u.status, updated_at = $1
         FROM unnest($2::uuid[], $3::text[], $4::text[]) AS u(id, name, status)
        WHERE c.id = u.id AND (c.name, c.status) IS DISTINCT FROM (u.name, u.status)
       RETURNING c.id`,
      [at, oldCats.map((c) => categoryIds.get(c.pdvId)), oldCats.map((c) => c.name), oldCats.map((c) => c.status)],
    );
    for (const r of rows) changedCats.add(r.id);
  }
  if (newCats.length > 0) {
    await tx.query(
      `INSERT INTO categories (id, merchant_id, pdv_external_id, name, "index", status, external_code, created_at, updated_at)
       SELECT u.id, $1, u.pdv, u.name, u.idx, u.status, u.code, $2, $2
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[])
              AS u(id, pdv, name, idx, status, code)`,
      [
        merchantId,
        at,
        ...unnestParams(newCats, [
          (c) => categoryIds.get(c.pdvId),
          'pdvId',
          'name',
          'index',
          'status',
          () => newCode('CAT'),
        ]),
      ],
    );
  }

  // Products: name, description, unit only at creation; price and status from the offer; the
  // other item fields when given, kept when absent. Stock is never written (spec 4.3). Unchanged
  // rows are not rewritten, so re-sending the same catalog is cheap.
  const [oldPs, newPs] = splitByStored(plan.products, productIds);
  /** The stored id of a planned product (one made just above for a new one). */
  const productId = (p: { pdvId: string }) => productIds.get(p.pdvId);
  products.created = newPs.length;
  const changedProducts = new Set<string>();
  if (oldPs.length > 0) {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE products p
          SET price = u.price, status = u.status,
              external_code = COALESCE(u.code, p.external_code), ean = COALESCE(u.ean, p.ean),
              serving = COALESCE(u.serving, p.serving), nutritional_info = COALESCE(u.ni::jsonb, p.nutritional_info),
              ${TRADE_SET},
              updated_at = $1
         FROM unnest($2::uuid[], $3::numeric[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[],
                     ${TRADE_ARRAYS(9)})
              AS u(id, price, status, code, ean, serving, ni, ${TRADE_NAMES})
        WHERE p.id = u.id
          AND (p.price, p.status, p.external_code, p.ean, p.serving, p.nutritional_info, ${TRADE_STORED})
              IS DISTINCT FROM (u.price, u.status, COALESCE(u.code, p.external_code), COALESCE(u.ean, p.ean),
                                COALESCE(u.serving, p.serving), COALESCE(u.ni::jsonb, p.nutritional_info), ${TRADE_NEW})
       RETURNING p.id`,
      [
        at,
        ...unnestParams(oldPs, [
          productId,
          'price',
          'status',
          'externalCode',
          'ean',
          'serving',
          'nutritionalInfo',
          ...TRADE_COLUMNS,
        ]),
      ],
    );
    for (const r of rows) changedProducts.add(r.id);
  }
  if (newPs.length > 0) {
    await tx.query(
      `INSERT INTO products (id, merchant_id, pdv_external_id, name, description, price, unit, status, external_code,
                             ean, serving, nutritional_info, ${TRADE_STORED}, created_at, updated_at)
       SELECT u.id, $1, u.pdv, u.name, u.descr, u.price, u.unit, u.status, COALESCE(u.code, ''), COALESCE(u.ean, ''),
              COALESCE(u.serving, 0), u.ni::jsonb, ${TRADE_NAMES_OF('u')}, $2, $2
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::text[], $9::text[], $10::text[],
                     $11::text[], $12::int[], $13::text[], ${TRADE_ARRAYS(14)})
              AS u(id, pdv, name, descr, price, unit, status, code, ean, serving, ni, ${TRADE_NAMES})`,
      [
        merchantId,
        at,
        ...unnestParams(newPs, [
          productId,
          'pdvId',
          'name',
          'description',
          'price',
          'unit',
          'status',
          'externalCode',
          'ean',
          'serving',
          'nutritionalInfo',
          ...TRADE_COLUMNS,
        ]),
      ],
    );
  }
  // Images: new products get theirs by plain insert; existing ones have theirs replaced.
  const newImages = newPs.filter((p) => p.imageUrl !== null);
  if (newImages.length > 0) {
    await tx.query(
      `INSERT INTO product_media (product_id, position, url) SELECT u.id, 0, u.url FROM unnest($1::uuid[], $2::text[]) AS u(id, url)`,
      unnestParams(newImages, [productId, 'imageUrl']),
    );
  }
  const oldImages = oldPs.filter((p) => p.imageUrl !== null);
  const newImageIds = await replaceImages(
    tx,
    oldImages.map((p) => productIds.get(p.pdvId) as string),
    oldImages.map((p) => p.imageUrl as string),
  );
  await markWritten(
    tx,
    [...newImageIds].filter((id) => !changedProducts.has(id)),
    at,
  );
  for (const id of newImageIds) changedProducts.add(id);
  products.updated = changedProducts.size;
  products.unchanged = oldPs.length - products.updated;

  // Category-to-product links, at their position in category.itemOfferId. A link with a new
  // category or a new product cannot exist yet: plain insert; the others are upserted.
  const createdCats = new Set(newCats.map((c) => c.pdvId));
  const createdProducts = new Set(newPs.map((p) => p.pdvId));
  const isNewLink = (l: { categoryPdvId: string; productPdvId: string }) =>
    createdCats.has(l.categoryPdvId) || createdProducts.has(l.productPdvId);
  const newLinks = plan.links.filter(isNewLink);
  const oldLinks = plan.links.filter((l) => !isNewLink(l));
  const existingCat = new Set(oldCats.map((c) => categoryIds.get(c.pdvId) as string));
  for (const l of newLinks) {
    const id = categoryIds.get(l.categoryPdvId) as string;
    if (existingCat.has(id)) changedCats.add(id); // a new product in an existing category
  }
  if (plan.replace && oldCats.length > 0) {
    // Spec 4.3 (onlyAddProducts false): the payload's categories hold exactly the payload's POS
    // products; links to hand-made products are hand-made content and stay. Only categories that
    // existed before can hold links to drop.
    const { rows } = await tx.query<{ id: string }>(
      `DELETE FROM category_products cp
         USING products p
        WHERE cp.category_id = ANY($1::uuid[]) AND cp.product_id = p.id AND p.pdv_external_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM unnest($2::uuid[], $3::uuid[]) AS u(c, p)
                           WHERE u.c = cp.category_id AND u.p = cp.product_id)
       RETURNING cp.category_id AS id`,
      [
        oldCats.map((c) => categoryIds.get(c.pdvId)),
        oldLinks.map((l) => categoryIds.get(l.categoryPdvId)),
        oldLinks.map((l) => productIds.get(l.productPdvId)),
      ],
    );
    for (const r of rows) changedCats.add(r.id);
  }
  if (newLinks.length > 0) {
    await tx.query(
      `INSERT INTO category_products (category_id, product_id, position)
       SELECT u.c, u.p, u.pos FROM unnest($1::uuid[], $2::uuid[], $3::int[]) AS u(c, p, pos)`,
      [
        newLinks.map((l) => categoryIds.get(l.categoryPdvId)),
        newLinks.map((l) => productIds.get(l.productPdvId)),
        newLinks.map((l) => l.position),
      ],
    );
  }
  if (oldLinks.length > 0) {
    // RETURNING gives the links inserted or moved; the ones left as they were are not returned.
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO category_products (category_id, product_id, position)
       SELECT u.c, u.p, u.pos FROM unnest($1::uuid[], $2::uuid[], $3::int[]) AS u(c, p, pos)
       ON CONFLICT (category_id, product_id) DO UPDATE SET position = excluded.position
        WHERE category_products.position IS DISTINCT FROM excluded.position
       RETURNING category_id AS id`,
      [
        oldLinks.map((l) => categoryIds.get(l.categoryPdvId)),
        oldLinks.map((l) => productIds.get(l.productPdvId)),
        oldLinks.map((l) => l.position),
      ],
    );
    for (const r of rows) changedCats.add(r.id);
  }
  categories.updated = [...changedCats].filter((id) => existingCat.has(id)).length;
  categories.unchanged = oldCats.length - categories.updated;

  if (plan.replace) {
    // Removal rules (spec 4.3): only POS-linked records absent from the payload; their links,
    // images and cuts go with them (ON DELETE CASCADE); hand-made content stays.
    const goneProducts = notIn(productIds, plan.products);
    const goneCategories = notIn(categoryIds, plan.categories);
    const removedProducts = await tx.query(`DELETE FROM products WHERE id = ANY($1::uuid[])`, [goneProducts]);
    products.removed = removedProducts.rowCount;
    const removedCategories = await tx.query(`DELETE FROM categories WHERE id = ANY($1::uuid[])`, [goneCategories]);
    categories.removed = removedCategories.rowCount;
  }
  return { categories, products };
}

/** POS-linked rows of a merchant: POS code → internal id. */
async function posIds(
  tx: Queryable,
  table: 'categories' | 'products',
  merchantId: string,
): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ id: string; pdv: string }>(
    `SELECT id, pdv_external_id AS pdv FROM ${table} WHERE merchant_id = $1 AND pdv_external_id IS NOT NULL`,
    [merchantId],
  );
  return new Map(rows.map((r) => [r.pdv, r.id]));
}

/**
 * item.image.url → the product's one image (replaces what the POS sent before). Returns the ids
 * of the products whose images changed (one dropped or a new one written).
 */
async function replaceImages(tx: Queryable, productIds: string[], urls: string[]): Promise<Set<string>> {
  const changed = new Set<string>();
  if (productIds.length === 0) return changed;
  const dropped = await tx.query<{ id: string }>(
    `DELETE FROM product_media m USING unnest($1::uuid[], $2::text[]) AS u(id, url)
      WHERE m.product_id = u.id AND (m.position > 0 OR m.url IS DISTINCT FROM u.url)
     RETURNING m.product_id AS id`,
    [productIds, urls],
  );
  const written = await tx.query<{ id: string }>(
    `INSERT INTO product_media (product_id, position, url)
     SELECT u.id, 0, u.url FROM unnest($1::uuid[], $2::text[]) AS u(id, url)
     ON CONFLICT (product_id, position) DO NOTHING
     RETURNING product_id AS id`,
    [productIds, urls],
  );
  for (const r of dropped.rows) changed.add(r.id);
  for (const r of written.rows) changed.add(r.id);
  return changed;
}

/**
 * A product whose only change is its image is written at `at` too: updated_at is how the feed's
 * changedProductIds finds what a sync changed (D36), and the storefront must refresh the image.
 */
async function markWritten(tx: Queryable, productIds: string[], at: Date): Promise<void> {
  if (productIds.length === 0) return;
  await tx.query(`UPDATE products SET updated_at = $1 WHERE id = ANY($2::uuid[])`, [at, productIds]);
}

/** What a flat update did: the POS ids it matched, and those whose stored values changed. */
export interface FlatApplied {
  matched: Set<string>;
  changed: Set<string>;
}

/** D18 ITEM: existing products only; returns the POS ids that matched and those that changed. */
export async function applyItemPlan(tx: Queryable, merchantId: string, plan: ItemPlan, at: Date): Promise<FlatApplied> {
  const items = plan.items;
  if (items.length === 0) return { matched: new Set(), changed: new Set() };
  const params = [
    merchantId,
    ...unnestParams(items, ['pdvId', 'externalCode', 'ean', 'serving', 'nutritionalInfo', ...TRADE_COLUMNS]),
  ];
  // Matched ids first: rows whose values do not change are not rewritten and count as unchanged.
  const { rows } = await tx.query<{ pdv: string; id: string }>(
    `SELECT p.pdv_external_id AS pdv, p.id FROM products p
      WHERE p.merchant_id = $1 AND p.pdv_external_id = ANY($2::text[])`,
    [merchantId, params[1]],
  );
  const atParam = params.length + 1;
  const updated = await tx.query<{ id: string }>(
    `UPDATE products p
        SET external_code = COALESCE(u.code, p.external_code), ean = COALESCE(u.ean, p.ean),
            serving = COALESCE(u.serving, p.serving), nutritional_info = COALESCE(u.ni::jsonb, p.nutritional_info),
            ${TRADE_SET},
            updated_at = $${atParam}
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], ${TRADE_ARRAYS(7)})
            AS u(pdv, code, ean, serving, ni, ${TRADE_NAMES})
      WHERE p.merchant_id = $1 AND p.pdv_external_id = u.pdv
        AND (p.external_code, p.ean, p.serving, p.nutritional_info, ${TRADE_STORED})
            IS DISTINCT FROM (COALESCE(u.code, p.external_code), COALESCE(u.ean, p.ean),
                              COALESCE(u.serving, p.serving), COALESCE(u.ni::jsonb, p.nutritional_info), ${TRADE_NEW})
     RETURNING p.id`,
    [...params, at],
  );
  const matched = new Map(rows.map((r) => [r.pdv, r.id]));
  const withImage = items.filter((i) => i.imageUrl !== null && matched.has(i.pdvId));
  const newImageIds = await replaceImages(
    tx,
    withImage.map((i) => matched.get(i.pdvId) as string),
    withImage.map((i) => i.imageUrl as string),
  );
  const changedIds = new Set(updated.rows.map((r) => r.id));
  await markWritten(
    tx,
    [...newImageIds].filter((id) => !changedIds.has(id)),
    at,
  );
  for (const id of newImageIds) changedIds.add(id);
  const changed = new Set(rows.filter((r) => changedIds.has(r.id)).map((r) => r.pdv));
  return { matched: new Set(matched.keys()), changed };
}

/** D18 ITEM_OFFER: price and/or availability of existing products; returns the matched and changed POS ids. */
export async function applyOfferPlan(
  tx: Queryable,
  merchantId: string,
  plan: OfferPlan,
  at: Date,
): Promise<FlatApplied> {
  const offers = plan.offers;
  if (offers.length === 0) return { matched: new Set(), changed: new Set() };
  const ids = offers.map((o) => o.pdvId);
  const { rows } = await tx.query<{ pdv: string }>(
    `SELECT p.pdv_external_id AS pdv FROM products p WHERE p.merchant_id = $1 AND p.pdv_external_id = ANY($2::text[])`,
    [merchantId, ids],
  );
  const updated = await tx.query<{ pdv: string }>(
    `UPDATE products p SET price = COALESCE(u.price, p.price), status = COALESCE(u.status, p.status), updated_at = $5
       FROM unnest($2::text[], $3::numeric[], $4::text[]) AS u(pdv, price, status)
      WHERE p.merchant_id = $1 AND p.pdv_external_id = u.pdv
        AND (p.price, p.status) IS DISTINCT FROM (COALESCE(u.price, p.price), COALESCE(u.status, p.status))
     RETURNING p.pdv_external_id AS pdv`,
    [merchantId, ids, offers.map((o) => o.price), offers.map((o) => o.status), at],
  );
  return { matched: new Set(rows.map((r) => r.pdv)), changed: new Set(updated.rows.map((r) => r.pdv)) };
}
