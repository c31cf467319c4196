import { reportDatabaseOutage } from '../db/failover.js';

/**
 * Default error sink of a background queue: a database that is away must not flood the log, so
 * one line per `everyMs` per queue, saying that the queue keeps retrying (D31); a database that
 * is away, one line per outage for the whole process (D46).
 */
export function throttledReport(queue: string, everyMs = 10_000, write = (line: string) => process.stderr.write(line)) {
  let lastAt = 0;
  return (error: unknown): void => {
    // D46: the database away is one line per outage for the whole process (lib/outage-report.ts).
    if (reportDatabaseOutage(error, `the ${queue} worker`)) return;
    const now = Date.now();
    if (now - lastAt < everyMs) return;
    lastAt = now;
    write(`${queue} worker: ${(error as Error)?.message ?? String(error)} (retrying)\n`);
  };
}
