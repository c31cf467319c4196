import { type TSchema, Type } from 'typebox';
import { DateTime, described, errorResponses, Status, Uuid } from '../../lib/schemas.js';
import { IntegrationProfileSchema } from '../auth/index.js';
import { SyncView } from '../catalog/index.js';
import { OPT_IN_EVENT_TYPES } from '../events/index.js';
import { KeyPresence } from '../usage/index.js';
import { SchedulingInput, SchedulingView } from './admin-scheduling-schemas.js';

export const MerchantIdParams = Type.Object({ merchantId: Uuid() });

/** operator-api.md#lists: a page, and a search for the lists of merchants and orders. */
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 100)' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'Where the page starts: from the Link header of the previous page' }),
  ),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Search text' })),
});

/** D42: what a weighing out of tolerance does (PATCH /admin/v1/merchants/{id}, and the merchant's views). */
export const weighingApprovalFields = {
  weighingOutOfTolerance: Type.Enum(['REFUSE', 'ASK'], {
    description:
      'A weighing out of tolerance: REFUSE (default: 400) or ASK (it waits for the platform’s decision for the ' +
      'customer until weighingApprovalSeconds have passed, then weighingApprovalDefault applies).',
  }),
  weighingApprovalSeconds: Type.Integer({
    minimum: 10,
    maximum: 86_400,
    description: 'How long the platform has to decide for the customer, in seconds (default 300).',
  }),
  weighingApprovalDefault: Type.Enum(['ACCEPT', 'REJECT', 'REMOVE_LINES'], {
    description:
      'What applies when no decision came by the deadline (default REJECT): ACCEPT the weights, REJECT them (the ' +
      'butcher weighs again), or REMOVE_LINES (the lines out of tolerance leave the order).',
  }),
};

export const MerchantSummary = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  status: described(Status, 'Its current status.'),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
});

/** D42: the integration setting `extraEventTypes`: opt-in event types, none by default. */
const ExtraEventTypes = Type.Array(Type.Enum(OPT_IN_EVENT_TYPES), {
  description: 'The opt-in event types the key receives (D42); none by default.',
  uniqueItems: true,
});

export const IntegrationKeySummary = Type.Object({
  keyId: Uuid({ description: 'The integration key.' }),
  name: Type.String({ description: 'A label for the key (e.g. which POS terminal uses it).' }),
  profile: IntegrationProfileSchema,
  extraEventTypes: ExtraEventTypes,
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  lastUsedAt: Type.Union([DateTime(), Type.Null()], { description: 'Last use, or null.' }),
  /** The POS behind this key: last seen doing what, and online / late / offline. */
  presence: described(KeyPresence, 'When the key last did each thing.'),
});

/** A merchant's history: changes of its order-receiving switch and who made them. */
export const MerchantHistoryEntry = Type.Object({
  at: DateTime({ description: 'When it happened.' }),
  kind: Type.String({ description: 'What kind of entry.' }),
  detail: Type.Object(
    {
      from: Type.Optional(Type.String({ description: 'The value before.' })),
      to: Type.Optional(Type.String({ description: 'The value after.' })),
      by: Type.Optional(
        Type.Enum(['operator', 'pos-notification', 'presence', 'pos', 'pause'], {
          description:
            'Who changed it: an operator, the POS (its notification or its pause, D43), presence, or a pause that ended by itself (pause).',
        }),
      ),
      reason: Type.Optional(Type.String({ description: 'Why, in words.' })),
      silentSince: Type.Optional(DateTime({ description: 'Since when the POS did not poll.' })),
    },
    { description: 'Structured details.' },
  ),
});

/** POST …/integrationKeys (D27): the profile defaults to `cleaver`. */
export const CreateIntegrationKeyBody = Type.Object({
  name: Type.Optional(Type.String({ description: 'Its name as shown to people.', maxLength: 200 })),
  profile: Type.Optional(IntegrationProfileSchema),
});

/** PATCH …/integrationKeys/{keyId} (D27). */
export const UpdateIntegrationKeyBody = Type.Object({
  profile: Type.Optional(IntegrationProfileSchema),
  extraEventTypes: Type.Optional(ExtraEventTypes),
});

export const MerchantDetail = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  status: Type.Enum(Status.enum, { description: 'Whether the merchant receives orders: AVAILABLE or UNAVAILABLE.' }),
  pdvExternalId: Type.Union([Type.String(), Type.Null()], {
    description: 'The POS’s id of the store (from the MERCHANT upload’s updatedObjects[0].id), or null.',
  }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  updatedAt: DateTime({ description: 'When it last changed.' }),
  onboarding: Type.Object(
    {
      ordersWebhookURL: Type.Union([Type.String(), Type.Null()], {
        description:
          'Base URL of the POS’s webhook receiver; webhooks are POSTed to it with /v1/orderUpdate appended (/v1/newEvent for an opendelivery key). No query, fragment or trailing slash; a path prefix only for an opendelivery key (https://pos.example.com/od → https://pos.example.com/od/v1/newEvent). https only in production. Null when never registered.',
      }),
      webhookTarget: Type.Union([Type.String(), Type.Null()], {
        description:
          'The address events are POSTed to: ordersWebhookURL with /v1/orderUpdate appended, or /v1/newEvent when an ' +
          'opendelivery key registered it (an address it gave ending in /v1/newEvent is that endpoint itself). Null ' +
          'when never registered.',
      }),
      webhookKeyId: Type.Union([Uuid(), Type.Null()], {
        description: 'The integration key that registered the webhook URL; its secret signs the webhooks.',
      }),
      webhookDisabledAt: Type.Union([DateTime(), Type.Null()], {
        description:
          'When the webhook was disabled (HTTP 410 or failing too long), or null; registering again clears it.',
      }),
      // The apiKey is a credential of the merchant's POS: the operator sees only that one is set.
      getMerchantURL: Type.Union(
        [
          Type.Object({
            baseURL: Type.String({
              description: 'Base URL of the POS catalog endpoint; the platform calls GET {baseURL}/v1/merchant.',
            }),
            apiKeySet: Type.Boolean({ description: 'Whether an apiKey is stored (the key itself is never shown).' }),
          }),
          Type.Null(),
        ],
        { description: 'The POS endpoint the platform reads the catalog from (catalog pull), or null.' },
      ),
      onboardedAt: Type.Union([DateTime(), Type.Null()], {
        description: 'When the merchant last registered its settings.',
      }),
    },
    { description: 'The merchant’s registered settings: webhook URL, catalog endpoint.' },
  ),
  integrationKeys: Type.Array(IntegrationKeySummary, {
    description: 'The merchant’s integration keys (never their secrets).',
  }),
  lastCatalogSync: Type.Union([SyncView, Type.Null()], { description: 'The latest catalog sync, or null.' }),
  weighingTolerancePercent: Type.Number({
    description: 'How far a weighed KG line may be from the ordered quantity, ± in percent (0 to 100; default 20).',
    minimum: 0,
    maximum: 100,
  }),
  commissionPercent: Type.Number({
    description:
      "D45: the platform's commission on each concluded order, in percent (0 to 100, 2 decimals; default 12).",
    minimum: 0,
    maximum: 100,
  }),
  settlementCycle: Type.Enum(['DAILY', 'WEEKLY'], {
    description:
      'D45: how long a statement period is: a day or a week from Monday, America/Sao_Paulo (default WEEKLY).',
  }),
  ...weighingApprovalFields,
  scheduling: SchedulingView,
  pause: Type.Union(
    [
      Type.Object({
        reason: Type.String({ description: 'Why the store is paused.' }),
        until: DateTime({ description: 'When it opens again by itself.' }),
      }),
      Type.Null(),
    ],
    {
      description: 'D43: the store’s timed pause while it holds; null otherwise.',
    },
  ),
});

export const CreateMerchantBody = Type.Object({
  name: Type.String({ description: 'Its name as shown to people.', minLength: 1, maxLength: 200 }),
  id: Type.Optional(Uuid({ description: 'The record’s unique id.' })),
  status: Type.Optional(described(Status, 'Its current status.')),
});

/** POST …/merchants/{merchantId}/categories: a category made by hand (the console's form too). */
export const HandMadeCategoryBody = Type.Object({
  name: Type.String({ description: 'Its name as shown to people.', minLength: 1, maxLength: 200 }),
  status: Type.Optional(described(Status, 'Its current status.')),
});

/** POST …/merchants/{merchantId}/products: a product made by hand (the console's form too). */
export const HandMadeProductBody = Type.Object({
  name: Type.String({ description: 'Its name as shown to people.', minLength: 1, maxLength: 300 }),
  price: Type.Number({ description: 'The price in BRL.', minimum: 0 }),
  unit: Type.Enum(['KG', 'UN'], {
    description: 'KG (sold by weight; quantities may be fractional) or UN (by the unit).',
  }),
  description: Type.Optional(Type.String({ description: 'What it is, in a sentence.', maxLength: 5000 })),
  status: Type.Optional(described(Status, 'Its current status.')),
  categoryId: Type.Optional(Uuid({ description: 'The category to put the product in.' })),
});

const CANCELLATION_CODE = Type.String({ minLength: 1, maxLength: 100 });

/** POST …/orders/{orderId}/customerCancellation, and the console's button with a reason. */
export const CustomerCancellationBody = Type.Object({
  reason: Type.Optional(Type.String({ description: 'Why, in words.', minLength: 1, maxLength: 1000 })),
  code: Type.Optional(described(CANCELLATION_CODE, 'Why, as a code.')),
});

/** POST …/orders/{orderId}/cancellationDecision, and the console's accept/deny buttons. */
export const CancellationDecisionBody = Type.Object({
  decision: Type.Enum(['accept', 'deny'], { description: 'ACCEPT (the order is cancelled) or DENY (it goes on).' }),
  reason: Type.Optional(Type.String({ description: 'Why, in words.', minLength: 1, maxLength: 1000 })),
});

/** POST …/orders/{orderId}/events: the platform-side events the console's buttons raise too. */
export const PlatformEventBody = Type.Object({
  eventType: Type.Enum(['CONCLUDED', 'PICKUP_AREA_ASSIGNED', 'CANCELLED'], {
    description: 'The event type (see the event catalog).',
  }),
  pickupArea: Type.Optional(
    Type.String({ description: 'The pickup area assigned (TAKEOUT with PICKUP_AREA).', minLength: 1, maxLength: 200 }),
  ),
  reason: Type.Optional(Type.String({ description: 'Why, in words.', minLength: 1, maxLength: 1000 })),
  code: Type.Optional(described(CANCELLATION_CODE, 'Why, as a code.')),
});

export const UpdateMerchantBody = Type.Object({
  name: Type.Optional(Type.String({ description: 'Its name as shown to people.', minLength: 1, maxLength: 200 })),
  status: Type.Optional(described(Status, 'Switch order receiving on (AVAILABLE) or off (UNAVAILABLE).')),
  weighingTolerancePercent: Type.Optional(
    Type.Number({
      description: 'How far a weighed KG line may be from the ordered quantity, ± in percent (0 to 100; default 20).',
      minimum: 0,
      maximum: 100,
    }),
  ),
  commissionPercent: Type.Optional(
    Type.Number({
      description: "D45: the platform's commission on each concluded order, in percent (0 to 100, 2 decimals).",
      minimum: 0,
      maximum: 100,
    }),
  ),
  settlementCycle: Type.Optional(
    Type.Enum(['DAILY', 'WEEKLY'], {
      description: 'D45: a statement per day or per week from Monday (America/Sao_Paulo).',
    }),
  ),
  weighingOutOfTolerance: Type.Optional(weighingApprovalFields.weighingOutOfTolerance),
  weighingApprovalSeconds: Type.Optional(weighingApprovalFields.weighingApprovalSeconds),
  weighingApprovalDefault: Type.Optional(weighingApprovalFields.weighingApprovalDefault),
  scheduling: Type.Optional(SchedulingInput),
});

/** D38: the ± share of the ordered quantity a weighing may differ by. */
const WeighingTolerancePercent = Type.Number({ minimum: 0, maximum: 100 });

/** PATCH /admin/v1/merchants/{id}: the merchant with its weighing tolerance (D38). */
export const UpdatedMerchant = Type.Object({
  ...MerchantSummary.properties,
  status: described(Status, 'Switch order receiving on (AVAILABLE) or off (UNAVAILABLE).'),
  weighingTolerancePercent: described(
    WeighingTolerancePercent,
    'How far a weighed KG line may be from the ordered quantity, ± in percent (0 to 100; default 20).',
  ),
  commissionPercent: Type.Number({
    description:
      "D45: the platform's commission on each concluded order, in percent (0 to 100, 2 decimals; default 12).",
    minimum: 0,
    maximum: 100,
  }),
  settlementCycle: Type.Enum(['DAILY', 'WEEKLY'], {
    description:
      'D45: how long a statement period is: a day or a week from Monday, America/Sao_Paulo (default WEEKLY).',
  }),
  ...weighingApprovalFields,
  scheduling: SchedulingView,
});

export const CreatedIntegrationKey = Type.Object({
  keyId: Uuid({ description: 'The integration key.' }),
  clientId: Uuid({ description: 'The client_id to ask tokens with (the merchant id).' }),
  clientSecret: Type.String({ description: 'The secret, shown only in this answer: store it safely.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
});

export const CreateLogisticsAppBody = Type.Object({
  name: Type.String({ description: 'Its name as shown to people.', minLength: 1, maxLength: 200 }),
  merchantIds: Type.Array(Uuid(), { description: 'The merchants this logistics app serves.', maxItems: 1000 }),
});

export const LogisticsAppCreated = Type.Object({
  appId: Uuid({ description: 'The logistics partner app.' }),
  clientSecret: Type.String({ description: 'The secret, shown only in this answer: store it safely.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  merchantIds: Type.Array(Uuid(), { description: 'The merchants this logistics app serves.' }),
});

export const LogisticsAppSummary = Type.Object({
  appId: Uuid({ description: 'The logistics partner app.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  active: Type.Boolean({ description: 'Whether it works.' }),
  merchantIds: Type.Array(Uuid(), { description: 'The merchants this logistics app serves.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
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
