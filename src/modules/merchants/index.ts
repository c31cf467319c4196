// What other modules, the console and app.ts may use of merchants (architecture.md#module-boundaries).
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
export { LAYOUTS_DESCRIPTION, scaleLabelRoutes } from './scale-label-routes.js';
