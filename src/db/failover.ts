// D46: what a PostgreSQL failover looks like from a connection, and what the service does about
// it. A connection opened to the old leader either dies (the node restarts as a replica: 57P01
// admin_shutdown, a reset socket) or, when it survives, finds its server read-only (25006
// read_only_sql_transaction, or "cannot execute … in a read-only transaction" from a session whose
// default became read-only). Either way the connection is no use any more: it is dropped from
// the pool, never handed to the next request, and the request is answered 503 with Retry-After.
import { type OutageReporter, reportOutage } from '../lib/outage-report.js';
import { isDatabaseUnavailable } from './db.js';

/** SQLSTATE 25006: the server (or this session) is read-only, a standby or a demoted leader. */
const READ_ONLY = '25006';

/** A statement the server refused because it is read-only (a replica, or a read-only session). */
export function isReadOnlyServer(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown };
  if (e.code === READ_ONLY) return true;
  // Some paths (a driver that lost the code, PGlite) keep only PostgreSQL's words.
  return typeof e.message === 'string' && /cannot execute .* in a read-only transaction/.test(e.message);
}

/**
 * A connection that raised this must not be reused: its server is gone, going, or read-only.
 * Such an error answers 503 (isDatabaseUnavailable), never 500.
 */
export function dropsConnection(error: unknown): boolean {
  return isReadOnlyServer(error) || isDatabaseUnavailable(error);
}

/** The condition in a few words, for the one warning line of an outage. */
export function failoverProblem(error: unknown): string {
  if (isReadOnlyServer(error)) return 'the server is read-only (a replica, or a failover under way)';
  const e = error as { code?: unknown; message?: unknown };
  switch (e?.code) {
    case '57P01':
      return 'the server terminated the connection (admin_shutdown)';
    case '57P02':
      return 'the server crashed (crash_shutdown)';
    case '57P03':
      return 'the server cannot accept connections now (starting, stopping or in recovery)';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
  }
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return (message.split('\n')[0] ?? message).slice(0, 200);
}

/**
 * Reports a database error that `dropsConnection` through the process's one line per outage
 * (lib/outage-report.ts); answers false for any other error, which its caller reports itself.
 */
export function reportDatabaseOutage(error: unknown, where: string, report: OutageReporter = reportOutage): boolean {
  if (!dropsConnection(error)) return false;
  report('database', failoverProblem(error), where);
  return true;
}
