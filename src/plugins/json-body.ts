// The service's one JSON body parser (src/lib/json-body.ts holds the checks and says why).
import type { FastifyInstance } from 'fastify';
import { fastifyJsonText, parseJsonBytes } from '../lib/json-body.js';

/** Replaces the default `application/json` parser of `app` (and every scope below it). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = fastifyJsonText(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      // D35: POS software labels every POST application/json, also the action calls that carry
      // nothing (readyForPickup with Content-Length: 0). An empty body is no body where the route
      // takes none or only optional fields; a route with required fields still says it is empty.
      if ((body as Buffer).length === 0 && takesNoRequiredBody(request.routeOptions.schema?.body)) {
        done(null, undefined);
        return;
      }
      done(null, parseJsonBytes(body as Buffer, request.headers['content-type'], parse));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** No body schema, or an object whose every field is optional. */
function takesNoRequiredBody(schema: unknown): boolean {
  if (schema === undefined || schema === null) return true;
  const s = schema as { type?: unknown; required?: unknown[] };
  return s.type === 'object' && (s.required === undefined || s.required.length === 0);
}
