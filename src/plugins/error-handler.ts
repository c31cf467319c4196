import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/db.js';
import { reportDatabaseOutage } from '../db/failover.js';
import { noteErrorTitle } from '../lib/error-title.js';
import { AppError, Refusal } from '../lib/errors.js';
import { answerRefusal } from '../lib/route-declaration.js';
import { validationTitle } from './validation.js';

interface ErrorBody {
  title: string;
  status: number;
  [key: string]: unknown;
}

const FASTIFY_CODES: Record<string, { status: number; title: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, title: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, title: 'Unsupported content type: send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, title: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, title: 'Body is empty: send a JSON document' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, title: 'Body is not valid JSON' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, title: 'Invalid content type' },
  FST_ERR_BAD_URL: { status: 400, title: 'Malformed URL' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, title: 'A path parameter is too long' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, title: 'Invalid request' },
};

/** Maps any thrown error to the `{title, status}` body of spec 7 / D22. */
export function toErrorResponse(error: unknown): { body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    return {
      body: { title: error.title, status: error.status, ...error.extra.body },
      headers: error.extra.headers ?? {},
    };
  }
  const fe = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(fe.validation)) {
    return {
      body: { title: validationTitle(fe.validation as never, fe.validationContext), status: 400 },
      headers: {},
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      body: { title: 'Service temporarily unavailable', status: 503 },
      headers: { 'retry-after': '5' },
    };
  }
  const known = fe && typeof fe.code === 'string' ? FASTIFY_CODES[fe.code] : undefined;
  if (known) {
    return { body: { title: known.title, status: known.status }, headers: {} };
  }
  // JSON.parse failures surface as SyntaxError with statusCode 400.
  if (fe instanceof SyntaxError || (fe?.statusCode === 400 && /JSON/i.test(fe.message ?? ''))) {
    return { body: { title: 'Body is not valid JSON', status: 400 }, headers: {} };
  }
  if (fe?.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { body: { title: fe.message || 'Invalid request', status: fe.statusCode }, headers: {} };
  }
  return { body: { title: 'Internal Server Error', status: 500 }, headers: {} };
}

/**
 * Errors the router raises before any route or hook runs (a malformed percent-encoding, a path
 * parameter over maxParamLength): without this Fastify answers them in its own shape, not
 * `{title, status}` (found by the fuzz proof, architecture.md#fuzzing). Passed as Fastify's `frameworkErrors`.
 */
export function renderFrameworkError(error: unknown, _request: FastifyRequest, reply: FastifyReply): void {
  const { body, headers } = toErrorResponse(error);
  reply.code(body.status).headers(headers).type('application/json').send(body);
}

/**
 * D28.4: once the token is known, an opendelivery key's errors are `application/problem+json`
 * (Open Delivery's error content type, same {title, status}); everything else, including a
 * request refused before its token is read, is `application/json` (D22).
 */
function errorContentType(request: FastifyRequest): string {
  const principal = (request as { principal?: { profile?: string } }).principal;
  return principal?.profile === 'opendelivery' ? 'application/problem+json' : 'application/json';
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // A refused action is answered as the route declares it for the caller's profile (D28.3).
    const { body, headers } = toErrorResponse(error instanceof Refusal ? answerRefusal(error, request) : error);
    noteErrorTitle(request, body.title);
    // D46: the database away (a failover) is one warning line per outage, not a stack trace per
    // request; anything else that fails is logged whole.
    if (body.status >= 500 && !reportDatabaseOutage(error, 'requests')) {
      request.log.error({ err: error }, 'request failed');
    }
    reply.code(body.status).headers(headers).type(errorContentType(request)).send(body);
  });
  const methodsOf = registerMethodIndex(app);
  app.setNotFoundHandler((request, reply) => {
    // D35: a path that exists under other methods is 405 with Allow (RFC 9110 15.5.6), not 404,
    // so a developer does not go looking for a path that is there.
    const allowed = methodsOf(request.url);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply
        .code(405)
        .header('allow', allowed.join(', '))
        .type('application/json')
        .send({ title: 'Method Not Allowed', status: 405 });
      return;
    }
    reply.code(404).type('application/json').send({ title: 'Route not found', status: 404 });
  });
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A route's URL as a pattern over a request path: `:name` one segment, `*` the rest, `::` a literal colon. */
function routePattern(url: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const segments = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':') && !segment.startsWith('::')) return '[^/]+';
    return literal(segment.replaceAll('::', ':'));
  });
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * Every route's URL with its methods, as routes are declared (onRoute of the root reaches every
 * scope registered after it): what the not-found handler needs to tell a wrong method from a
 * wrong path. Returns the methods of the first pattern a request URL matches, in a fixed order.
 */
function registerMethodIndex(app: FastifyInstance): (url: string) => string[] {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    let entry = routes.get(route.url);
    if (!entry) {
      entry = { pattern: routePattern(route.url), methods: new Set() };
      routes.set(route.url, entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method);
    // Fastify answers HEAD for every GET route (exposeHeadRoutes).
    if (entry.methods.has('GET')) entry.methods.add('HEAD');
  });
  return (url) => {
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    let decoded = path;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // A malformed escape matches no pattern with literals beyond it; the raw path is tried.
    }
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) {
      if (pattern.test(path) || pattern.test(decoded)) for (const m of methods) allowed.add(m);
    }
    return METHOD_ORDER.filter((m) => allowed.has(m));
  };
}

const CLIENT_ERRORS: Record<string, { status: number; title: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, title: 'Request header fields are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, title: 'Request timeout: the request was not received in time' },
  HPE_URI_TOO_LONG: { status: 414, title: 'Request URI is too long' },
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (oversized headers, a malformed
 * request line): without this Fastify writes its own body shape. Passed as `clientErrorHandler`.
 */
export function renderClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (error.code && CLIENT_ERRORS[error.code]) || { status: 400, title: 'Malformed HTTP request' };
  const body = JSON.stringify({ title: known.title, status: known.status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
