// The operator API (/admin/v1, operator-api.md): routes only; it owns no tables and reads the
// other modules through their index.ts.
export { operatorCatalogRoutes } from './operator-catalog-routes.js';
export { operatorLogisticsRoutes } from './operator-logistics-routes.js';
export { operatorMerchantsRoutes } from './operator-merchants-routes.js';
export { operatorNoticesRoutes } from './operator-notices-routes.js';
export { operatorOrdersRoutes } from './operator-orders-routes.js';
export { operatorWebhooksRoutes } from './operator-webhooks-routes.js';
