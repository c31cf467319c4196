// What other modules may use of the platform feed (architecture.md#module-boundaries: never its
// tables directly). Modules that write items take a `FeedRecorder` and call it in their change's
// transaction (D36).

export { type AsyncApiOptions, asyncApiDocument } from './feed-asyncapi.js';
export { createFeedRelay, type FeedRelay, type FeedRelayHealth, subjectOf } from './feed-relay.js';
export { feedRoutes } from './feed-routes.js';
export {
  FEED_DATA,
  FEED_KINDS,
  FeedItem,
  type FeedItemView,
  type FeedKind,
  FeedPage,
  FeedQuery,
} from './feed-schemas.js';
export {
  createFeedService,
  type FeedInput,
  type FeedOrderEvent,
  type FeedRecorder,
  type FeedService,
  noFeed,
} from './feed-service.js';
export { publishProblem } from './feed-stream.js';
