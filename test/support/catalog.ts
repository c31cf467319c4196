// Helpers for catalog tests: everything goes through HTTP (upload, status, record); the worker
// is driven with drain() instead of sleeping.
import { expect } from 'vitest';
import { adminHeaders, bearer, type MerchantCredentials, type TestApp } from './test-app.js';

export interface RecordCategory {
  id: string;
  pdv_external_id: string | null;
  name: string;
  index: number;
  status: string;
  externalCode: string;
  productsId: string[];
}

export interface RecordProduct {
  id: string;
  pdv_external_id: string | null;
  name: string;
  description: string;
  price: number;
  unit: string;
  status: string;
  stock: number;
  externalCode: string;
  ean: string;
  sku: string;
  media: string[];
  cuts?: Array<{ id: string; name: string; spice: { id: string; name: string } | null }>;
  scaleCode?: string;
  weight?: { min: number; max: number; step: number };
  leadTimeHours?: number;
}

export interface MerchantRecord {
  lastUpdate: string;
  TTL: number;
  id: string;
  status: string;
  categories: RecordCategory[];
  products: RecordProduct[];
}

export async function upload(t: TestApp, me: MerchantCredentials, body: unknown): Promise<void> {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchantUpdate',
    headers: bearer(me.token),
    payload: body as object,
  });
  expect(res.statusCode, res.body).toBe(204);
  expect(res.body).toBe('');
}

export async function syncStatus(t: TestApp, me: MerchantCredentials) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/merchantStatus?merchantId=${me.merchantId}`,
    headers: bearer(me.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; lastRead: string; moreInfo: string | null };
}

export async function merchantRecord(t: TestApp, me: MerchantCredentials): Promise<MerchantRecord> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/merchant', headers: bearer(me.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as MerchantRecord;
}

/** Upload, let the worker run, and return the status the POS would poll. */
export async function sync(t: TestApp, me: MerchantCredentials, body: unknown) {
  await upload(t, me, body);
  await t.services.catalog.worker.drain();
  return syncStatus(t, me);
}

export const productByPdv = (r: MerchantRecord, pdv: string) => r.products.find((p) => p.pdv_external_id === pdv);
export const categoryByPdv = (r: MerchantRecord, pdv: string) => r.categories.find((c) => c.pdv_external_id === pdv);

/** The POS codes of the products in a category, in order. */
export function categoryProductPdvs(r: MerchantRecord, categoryPdv: string): string[] {
  const c = categoryByPdv(r, categoryPdv);
  if (!c) return [];
  const byId = new Map(r.products.map((p) => [p.id, p]));
  return c.productsId.map((id) => byId.get(id)?.pdv_external_id ?? id);
}

export interface CatalogSpec {
  storeId?: string;
  categories: Array<{ id?: string; name?: string; index?: number; status?: string; itemOfferId?: string[] }>;
  itemOffers: Array<{ id?: string; itemId?: string; price?: { value?: unknown }; status?: string }>;
  items: Array<Record<string, unknown>>;
}

export function merchantBody(
  spec: CatalogSpec,
  options: { merchantStatus?: string; onlyAddProducts?: boolean } = {},
): Record<string, unknown> {
  return {
    entityType: 'MERCHANT',
    merchantStatus: options.merchantStatus ?? 'AVAILABLE',
    ...(options.onlyAddProducts !== undefined ? { onlyAddProducts: options.onlyAddProducts } : {}),
    updatedObjects: [
      { id: spec.storeId ?? 'STORE-1', categories: spec.categories, itemOffers: spec.itemOffers, items: spec.items },
    ],
  };
}

/** A small valid catalog: categories C1 (P1, P2) and C2 (P3). */
export function sampleCatalog(): CatalogSpec {
  return {
    categories: [
      { id: 'C1', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['O1', 'O2'] },
      { id: 'C2', name: 'Suínos', index: 1, status: 'AVAILABLE', itemOfferId: ['O3'] },
    ],
    itemOffers: [
      { id: 'O1', itemId: 'P1', price: { value: 89.9 }, status: 'AVAILABLE' },
      { id: 'O2', itemId: 'P2', price: { value: 54.5 }, status: 'AVAILABLE' },
      { id: 'O3', itemId: 'P3', price: { value: 32 }, status: 'UNAVAILABLE' },
    ],
    items: [
      {
        id: 'P1',
        name: 'Picanha',
        description: 'Peça inteira',
        unit: 'KG',
        externalCode: '1001',
        ean: '7890000000011',
        image: { url: 'https://img.example/picanha.jpg' },
      },
      { id: 'P2', name: 'Alcatra', unit: 'KG', externalCode: '1002' },
      { id: 'P3', name: 'Linguiça', unit: 'UN', serving: 4 },
    ],
  };
}

export async function operatorSyncs(t: TestApp, merchantId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/admin/v1/merchants/${merchantId}/catalogSyncs`,
    headers: adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Array<Record<string, unknown> & { status: string; details: Record<string, unknown> | null }>;
}
