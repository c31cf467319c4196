// A server span per HTTP request (src/lib/tracing.ts), registered only while tracing is on. The
// caller's `traceparent` (the platform's, the POS's) is honoured: the span continues its trace.
// The span is made active twice: for the hooks before the body is read, and again once it is
// (preValidation), since the body's stream events run outside the request's async context and
// everything after — validation, the handler, its database statements — must see the span.
import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endSpan, startSpan } from '../lib/tracing.js';

const spans = new WeakMap<FastifyRequest, Span>();

export function registerTracingHooks(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = context.with(parent, () =>
      startSpan(route ? `${request.method} ${route}` : request.method, {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?')[0] as string,
          ...(route ? { 'http.route': route } : {}),
          'cleaver.request_id': request.id,
        },
      }),
    );
    spans.set(request, span);
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const span = spans.get(request);
    if (!span) return done();
    context.with(trace.setSpan(ROOT_CONTEXT, span), done);
  });
  app.addHook('onError', (request, _reply, error, done) => {
    spans.get(request)?.recordException(error);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      spans.delete(request);
      span.setAttribute('http.response.status_code', reply.statusCode);
      endSpan(span, reply.statusCode >= 500 ? new Error(`HTTP ${reply.statusCode}`) : undefined);
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const span = spans.get(request);
    if (span) {
      spans.delete(request);
      endSpan(span, new Error('request aborted'));
    }
    done();
  });
}
