// The operator API (/admin/v1, operator-api.md): routes only; it owns no tables and reads the
// other modules through their index.ts.
export { adminAvailabilityRoutes } from './admin-availability-routes.js';
export { adminCatalogRoutes } from './admin-catalog-routes.js';
// The bodies console forms post too (style.md#habits): the console reads its fields with the same schemas.
export { CutBody, SpiceName } from './admin-cuts-routes.js';
export { adminLogisticsRoutes } from './admin-logistics-routes.js';
export { adminMerchantsRoutes } from './admin-merchants-routes.js';
export { adminNoticesRoutes } from './admin-notices-routes.js';
export { adminOrdersRoutes } from './admin-orders-routes.js';
export { adminScaleLabelRoutes } from './admin-scale-label-routes.js';
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
} from './admin-schemas.js';
export { adminWebhooksRoutes } from './admin-webhooks-routes.js';
export { adminWeighingRoutes } from './admin-weighing-routes.js';
