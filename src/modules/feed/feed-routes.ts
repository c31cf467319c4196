// GET /admin/v1/feed (D36, operator-api.md#third-round-the-platform-feed-cuts-weighing): the
// platform feed over HTTP, paged by cursor, filtered by kind and merchant, with a long poll.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../lib/schemas.js';
import { FeedPage, FeedQuery } from './feed-schemas.js';
import type { FeedService } from './feed-service.js';

export const feedRoutes: FastifyPluginAsyncTypebox<{ feed: FeedService }> = async (app, { feed }) => {
  app.get(
    '/feed',
    {
      schema: {
        tags: ['feed'],
        summary:
          'The platform feed (D36): every order event and change of merchants, catalogs and webhook endpoints, in order; follow `next`',
        querystring: FeedQuery,
        response: { 200: FeedPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => feed.read(request.query),
  );
};
