// GET /admin/v1/feed (D36, operator-api.md#third-round-the-platform-feed-cuts-weighing): the
// platform feed over HTTP, paged by cursor, filtered by kind and merchant, with a long poll.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { declareRoute, READ_WITH_PLATFORM } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { FeedPage, FeedQuery } from './feed-schemas.js';
import type { FeedService } from './feed-service.js';

export const feedRoutes: FastifyPluginAsyncTypebox<{ feed: FeedService }> = async (app, { feed }) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/feed',
      access: READ_WITH_PLATFORM,
      summary:
        'The platform feed (D36): every order event and change of merchants, catalogs and webhook endpoints, in order; follow `next`',
      description:
        'The platform feed: every order event (with what the platform acts on, such as the preparation time ' +
        'of a confirmation or the reason of a cancellation), tracking and logistics updates, delivery code ' +
        'checks, weighings, and changes of merchants, catalogs and webhook endpoints, oldest first. Pass ' +
        '`next` as `after` to read on: an item is never skipped nor repeated, whatever order concurrent ' +
        'changes were committed in. `after` absent: from the oldest item kept (7 days by default). With ' +
        '`wait` (at most 30 seconds) an empty answer is held until an item arrives. The same items leave ' +
        'through NATS JetStream when the service is configured with a broker (/asyncapi.json). Errors: 400 ' +
        'naming the parameter.',
      schema: {
        tags: ['feed'],
        querystring: FeedQuery,
        response: { 200: FeedPage, ...errorResponses(400, 401, 403) },
      },
      handler: (request) => feed.read(request.query),
    }),
  );
};
