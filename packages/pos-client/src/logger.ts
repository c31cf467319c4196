// Where the client and the event loop report what went wrong: a logger the caller passes, with
// pino's shape (`logger.warn({ ...fields }, 'message')`); `console` fits too. Without one the
// package is silent; errors still reach the caller through thrown errors and onError.

export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

export type LogLevel = keyof Logger;

/** Logs without ever throwing: a broken logger must not break the request or the loop. */
export function safeLog(logger: Logger | undefined, level: LogLevel, fields: object, message: string): void {
  if (!logger) return;
  try {
    logger[level](fields, message);
  } catch {
    // nothing sensible to do: the logger itself failed
  }
}
