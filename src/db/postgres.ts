import pg from 'pg';
import type { Db, NotificationHandler, Queryable, QueryOptions, QueryResult } from './db.js';
import { dropsConnection } from './failover.js';

// bigint columns (counts, sequence numbers) stay far below 2^53: return numbers, as PGlite
// does, so repositories see one shape. numeric stays a string (exact money, D9).
pg.types.setTypeParser(20, (value: string) => Number(value));

export interface PostgresOptions {
  connectionString: string;
  max?: number;
  /** Called for errors on idle connections, which would otherwise crash the process. */
  onError?: (error: Error) => void;
  /**
   * Named statements for the hottest queries (QueryOptions.prepare); on by default. Off for a
   * connection pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
}

function wrap(client: pg.Pool | pg.PoolClient, prepared: boolean): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      const result =
        prepared && options?.prepare
          ? await client.query({ name: options.prepare, text: sql, values: params as unknown[] })
          : await client.query(sql, params as unknown[]);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

export function openPostgres(options: PostgresOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (error) => options.onError?.(error));
  // The pool only listens for errors on idle connections. A connection that dies while checked
  // out (between two statements of a transaction, when PostgreSQL goes away under load) emits
  // 'error' on its client; with no listener that killed the process (architecture.md#database-outage). The
  // failed statement reports the error to its caller; this keeps the process alive.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onError?.(error));
  });
  const prepared = options.preparedStatements ?? true;
  const direct = wrap(pool, prepared);
  const listeners: Array<() => Promise<void>> = [];
  const caughtUpOf = new Map<string, Set<() => Promise<void>>>();

  return {
    kind: 'postgres',
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client, prepared));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // the connection is gone; do not return it to the pool
        }
        // D46: a server that went read-only or is shutting down keeps this connection useless
        // (its session stays read-only even once the cluster has a new leader): dropped. Queries
        // outside a transaction (pool.query) are dropped by the pool on any error already.
        if (dropsConnection(error)) broken = true;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async listen(channel: string, handler: NotificationHandler, onReconnect?: () => void) {
      const { stop, firstAttempt, caughtUp } = listenWithReconnect(options, channel, handler, onReconnect);
      listeners.push(stop);
      const ofChannel = caughtUpOf.get(channel) ?? new Set<() => Promise<void>>();
      caughtUpOf.set(channel, ofChannel);
      ofChannel.add(caughtUp);
      // Wait for the first LISTEN, so a NOTIFY sent right after start() is not missed. If that
      // attempt fails, reconnects go on in the background and onReconnect covers the gap.
      await firstAttempt;
      return async () => {
        ofChannel.delete(caughtUp);
        await stop();
      };
    },
    caughtUp(channel: string): Promise<void> {
      const ofChannel = caughtUpOf.get(channel);
      if (!ofChannel?.size) return Promise.reject(new Error(`not listening on ${channel}`));
      // One listener is the usual case: its promise as it is, no array and no Promise.all per poll.
      if (ofChannel.size === 1) for (const caughtUp of ofChannel) return caughtUp();
      return Promise.all([...ofChannel].map((caughtUp) => caughtUp())).then(() => undefined);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await Promise.all(listeners.map((stop) => stop()));
      await pool.end();
    },
  };
}

/**
 * The least time between two `caughtUp` round trips of one listening connection, unless
 * CAUGHT_UP_BATCH calls are already waiting: a poll waits at most this long for its turn.
 */
export const CAUGHT_UP_GAP_MS = 5;
/** Calls that start a round trip at once (the one before it answered): a busy process does not wait out the gap. */
export const CAUGHT_UP_BATCH = 16;

/**
 * A dedicated connection that LISTENs, and comes back by itself after an outage: notifications
 * are best effort, so every reconnect tells the caller to re-check what it may have missed.
 */
function listenWithReconnect(
  options: PostgresOptions,
  channel: string,
  handler: NotificationHandler,
  onReconnect?: () => void,
): { stop: () => Promise<void>; firstAttempt: Promise<void>; caughtUp: () => Promise<void> } {
  let stopped = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;

  const connect = async () => {
    if (stopped) return;
    // Named, so an operator (and a test) tells it apart in pg_stat_activity.
    const c = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: 2000,
      application_name: `cleaver listen ${channel}`.slice(0, 63),
    });
    c.on('error', (error) => {
      options.onError?.(error);
      scheduleReconnect(c);
    });
    c.on('end', () => scheduleReconnect(c));
    c.on('notification', (msg) => {
      if (msg.channel === channel) handler(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      client = c;
      if (attempt > 0) onReconnect?.();
      attempt = 0;
    } catch {
      scheduleReconnect(c);
    }
  };

  const scheduleReconnect = (c: pg.Client) => {
    if (stopped || (client !== undefined && client !== c) || timer) return;
    client = undefined;
    c.removeAllListeners('end');
    c.end().catch(() => {});
    attempt += 1;
    const delay = Math.min(2000, 100 * 2 ** Math.min(attempt, 5));
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
  };

  // caughtUp: PostgreSQL hands a session the notifications committed before it answers a
  // statement (they come ahead of its ReadyForQuery), so one round trip on the listening
  // connection, sent after the call, brings every notification committed before it. The calls
  // that arrive while one round trip is out share the next one (one in flight, one gathering),
  // and round trips start at least CAUGHT_UP_GAP_MS apart: a round trip is two system calls here
  // and a statement there, which cost a 204 poll under load more than all the rest of its own
  // work (docs/adr/0012-pending-keys-cache.md, "Spacing the round trips"). A call never waits for
  // a round trip sent before it, so the gap delays answers, never makes one less fresh. The calls
  // that share a round trip share one promise too: a promise and two functions made per call
  // were most of what a 204 poll allocated beyond `/health/live` (docs/benchmarks.md, "Figures
  // of 2026-12-06").
  let gathering: RoundTripCallers | undefined;
  let inFlight = false;
  let scheduled = false;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  const roundTrip = () => {
    scheduled = false;
    if (gapTimer !== undefined) clearTimeout(gapTimer);
    gapTimer = undefined;
    const c = client;
    const batch = gathering;
    gathering = undefined;
    if (!batch) return;
    if (!c) {
      batch.reject(new Error(`not listening on ${channel}`));
      return;
    }
    inFlight = true;
    lastSentAt = performance.now();
    c.query('SELECT 1')
      .then(
        () => {
          // Still the connection that listened all along: one that was lost and came back may
          // have missed notifications (its onReconnect tells the caller to forget).
          if (client === c) batch.resolve();
          else batch.reject(new Error(`the connection listening on ${channel} changed`));
        },
        (error: Error) => batch.reject(error),
      )
      .finally(() => {
        inFlight = false;
        if (gathering && gathering.count >= CAUGHT_UP_BATCH) roundTrip();
        else if (gathering) schedule();
      });
  };
  /** The next round trip: at the end of this turn (this turn's callers join it), or once the gap has passed. */
  let gapTimer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (scheduled || inFlight) return;
    scheduled = true;
    const wait = lastSentAt + CAUGHT_UP_GAP_MS - performance.now();
    // Whole milliseconds up: a timer of 4.3 ms may fire after 4.
    if (wait > 0) gapTimer = setTimeout(roundTrip, Math.ceil(wait));
    else setImmediate(roundTrip);
  };
  const caughtUp = (): Promise<void> => {
    if (stopped || !client) return Promise.reject(new Error(`not listening on ${channel}`));
    gathering ??= roundTripCallers();
    gathering.count += 1;
    // Enough callers for a round trip of their own: no need to wait out the gap.
    if (gathering.count >= CAUGHT_UP_BATCH && !inFlight && gapTimer !== undefined) {
      clearTimeout(gapTimer);
      gapTimer = undefined;
      setImmediate(roundTrip);
    } else schedule();
    return gathering.promise;
  };

  const firstAttempt = connect();
  const stop = async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = undefined;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  };
  return { stop, firstAttempt, caughtUp };
}

/** The calls waiting for one round trip: one promise they all wait on, settled once. */
interface RoundTripCallers {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  count: number;
}

function roundTripCallers(): RoundTripCallers {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject, count: 0 };
}
