// Tracing is off unless an OTLP endpoint is named (docs/operations.md, "Tracing"), and off it
// does nothing: no SDK, no span, no stored trace context.
import { describe, expect, it } from 'vitest';
import { currentTraceparent, startTracing, traced, tracingEndpoint, tracingOn } from './tracing.js';

describe('tracing', () => {
  it('is on only with an endpoint; the traces endpoint wins; disabling wins over both', () => {
    expect(tracingEndpoint({})).toBeNull();
    expect(tracingEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      tracingEndpoint({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/in',
      }),
    ).toBe('https://traces.example/in');
    expect(tracingEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracingEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  });

  it('off, starts nothing, stores no context and runs work as it is', async () => {
    expect(await startTracing({})).toBeNull();
    expect(tracingOn()).toBe(false);
    expect(currentTraceparent()).toBeNull();
    expect(await traced('work', async (span) => span)).toBeNull();
  });

  it('refuses a protocol it cannot export with, naming the variable', async () => {
    await expect(
      startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).rejects.toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "grpc"',
    );
    expect(tracingOn()).toBe(false);
  });
});
