// A span per statement and per transaction (src/lib/tracing.ts), for both databases: the wrapper
// goes around the project's one query interface, so PostgreSQL and PGlite are traced alike.
// Only used while tracing is on (services.ts); off, the database object is the plain one.
import { SpanKind } from '@opentelemetry/api';
import { traced } from '../lib/tracing.js';
import type { Db, Queryable, QueryOptions } from './db.js';

/** The statement's first word (SELECT, INSERT, WITH…), the span's name. */
const operationOf = (sql: string) => /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
/** Long statements are cut: the text is for recognising the statement, and every byte is exported. */
const QUERY_TEXT_MAX = 300;

function tracedQueryable<Q extends Queryable>(inner: Q, system: string): Queryable {
  return {
    query: (sql: string, params?: unknown[], options?: QueryOptions) =>
      traced(`db ${operationOf(sql)}`, () => inner.query(sql, params, options), {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': system,
          'db.operation.name': operationOf(sql),
          'db.query.text': sql.length > QUERY_TEXT_MAX ? `${sql.slice(0, QUERY_TEXT_MAX)}…` : sql,
          ...(options?.prepare ? { 'db.query.summary': options.prepare } : {}),
        },
      }),
    exec: (sql: string) =>
      traced('db script', () => inner.exec(sql), {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': system },
      }),
  } as Queryable;
}

export function tracedDb(db: Db): Db {
  const system = db.kind === 'postgres' ? 'postgresql' : 'pglite';
  const direct = tracedQueryable(db, system);
  return {
    kind: db.kind,
    query: direct.query,
    exec: direct.exec,
    transaction: (fn) =>
      traced('db transaction', () => db.transaction((tx) => fn(tracedQueryable(tx, system))), {
        attributes: { 'db.system.name': system },
      }),
    listen: (channel, handler, onReconnect) => db.listen(channel, handler, onReconnect),
    caughtUp: (channel) => db.caughtUp(channel),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}
