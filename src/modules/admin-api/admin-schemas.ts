import { type TSchema, Type } from 'typebox';
import { DateTime, errorResponses, Status, Uuid } from '../../lib/schemas.js';
import { IntegrationProfileSchema } from '../auth/index.js';
import { SyncView } from '../catalog/index.js';
import { KeyPresence } from '../usage/index.js';

export const MerchantIdParams = Type.Object({ merchantId: Uuid() });

/** operator-api.md#lists: a page, and a search for the lists of merchants and orders. */
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 100)' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'Where the page starts: from the Link header of the previous page' }),
  ),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Search text' })),
});

export const MerchantSummary = Type.Object({
  id: Uuid(),
  name: Type.String(),
  status: Status,
  createdAt: DateTime(),
});

export const IntegrationKeySummary = Type.Object({
  keyId: Uuid(),
  name: Type.String(),
  profile: IntegrationProfileSchema,
  createdAt: DateTime(),
  lastUsedAt: Type.Union([DateTime(), Type.Null()]),
  /** The POS behind this key: last seen doing what, and online / late / offline. */
  presence: KeyPresence,
});

/** A merchant's history: changes of its order-receiving switch and who made them. */
export const MerchantHistoryEntry = Type.Object({
  at: DateTime(),
  kind: Type.String(),
  detail: Type.Object({
    from: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    by: Type.Optional(Type.Enum(['operator', 'pos-notification', 'presence'])),
    reason: Type.Optional(Type.String()),
    silentSince: Type.Optional(DateTime()),
  }),
});

/** POST …/integrationKeys (D27): the profile defaults to `cleaver`. */
export const CreateIntegrationKeyBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  profile: Type.Optional(IntegrationProfileSchema),
});

/** PATCH …/integrationKeys/{keyId} (D27). */
export const UpdateIntegrationKeyBody = Type.Object({ profile: IntegrationProfileSchema });

export const MerchantDetail = Type.Object({
  id: Uuid(),
  name: Type.String(),
  status: Type.Enum(Status.enum, { description: 'Whether the merchant receives orders: AVAILABLE or UNAVAILABLE.' }),
  pdvExternalId: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime(),
  updatedAt: DateTime(),
  onboarding: Type.Object({
    ordersWebhookURL: Type.Union([Type.String(), Type.Null()]),
    webhookKeyId: Type.Union([Uuid(), Type.Null()]),
    webhookDisabledAt: Type.Union([DateTime(), Type.Null()]),
    // The apiKey is a credential of the merchant's POS: the operator sees only that one is set.
    getMerchantURL: Type.Union([Type.Object({ baseURL: Type.String(), apiKeySet: Type.Boolean() }), Type.Null()]),
    onboardedAt: Type.Union([DateTime(), Type.Null()]),
  }),
  integrationKeys: Type.Array(IntegrationKeySummary),
  lastCatalogSync: Type.Union([SyncView, Type.Null()]),
  weighingTolerancePercent: Type.Number({ minimum: 0, maximum: 100 }),
});

export const CreateMerchantBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  id: Type.Optional(Uuid()),
  status: Type.Optional(Status),
});

/** POST …/merchants/{merchantId}/categories: a category made by hand (the console's form too). */
export const HandMadeCategoryBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  status: Type.Optional(Status),
});

/** POST …/merchants/{merchantId}/products: a product made by hand (the console's form too). */
export const HandMadeProductBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 300 }),
  price: Type.Number({ minimum: 0 }),
  unit: Type.Enum(['KG', 'UN']),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  status: Type.Optional(Status),
  categoryId: Type.Optional(Uuid()),
});

const CANCELLATION_CODE = Type.String({ minLength: 1, maxLength: 100 });

/** POST …/orders/{orderId}/customerCancellation, and the console's button with a reason. */
export const CustomerCancellationBody = Type.Object({
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  code: Type.Optional(CANCELLATION_CODE),
});

/** POST …/orders/{orderId}/cancellationDecision, and the console's accept/deny buttons. */
export const CancellationDecisionBody = Type.Object({
  decision: Type.Enum(['accept', 'deny']),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
});

/** POST …/orders/{orderId}/events: the platform-side events the console's buttons raise too. */
export const PlatformEventBody = Type.Object({
  eventType: Type.Enum(['CONCLUDED', 'PICKUP_AREA_ASSIGNED', 'CANCELLED']),
  pickupArea: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  code: Type.Optional(CANCELLATION_CODE),
});

export const UpdateMerchantBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(Status),
  weighingTolerancePercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
});

/** D38: the ± share of the ordered quantity a weighing may differ by. */
const WeighingTolerancePercent = Type.Number({ minimum: 0, maximum: 100 });

/** PATCH /admin/v1/merchants/{id}: the merchant with its weighing tolerance (D38). */
export const UpdatedMerchant = Type.Object({
  ...MerchantSummary.properties,
  weighingTolerancePercent: WeighingTolerancePercent,
});

export const CreatedIntegrationKey = Type.Object({
  keyId: Uuid(),
  clientId: Uuid({ description: 'The client_id to ask tokens with (the merchant id).' }),
  clientSecret: Type.String(),
  name: Type.String(),
  createdAt: DateTime(),
});

export const CreateLogisticsAppBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  merchantIds: Type.Array(Uuid(), { maxItems: 1000 }),
});

export const LogisticsAppCreated = Type.Object({
  appId: Uuid(),
  clientSecret: Type.String(),
  name: Type.String(),
  merchantIds: Type.Array(Uuid()),
});

export const LogisticsAppSummary = Type.Object({
  appId: Uuid(),
  name: Type.String(),
  active: Type.Boolean(),
  merchantIds: Type.Array(Uuid()),
  createdAt: DateTime(),
});

/**
 * The schema of an operator read of one thing named by its path (a merchant, an order, a
 * product): the path's ids, the answer, and the errors every such read has: 400 (an id that is
 * not a UUID), 401 and 404.
 */
export function readByPath<P extends TSchema, A extends TSchema>(tags: string[], params: P, answer: A) {
  return { tags, params, response: { 200: answer, ...errorResponses(400, 401, 404) } };
}

/**
 * The schema of an operator write that creates something under a thing named by its path (a
 * merchant's category, product or key): the path's ids, the body, the 201 answer, and the errors
 * every such write has: 400 (a bad id or body), 401 and 404 (the parent is not there).
 */
export function createByPath<P extends TSchema, B extends TSchema, A extends TSchema>(
  tags: string[],
  params: P,
  body: B,
  answer: A,
) {
  return { tags, params, body, response: { 201: answer, ...errorResponses(400, 401, 404) } };
}

/**
 * The schema of an operator action on a thing named by its path that is accepted and carried out
 * by the order or delivery machinery (an order's cancellation, a webhook delivery's retry): the
 * path's ids, the 202 answer, and 400, 401, 404 and 409 (the thing's state does not allow it).
 * A body, where the action takes one, is added beside it.
 */
export function acceptByPath<P extends TSchema, A extends TSchema>(tags: string[], params: P, answer: A) {
  return { tags, params, response: { 202: answer, ...errorResponses(400, 401, 404, 409) } };
}
