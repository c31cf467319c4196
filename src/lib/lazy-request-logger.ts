// A request's logger, made the first time the request logs. Fastify gives every request a child
// of the service's logger carrying its request id, and pino builds a child eagerly: it serializes
// the bindings through the redaction paths, a few microseconds a request. Almost no request logs
// (request lines are off below `debug`), so that work was thrown away on nearly every request;
// at the poll storm's rate it was the largest single piece of the service's own work on a
// `/health/live` (docs/benchmarks.md, "Figures of 2026-11-28, 10:00–12:30 UTC").
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Whether `logger` writes lines at `level`; a logger that cannot say is taken to write them. */
function writes(logger: FastifyBaseLogger, level: LevelWithSilentOrString): boolean {
  const pino = logger as Partial<Logger>;
  return typeof pino.isLevelEnabled === 'function' ? pino.isLevelEnabled(level) : true;
}

/** Has the methods of a pino logger; builds the real child on the first call that would write. */
class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The child itself, built now if it was not yet. */
  private made(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }

  /**
   * Whether a line at `level` would be written. Without a level of its own, the child writes what
   * its parent writes, so the parent answers and nothing is built for a line below the level.
   */
  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    if (this.real === undefined && this.options.level === undefined) return writes(this.parent, level);
    return writes(this.made(), level);
  }

  get level(): LevelWithSilentOrString {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.made().level = level;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    const logger = this.made() as unknown as Record<LevelName, (...a: unknown[]) => void>;
    logger[level](...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is built when it first writes a line. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
