// What other modules may use of events (ARCHITECTURE.md: never its tables directly).
export * from './event-contract.js';
export { createEventsService, type EventsService, eventIdOf, orderNotFound } from './events-service.js';
