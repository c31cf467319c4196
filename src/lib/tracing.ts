// OpenTelemetry tracing (docs/operations.md, "Tracing"): off unless OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, and then exported as OTLP over HTTP (protobuf, or JSON
// with OTEL_EXPORTER_OTLP_PROTOCOL=http/json) to that collector, configured by the standard
// OTEL_* variables (OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER and its argument,
// OTEL_BSP_*). Off costs nothing: the SDK is never loaded, no hook is registered and every helper
// below returns after one boolean test (the API alone, without a provider, would still create
// no-op spans and allocate contexts). Spans are made by hand where the work is (Fastify hooks,
// the database's query function, Redis commands, workers' passes, webhook deliveries, the feed's
// stamper and relay, NATS publishes): the auto-instrumentations patch modules through require
// or loader hooks, which do not see modules loaded by tsx's ESM loader, cover neither PGlite nor
// nats.js, and would cost their patching when tracing is off.
//
// Context crosses the asynchronous hops as a W3C `traceparent` stored with the row that makes
// the hop (an order event, a webhook delivery, a feed item: migration 0029) and taken up again
// by whoever works the row later: the webhook worker and the feed relay continue the trace (the
// delivery and the NATS message carry `traceparent` headers); the POS's poll and
// acknowledgement link to it.
import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

let tracer: Tracer | null = null;
let running: RunningTracing | null = null;

/** True while traces are exported: the one test every helper makes first. */
export function tracingOn(): boolean {
  return tracer !== null;
}

export interface RunningTracing {
  /** Exports every span ended so far. */
  flush(): Promise<void>;
  /** Flushes and turns tracing off. */
  shutdown(): Promise<void>;
}

/**
 * Where spans go, when tracing is wanted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or
 * OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces (the OTLP exporter specification's rule).
 */
export function tracingEndpoint(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return null;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return null;
}

/**
 * Loads the SDK and starts exporting, when `env` names an endpoint; null otherwise. Once per
 * process. The exporter, the sampler and the resource read their other OTEL_* variables from the
 * process's environment.
 */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
  defaults: { serviceName?: string; serviceVersion?: string } = {},
): Promise<RunningTracing | null> {
  const url = tracingEndpoint(env);
  if (!url) return null;
  if (running) return running;
  // OTLP/HTTP, protobuf unless OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says http/json (the
  // specification's default; protobuf also costs the process less to encode than JSON).
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "${protocol}"`,
    );
  }
  const [base, exporterModule, hooks, core, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resources
    .resourceFromAttributes({
      'service.name': defaults.serviceName ?? 'cleaver',
      ...(defaults.serviceVersion ? { 'service.version': defaults.serviceVersion } : {}),
    })
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new base.BasicTracerProvider({
    resource,
    spanProcessors: [new base.BatchSpanProcessor(new exporterModule.OTLPTraceExporter({ url }))],
  });
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('cleaver');
  running = {
    flush: () => provider.forceFlush(),
    async shutdown() {
      tracer = null;
      running = null;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
  return running;
}

/** The tracer; only call after tracingOn() said true. */
export function activeTracer(): Tracer {
  return tracer as Tracer;
}

/** The context a stored or received `traceparent` names (the root context when none or invalid). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** A span link to the span a `traceparent` names, or null. */
export function linkTo(traceparent: string | null | undefined): Link | null {
  const span = trace.getSpanContext(contextOf(traceparent));
  return span ? { context: span } : null;
}

/** The `traceparent` of the active span (to store with a row or send as a header); null when off. */
export function currentTraceparent(): string | null {
  if (!tracer) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The `traceparent` of a given span. */
export function traceparentOf(span: Span): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent ?? null;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Continue this stored trace instead of the active one. */
  parent?: string | null;
  links?: Array<string | null | undefined>;
}

/** Ends a span with the outcome of its work. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/** Starts a span (not made active); only call after tracingOn() said true. */
export function startSpan(name: string, options: SpanOptions = {}): Span {
  const parent = options.parent !== undefined ? contextOf(options.parent) : context.active();
  const links = (options.links ?? []).map(linkTo).filter((l): l is Link => l !== null);
  return (tracer as Tracer).startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links },
    parent,
  );
}

/** Runs `work` in a span of its own when tracing is on; just runs it when off. */
export function traced<T>(name: string, work: (span: Span | null) => Promise<T>, options?: SpanOptions): Promise<T> {
  if (!tracer) return work(null);
  const span = startSpan(name, options);
  return context.with(trace.setSpan(context.active(), span), async () => {
    try {
      const result = await work(span);
      endSpan(span);
      return result;
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  });
}

/** Links the active span to the spans the given `traceparent`s name (the POS's poll and acknowledgement). */
export function linkActiveSpan<T>(items: readonly T[], traceparentOf: (item: T) => string | null | undefined): void {
  // The getter is called only with tracing on: an untraced poll builds no array for it.
  if (!tracer) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  for (const item of items) {
    const link = linkTo(traceparentOf(item));
    if (link) span.addLink(link);
  }
}

export { SpanKind };
