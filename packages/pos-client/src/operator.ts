// A thin client of the operator API (/admin/v1, OPERATOR-API.md), used by the `cleaver` command
// and the sandbox: create merchants, keys, logistics apps and sandbox orders.
import { createHttp, type HttpOptions } from './http.js';
import type { Availability, Order, ProductUnit } from './types.js';

export interface OperatorClientOptions extends HttpOptions {
  adminToken: string;
}

export interface OperatorMerchant {
  id: string;
  name: string;
  status: Availability;
  createdAt: string;
}

export interface CreatedIntegrationKey {
  keyId: string;
  clientId: string;
  clientSecret: string;
  name: string | null;
  createdAt: string;
}

export interface CreatedLogisticsApp {
  appId: string;
  clientSecret: string;
  name: string;
  merchantIds: string[];
}

export interface SandboxOrderRequest {
  type: 'DELIVERY' | 'TAKEOUT';
  items: Array<{ productId?: string; pdvId?: string; quantity: number; specialInstructions?: string }>;
  customer?: Record<string, unknown>;
  payments?: Record<string, unknown>;
  delivery?: Record<string, unknown>;
  extraInfo?: string;
  displayId?: string;
  deliveryCode?: string;
  [field: string]: unknown;
}

export function createOperatorClient(options: OperatorClientOptions) {
  const http = createHttp(options);
  const headers = { authorization: `Bearer ${options.adminToken}` };
  const get = async <T>(path: string) =>
    (await http.send({ method: 'GET', path, headers, idempotent: true })).body as T;
  const post = async <T>(path: string, body: unknown = {}) =>
    (await http.send({ method: 'POST', path, headers, body })).body as T;
  const id = encodeURIComponent;

  return {
    createMerchant: (body: { name: string; id?: string; status?: Availability }) =>
      post<OperatorMerchant>('/admin/v1/merchants', body),
    listMerchants: () => get<OperatorMerchant[]>('/admin/v1/merchants'),
    getMerchant: (merchantId: string) => get<Record<string, unknown>>(`/admin/v1/merchants/${id(merchantId)}`),
    createIntegrationKey: (merchantId: string, name?: string) =>
      post<CreatedIntegrationKey>(`/admin/v1/merchants/${id(merchantId)}/integrationKeys`, name ? { name } : {}),
    async deleteIntegrationKey(merchantId: string, keyId: string): Promise<void> {
      await http.send({
        method: 'DELETE',
        path: `/admin/v1/merchants/${id(merchantId)}/integrationKeys/${id(keyId)}`,
        headers,
      });
    },
    createCategory: (merchantId: string, body: { name: string; status?: Availability }) =>
      post<Record<string, unknown>>(`/admin/v1/merchants/${id(merchantId)}/categories`, body),
    createProduct: (
      merchantId: string,
      body: {
        name: string;
        price: number;
        unit: ProductUnit;
        description?: string;
        status?: Availability;
        categoryId?: string;
      },
    ) => post<Record<string, unknown>>(`/admin/v1/merchants/${id(merchantId)}/products`, body),
    createLogisticsApp: (body: { name: string; merchantIds: string[] }) =>
      post<CreatedLogisticsApp>('/admin/v1/logisticsApps', body),
    async deactivateLogisticsApp(appId: string): Promise<void> {
      await http.send({ method: 'DELETE', path: `/admin/v1/logisticsApps/${id(appId)}`, headers });
    },
    /** Hands in a customer's order (sandbox); emits CREATED. */
    createOrder: (merchantId: string, body: SandboxOrderRequest) =>
      post<Order & { deliveryCode: string }>(`/admin/v1/merchants/${id(merchantId)}/orders`, body),
    getOrder: (orderId: string) => get<Order & Record<string, unknown>>(`/admin/v1/orders/${id(orderId)}`),
    /** The customer asks to cancel: emits ORDER_CANCELLATION_REQUEST. */
    async customerCancellation(orderId: string, reason?: string): Promise<void> {
      await post(`/admin/v1/orders/${id(orderId)}/customerCancellation`, reason ? { reason } : {});
    },
    async cancellationDecision(orderId: string, decision: 'accept' | 'deny', reason?: string): Promise<void> {
      await post(`/admin/v1/orders/${id(orderId)}/cancellationDecision`, { decision, ...(reason ? { reason } : {}) });
    },
  };
}

export type OperatorClient = ReturnType<typeof createOperatorClient>;
