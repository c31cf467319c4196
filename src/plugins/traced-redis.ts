// A span per Redis command (src/lib/tracing.ts), only while tracing is on: every command of the
// client, single or pipelined (the rate limiter's counting script), passes through sendCommand.
import { SpanKind } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import { endSpan, startSpan, tracingOn } from '../lib/tracing.js';

const TRACED = Symbol('cleaver.tracedRedis');

export function traceRedis(redis: Redis): void {
  const client = redis as Redis & { [TRACED]?: true };
  if (!tracingOn() || client[TRACED]) return;
  client[TRACED] = true;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    if (!tracingOn()) return send(command, stream);
    const span = startSpan(`redis ${command.name}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'redis', 'db.operation.name': command.name },
    });
    const sent = send(command, stream);
    command.promise.then(
      () => endSpan(span),
      (error: unknown) => endSpan(span, error),
    );
    return sent;
  };
}
