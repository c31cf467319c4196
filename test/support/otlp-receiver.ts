// A real OTLP/HTTP receiver on 127.0.0.1:0 for the tracing tests: it takes what the service's
// exporter sends to /v1/traces (OTLP JSON, the encoding of @opentelemetry/exporter-trace-otlp-http;
// gzip when OTEL_EXPORTER_OTLP_COMPRESSION asks for it), decodes every span with its resource's
// service name, and answers as a collector does (200, an empty partial success).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number; message?: string };
}

export interface OtlpReceiver {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the exporter appends /v1/traces. */
  url: string;
  spans: ReceivedSpan[];
  /** The request headers of every export (OTEL_EXPORTER_OTLP_HEADERS). */
  exports: Array<Record<string, string | string[] | undefined>>;
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

const anyValue = (v: AnyValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue;

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, anyValue(a.value)]));

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        links?: Array<{ traceId: string; spanId: string }>;
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiver['exports'] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      if (!String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      exports.push({ ...req.headers });
      const body = JSON.parse(raw.toString('utf8')) as ExportRequest;
      for (const resource of body.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? []) {
          for (const s of scope.spans ?? []) {
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
              status: s.status ?? {},
            });
          }
        }
      }
      for (const notify of [...waiters]) notify();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    exports,
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the OTLP receiver did not get the expected spans (${spans.length} so far)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
