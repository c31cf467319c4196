// What other modules and app.ts may use of logistics (architecture.md#module-boundaries: never its tables directly).

export { createLogisticsAppsService, type LogisticsAppsService } from './logistics-apps-service.js';
export { type LogisticsCaller, readLogisticsHeaders, useLogisticsAuth } from './logistics-auth.js';
export { logisticsRoutes } from './logistics-routes.js';
export { LogisticsUpdateView } from './logistics-schemas.js';
export { createLogisticsService, type LogisticsService } from './logistics-service.js';
