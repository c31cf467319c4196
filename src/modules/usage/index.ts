// POS presence and usage per integration key (what other modules and app.ts may use of it).
export { ROUTE_GROUPS, type RouteGroup, routeGroupOf } from './route-groups.js';
export { createUsageRecorder, type UsageRecorder } from './usage-recorder.js';
export { KeyPresence, KeyUsage, type PresenceState } from './usage-schemas.js';
export { createUsageService, type PresenceConfig, presenceState, type UsageService } from './usage-service.js';
