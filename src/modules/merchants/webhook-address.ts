// D40: the Open Delivery webhook address as POS software registers it. The platform appends the
// webhook path to the stored base (spec 4.2: /v1/orderUpdate; D28: /v1/newEvent for an
// opendelivery key). An opendelivery key that registers the endpoint itself, whose path ends in
// /v1/newEvent (the Open Delivery request collection's own sample), means that address: its base
// is what comes before, so events go to the address as it was given, never to
// …/v1/newEvent/v1/newEvent.
import type { IntegrationProfile } from '../auth/index.js';
import { NEW_EVENT_PATH, ORDER_UPDATE_PATH } from '../webhooks/index.js';

/** The base to store for an address a key of this profile registered. */
export function webhookBaseOf(registered: string, profile: IntegrationProfile): string {
  if (profile !== 'opendelivery') return registered;
  let url: URL;
  try {
    url = new URL(registered);
  } catch {
    return registered; // checkWebhookBaseUrl names what is wrong with it
  }
  // Both as written and as parsed: a query or fragment after it makes it no endpoint path.
  if (!registered.endsWith(NEW_EVENT_PATH) || !url.pathname.endsWith(NEW_EVENT_PATH)) return registered;
  return registered.slice(0, registered.length - NEW_EVENT_PATH.length);
}

/** Where events go for a stored base: what the onboarding answer and GET show (D40). */
export function webhookTargetOf(base: string, profile: IntegrationProfile): string {
  return `${base}${profile === 'opendelivery' ? NEW_EVENT_PATH : ORDER_UPDATE_PATH}`;
}
