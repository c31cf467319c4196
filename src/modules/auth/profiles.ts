// D27: the dialect an integration key speaks. `cleaver` is the spec as written (D1–D26);
// `opendelivery` is Open Delivery 1.7.0 wherever the two differ (D28). The profile belongs to the
// key, not the merchant: one merchant may run Open Delivery POS software and a spec-following
// tool side by side, each with its own key.
import { Type } from 'typebox';

export const INTEGRATION_PROFILES = ['cleaver', 'opendelivery'] as const;
export type IntegrationProfile = (typeof INTEGRATION_PROFILES)[number];
export const DEFAULT_PROFILE: IntegrationProfile = 'cleaver';

export const IntegrationProfileSchema = Type.Enum(INTEGRATION_PROFILES, {
  description:
    'D27: `cleaver` (default) follows the spec; `opendelivery` follows Open Delivery 1.7.0 where the two differ ' +
    '(one eventId per event occurrence, 422 for refused actions, application/problem+json errors, webhooks to ' +
    '/v1/newEvent, orders shaped by Open Delivery’s schema: D28).',
});

export const isOpenDelivery = (principal: { profile: IntegrationProfile }) => principal.profile === 'opendelivery';
