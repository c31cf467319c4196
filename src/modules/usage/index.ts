// POS presence and usage per integration key (what other modules and app.ts may use of it).

export {
  createRequestLog,
  REQUEST_LOG_BODY_BYTES,
  REQUEST_LOG_HOURS,
  REQUEST_LOG_KEEP,
  type RequestLog,
  type RequestLogEntry,
} from './request-log.js';
export { ROUTE_GROUPS, type RouteGroup, routeGroupOf } from './route-groups.js';
export { createUsageRecorder, type UsageRecorder } from './usage-recorder.js';
export { KeyPresence, KeyUsage, type PresenceState } from './usage-schemas.js';
export { createUsageService, type PresenceConfig, presenceState, type UsageService } from './usage-service.js';
