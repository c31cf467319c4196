// The operator API (/admin/v1, operator-api.md): routes only; it owns no tables and reads the
// other modules through their index.ts.
export { operatorCatalogRoutes } from './operator-catalog-routes.js';
// The bodies console forms post too (style.md#habits): the console reads its fields with the same schemas.
export { CutBody } from './operator-cuts-routes.js';
export { operatorLogisticsRoutes } from './operator-logistics-routes.js';
export { operatorMerchantsRoutes } from './operator-merchants-routes.js';
export { operatorNoticesRoutes } from './operator-notices-routes.js';
export { operatorOrdersRoutes } from './operator-orders-routes.js';
export {
  CancellationDecisionBody,
  CreateIntegrationKeyBody,
  CreateMerchantBody,
  CustomerCancellationBody,
  HandMadeCategoryBody,
  HandMadeProductBody,
  PlatformEventBody,
  UpdateIntegrationKeyBody,
  UpdateMerchantBody,
} from './operator-schemas.js';
export { operatorWebhooksRoutes } from './operator-webhooks-routes.js';
