// A thin client of the operator API (/admin/v1, operator-api.md), used by the `cleaver` command
// and the sandbox: create merchants, keys, logistics apps and sandbox orders.
import { createHttp, type HttpOptions } from './http.js';
import type {
  Availability,
  Order,
  ProductUnit,
  SandboxScenario,
  SandboxScenarioOptions,
  SandboxScenarioResult,
} from './types.js';

export interface OperatorClientOptions extends HttpOptions {
  adminToken: string;
}

export interface OperatorMerchant {
  id: string;
  name: string;
  status: Availability;
  createdAt: string;
}

/** D27: the dialect a key speaks: the spec (`cleaver`) or Open Delivery (`opendelivery`). */
export type IntegrationProfile = 'cleaver' | 'opendelivery';

/** D37: a product's cut, as GET /v1/merchant lists it. */
export interface ProductCut {
  id: string;
  name: string;
  spice: { id: string; name: string } | null;
}

export interface CreatedIntegrationKey {
  keyId: string;
  clientId: string;
  clientSecret: string;
  name: string | null;
  createdAt: string;
}

/** A key as the operator API lists it: never its secret. */
export interface IntegrationKeySummary {
  keyId: string;
  name: string;
  profile: IntegrationProfile;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface CreatedLogisticsApp {
  appId: string;
  clientSecret: string;
  name: string;
  merchantIds: string[];
}

export interface SandboxOrderRequest {
  type: 'DELIVERY' | 'TAKEOUT';
  /** cutId (D37): one of the product's cuts, shown as the item's first option. */
  items: Array<{ productId?: string; pdvId?: string; quantity: number; cutId?: string; specialInstructions?: string }>;
  customer?: Record<string, unknown>;
  payments?: Record<string, unknown>;
  delivery?: Record<string, unknown>;
  extraInfo?: string;
  displayId?: string;
  deliveryCode?: string;
  [field: string]: unknown;
}

/** An operator account (docs/security.md "Operators, roles and audit"). */
export interface OperatorAccount {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
  disabled: boolean;
  disabledAt: string | null;
  passwordSet: boolean;
  totpEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type OperatorRole = 'admin' | 'support' | 'viewer' | 'platform';

export interface CreatedOperatorToken {
  id: string;
  token: string;
  role: OperatorRole;
  expiresAt: string;
  name: string;
  createdAt: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  actorType: string;
  operatorId: string | null;
  tokenId: string | null;
  role: string | null;
  channel: 'api' | 'console';
  action: string;
  target: Record<string, string>;
  details: Record<string, unknown>;
  result: { status: number; outcome: 'success' | 'failure'; reason: string | null };
  ip: string | null;
  userAgent: string | null;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  since?: string;
  until?: string;
  limit?: number;
  cursor?: string;
}

/** One item of the platform feed (D36): an order event or a change of a merchant, catalog or webhook. */
export interface FeedItem {
  id: string;
  cursor: string;
  kind: 'order' | 'merchant' | 'catalog' | 'webhook' | 'settlement';
  type: string;
  merchantId: string;
  orderId?: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

export interface FeedQuery {
  /** A cursor (`next` of the last page); absent: the oldest item kept. */
  after?: string;
  limit?: number;
  kinds?: Array<FeedItem['kind']>;
  merchantId?: string;
  /** Seconds (at most 30) the service holds an empty answer until an item arrives. */
  wait?: number;
  signal?: AbortSignal;
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
    createIntegrationKey: (merchantId: string, name?: string, profile?: IntegrationProfile) =>
      post<CreatedIntegrationKey>(`/admin/v1/merchants/${id(merchantId)}/integrationKeys`, {
        ...(name ? { name } : {}),
        ...(profile ? { profile } : {}),
      }),
    /** D27: the key's next request speaks the new profile. */
    setIntegrationKeyProfile: async (merchantId: string, keyId: string, profile: IntegrationProfile) =>
      (
        await http.send({
          method: 'PATCH',
          path: `/admin/v1/merchants/${id(merchantId)}/integrationKeys/${id(keyId)}`,
          headers,
          body: { profile },
          idempotent: true,
        })
      ).body as IntegrationKeySummary,
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
    /** D37: a cut (and spice) the customer can choose for a product. */
    addCut: (
      merchantId: string,
      productId: string,
      body: { id?: string; name: string; spice?: { id?: string; name: string } | null },
    ) => post<ProductCut>(`/admin/v1/merchants/${id(merchantId)}/products/${id(productId)}/cuts`, body),
    async removeCut(merchantId: string, productId: string, cutId: string): Promise<void> {
      await http.send({
        method: 'DELETE',
        path: `/admin/v1/merchants/${id(merchantId)}/products/${id(productId)}/cuts/${id(cutId)}`,
        headers,
      });
    },
    /** D38: how far (± %) a weighed line may be from the ordered quantity (default 20). */
    setWeighingTolerance: async (merchantId: string, weighingTolerancePercent: number) =>
      (
        await http.send({
          method: 'PATCH',
          path: `/admin/v1/merchants/${id(merchantId)}`,
          headers,
          body: { weighingTolerancePercent },
          idempotent: true,
        })
      ).body as OperatorMerchant & { weighingTolerancePercent: number },
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
    /** Sandbox only: the scenarios playScenario accepts. */
    listScenarios: (merchantId: string) =>
      get<SandboxScenario[]>(`/admin/v1/merchants/${id(merchantId)}/sandbox/scenarios`),
    /** Sandbox only: plays a scenario on any merchant (as the POS's playScenario does on its own). */
    playScenario: (merchantId: string, scenario: string, options?: SandboxScenarioOptions) =>
      post<SandboxScenarioResult>(`/admin/v1/merchants/${id(merchantId)}/sandbox/scenarios`, {
        scenario,
        ...(options ? { options } : {}),
      }),
    async cancellationDecision(orderId: string, decision: 'accept' | 'deny', reason?: string): Promise<void> {
      await post(`/admin/v1/orders/${id(orderId)}/cancellationDecision`, { decision, ...(reason ? { reason } : {}) });
    },

    // Operators and audit
    createOperator: (body: { email: string; name: string; role: OperatorRole; password?: string }) =>
      post<OperatorAccount>('/admin/v1/operators', body),
    listOperators: () => get<OperatorAccount[]>('/admin/v1/operators?limit=1000'),
    async updateOperator(operatorId: string, body: { role?: OperatorRole; disabled?: boolean }) {
      return (await http.send({ method: 'PATCH', path: `/admin/v1/operators/${id(operatorId)}`, headers, body }))
        .body as OperatorAccount;
    },
    async setOperatorPassword(operatorId: string, password: string): Promise<void> {
      await post(`/admin/v1/operators/${id(operatorId)}/password`, { password });
    },
    revokeOperatorAccess: (operatorId: string) =>
      post<{ sessions: number; tokens: number }>(`/admin/v1/operators/${id(operatorId)}/revokeAccess`),
    createOperatorToken: (operatorId: string, body: { name?: string; role?: OperatorRole; expiresAt?: string }) =>
      post<CreatedOperatorToken>(`/admin/v1/operators/${id(operatorId)}/tokens`, body),
    async revokeOperatorToken(operatorId: string, tokenId: string): Promise<void> {
      await http.send({
        method: 'DELETE',
        path: `/admin/v1/operators/${id(operatorId)}/tokens/${id(tokenId)}`,
        headers,
      });
    },
    /**
     * One page of the platform feed after `after`, oldest first, and the cursor to read on from
     * (`next` is the same cursor when nothing came). Needs a token of the platform role or an
     * operator's.
     */
    async readFeed(feed: FeedQuery = {}): Promise<{ items: FeedItem[]; next: string }> {
      const query: Record<string, string> = {};
      if (feed.after) query.after = feed.after;
      if (feed.limit !== undefined) query.limit = String(feed.limit);
      if (feed.kinds?.length) query.kinds = feed.kinds.join(',');
      if (feed.merchantId) query.merchantId = feed.merchantId;
      if (feed.wait !== undefined) query.wait = String(feed.wait);
      const res = await http.send({
        method: 'GET',
        path: '/admin/v1/feed',
        query,
        headers,
        idempotent: true,
        signal: feed.signal,
      });
      return res.body as { items: FeedItem[]; next: string };
    },
    /** One page of the audit log, newest first, and the cursor of the next page. */
    async listAudit(filter: AuditFilter = {}): Promise<{ entries: AuditEntry[]; next?: string }> {
      const query = Object.fromEntries(
        Object.entries(filter)
          .filter(([, v]) => v !== undefined && v !== '')
          .map(([k, v]) => [k, String(v)]),
      );
      const res = await http.send({ method: 'GET', path: '/admin/v1/audit', query, headers, idempotent: true });
      const link = res.headers.get('link') ?? '';
      const next = /[?&]cursor=([^&>]+)/.exec(link)?.[1];
      return { entries: res.body as AuditEntry[], next: next ? decodeURIComponent(next) : undefined };
    },
  };
}

export type OperatorClient = ReturnType<typeof createOperatorClient>;
