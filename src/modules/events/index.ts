// What other modules may use of events (architecture.md#module-boundaries: never its tables directly).
export * from './event-contract.js';
export { type EventOccurrence, eventRecordFor } from './event-dialects.js';
export { eventsRoutes } from './events-routes.js';
export { EventMetadata, EventRecordSchema } from './events-schemas.js';
export {
  createEventsService,
  type EventsService,
  eventIdOf,
  orderNotFound,
  type PollableEventType,
} from './events-service.js';
