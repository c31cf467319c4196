import { Type } from 'typebox';
import { DateTime, Status, Uuid } from '../../lib/schemas.js';

export const MerchantIdParams = Type.Object({ merchantId: Uuid() });

export const MerchantSummary = Type.Object({
  id: Uuid(),
  name: Type.String(),
  status: Status,
  createdAt: DateTime(),
});

export const IntegrationKeySummary = Type.Object({
  keyId: Uuid(),
  name: Type.String(),
  createdAt: DateTime(),
  lastUsedAt: Type.Union([DateTime(), Type.Null()]),
});

export const MerchantDetail = Type.Object({
  id: Uuid(),
  name: Type.String(),
  status: Status,
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
  lastCatalogSync: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
});

export const CreateMerchantBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  id: Type.Optional(Uuid()),
  status: Type.Optional(Status),
});

export const UpdateMerchantBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(Status),
});

export const CreatedIntegrationKey = Type.Object({
  keyId: Uuid(),
  clientId: Uuid(),
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
