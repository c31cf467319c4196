// The service's one JSON body parser (src/lib/json-body.ts holds the checks and says why).
import type { FastifyInstance } from 'fastify';
import { fastifyJsonText, parseJsonBytes } from '../lib/json-body.js';

/** Replaces the default `application/json` parser of `app` (and every scope below it). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = fastifyJsonText(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBytes(body as Buffer, request.headers['content-type'], parse));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
