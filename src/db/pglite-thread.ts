// The embedded database on a thread of its own (docs/adr/0009-embedded-database-thread.md).
// PGlite runs PostgreSQL in WebAssembly, and a statement holds the thread it runs on: on the
// service's thread, every claim and results write of a webhook drain stopped the sending, and a
// slow query stopped every request. Here the statements run in src/db/pglite-worker.ts and this
// side only sends them and waits, so the service's thread and the database use both cores.
//
// The same Db as src/db/pglite.ts, with its rules: one session, so a transaction holds it whole
// (statements sent meanwhile wait for its end, in the order they came), and the main handle must
// not be used inside a transaction's callback (it would wait on itself).
import { Worker } from 'node:worker_threads';
import type { Db, NotificationHandler, Queryable, QueryResult } from './db.js';
import type { FromThread, ThreadOptions, ToThread } from './pglite-thread-protocol.js';

type Request = ToThread extends infer T ? (T extends { id: number } ? Omit<T, 'id'> : never) : never;

interface Waiting {
  resolve(reply: { rows?: unknown[]; rowCount?: number }): void;
  reject(error: Error): void;
}

/** A PostgreSQL error as the thread described it: the same fields (`code`, `constraint`…). */
function rebuildError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'embedded database error'));
  for (const [key, value] of Object.entries(fields)) {
    if (key !== 'message' && key !== 'stack') (error as unknown as Record<string, unknown>)[key] = value;
  }
  return error;
}

/**
 * The thread's JavaScript is small (PGlite's glue; rows parsed and handed over), and V8's default
 * young generation grew to tens of MiB of resident memory for it: with 1 MiB the service's RSS
 * after start was 221 instead of 241 MiB (median of 3), and webhook drains as fast
 * (docs/benchmarks.md, "Figures of 2026-11-25, seventh session").
 */
const LIMITS = { maxYoungGenerationSizeMb: 1 };

/**
 * The service's own Node flags are not passed on (a worker inherits them by default): with
 * `--enable-source-maps` the thread kept the source maps of PGlite's bundle, and a service on the
 * embedded database started 10–25 MiB larger than with PGlite in process. The thread's errors
 * reach the service as PostgreSQL's fields, never as a stack trace to map (docs/benchmarks.md,
 * "Figures of 2026-11-27, eighth session").
 */
const WORKER_OPTIONS = { resourceLimits: LIMITS, execArgv: [] as string[] };

/**
 * The worker's code: beside this module, .js in dist/; under tsx and the tests the .ts source,
 * loaded through tsx's loader registered in the new thread (a thread does not inherit it).
 */
function startWorker(options: ThreadOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { ...WORKER_OPTIONS, workerData: options });
  const source = new URL('./pglite-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { ...WORKER_OPTIONS, eval: true, workerData: options });
}

export async function openPgliteThread(options: ThreadOptions): Promise<Db> {
  const worker = startWorker(options);
  const waiting = new Map<number, Waiting>();
  const listeners = new Map<string, Set<NotificationHandler>>();
  let nextId = 1;
  let closed: Error | undefined;

  // The thread keeps the process alive only while a statement is under way, as an in-process
  // PGlite would: an idle database must not stop a CLI command from exiting.
  const refresh = () => (waiting.size > 0 ? worker.ref() : worker.unref());

  const fail = (error: Error) => {
    closed ??= error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
    refresh();
  };

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromThread) => {
      if ('ready' in message) {
        if (message.ready) resolve();
        else reject(rebuildError(message.error));
        return;
      }
      if ('notification' in message) {
        for (const handler of listeners.get(message.notification) ?? []) handler(message.payload);
        return;
      }
      const w = waiting.get(message.id);
      if (!w) return;
      waiting.delete(message.id);
      refresh();
      if (message.ok) w.resolve(message);
      else w.reject(rebuildError(message.error));
    });
    worker.on('error', (error) => {
      reject(error);
      fail(new Error(`PGlite is closed: its thread failed (${error.message})`));
    });
    worker.on('exit', (code) => {
      reject(new Error(`PGlite is closed: its thread exited (${code}) while starting`));
      fail(new Error(`PGlite is closed: its thread exited (${code})`));
    });
  });
  await ready;
  refresh();

  function send(request: Request): Promise<{ rows?: unknown[]; rowCount?: number }> {
    if (closed) return Promise.reject(new Error(closed.message));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      try {
        worker.postMessage({ ...request, id } as ToThread);
      } catch (error) {
        // A parameter that cannot cross to the thread (a function…): this statement fails alone.
        reject(new Error(`A statement parameter cannot be sent to the embedded database: ${(error as Error).message}`));
        return;
      }
      waiting.set(id, { resolve, reject });
      if (waiting.size === 1) refresh();
    });
  }

  const direct: Queryable = {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const reply = await send(params === undefined ? { op: 'query', sql } : { op: 'query', sql, params });
      return { rows: (reply.rows ?? []) as T[], rowCount: reply.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await send({ op: 'exec', sql });
    },
  };

  // Set while a transaction is queued or open: what comes after it waits for its end.
  let busyUntil: Promise<void> | null = null;
  const afterTransactions = <T>(run: () => Promise<T>): Promise<T> =>
    busyUntil === null ? run() : busyUntil.then(run);

  return {
    kind: 'pglite',
    query: (sql, params) => afterTransactions(() => direct.query(sql, params)),
    exec: (sql) => afterTransactions(() => direct.exec(sql)),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const before = busyUntil ?? Promise.resolve();
      let release = () => {};
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      busyUntil = mine;
      return before
        .then(async () => {
          await direct.exec('BEGIN');
          let result: T;
          try {
            result = await fn(direct);
          } catch (error) {
            await direct.exec('ROLLBACK').catch(() => {});
            throw error;
          }
          await direct.exec('COMMIT');
          return result;
        })
        .finally(() => {
          if (busyUntil === mine) busyUntil = null;
          release();
        });
    },
    async listen(channel: string, handler: NotificationHandler) {
      let handlers = listeners.get(channel);
      if (!handlers) {
        handlers = new Set();
        listeners.set(channel, handlers);
        await send({ op: 'listen', channel });
      }
      handlers.add(handler);
      return async () => {
        handlers.delete(handler);
        if (handlers.size > 0 || listeners.get(channel) !== handlers) return;
        listeners.delete(channel);
        if (!closed) await send({ op: 'unlisten', channel });
      };
    },
    // One session: the thread posts a notification before the reply of the statement that
    // committed it, and messages arrive in order, so nothing committed can still be on its way.
    caughtUp: () => (closed ? Promise.reject(new Error(closed.message)) : Promise.resolve()),
    async ping() {
      await afterTransactions(() => direct.query('SELECT 1'));
    },
    async close() {
      if (closed) return;
      await afterTransactions(() => send({ op: 'close' }));
      fail(new Error('PGlite is closed'));
      await worker.terminate();
    },
  };
}
