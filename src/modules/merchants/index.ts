// What other modules, the console and app.ts may use of merchants (architecture.md#module-boundaries).

export { pauseOf, type StorePause } from './merchant-pause.js';
export type { MerchantRow } from './merchants-repository.js';
export {
  checkWebhookBaseUrl,
  createMerchantsService,
  type IntegrationConfig,
  type MerchantsService,
  merchantNotFound,
  type OnboardingInput,
} from './merchants-service.js';
export { IntegrationConfigSchema, onboardingRoutes } from './onboarding-routes.js';
export {
  MerchantPauseStatus,
  PAUSE_DESCRIPTION,
  PauseBody,
  PauseView,
  pauseRoutes,
  pauseStatus,
} from './pause-routes.js';
export { LAYOUTS_DESCRIPTION, scaleLabelRoutes } from './scale-label-routes.js';
export {
  checkScheduling,
  DEFAULT_SCHEDULING,
  type Scheduling,
  type Slot,
  schedulingOf,
  slotAt,
  slotsBetween,
} from './scheduling-settings.js';
export { webhookTargetOf } from './webhook-address.js';
