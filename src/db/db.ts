// One small interface over both databases (architecture.md#storage: same SQL dialect, one set of
// queries). Repositories take a Queryable so the same function runs inside or outside a
// transaction.

export type Row = Record<string, unknown>;

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * A name for a statement run many times a second (a poll, a token check). PostgreSQL then
   * parses and plans it once per connection instead of on every call: planning the poll's join
   * cost 110 µs of the server's CPU against 4 µs to run it (docs/benchmarks.md, "Poll storm").
   * Each name must always go with the same SQL text. PGlite ignores it.
   */
  prepare?: string;
}

export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type NotificationHandler = (payload: string) => void;

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Subscribes to a NOTIFY channel. `onReconnect` runs after the listening connection was lost
   * and re-established, since notifications sent in between are gone and callers must re-check.
   */
  listen(channel: string, handler: NotificationHandler, onReconnect?: () => void): Promise<() => Promise<void>>;
  /**
   * Resolves once every notification on `channel` committed before the call has reached the
   * channel's handlers in this process; rejects while the channel is not listened to (a lost
   * connection). What a cache learned from notifications holds up to the moment of the call
   * (docs/adr/0012-pending-keys-cache.md).
   */
  caughtUp(channel: string): Promise<void>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Error codes and messages that mean "the database cannot be reached right now" (D22 → 503). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: a replica, or a leader demoted by a failover (D46)
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return (
    message.includes('Connection terminated') ||
    message.includes('connection timeout') ||
    message.includes('Client has encountered a connection error') ||
    message.includes('timeout exceeded when trying to connect') ||
    message.includes('PGlite is closed') ||
    // D46: a session whose server became read-only (db/failover.ts) keeps only these words at times.
    /cannot execute .* in a read-only transaction/.test(message)
  );
}
