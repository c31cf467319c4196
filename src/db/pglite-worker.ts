// The embedded database's own thread (src/db/pglite-thread.ts; docs/adr/0009-embedded-database-thread.md).
// PGlite runs PostgreSQL in WebAssembly: a statement holds the thread it runs on. Here it holds
// this one, and the service's thread goes on serving HTTP and sending webhooks meanwhile.
//
// Messages run in the order they arrive (PGlite queues its statements first in, first out). The
// service's side keeps transactions whole: while one is open, nothing else is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_SETTINGS } from './pglite-settings.js';
import type { FromThread, ThreadOptions, ToThread } from './pglite-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (src/db/pglite-thread.ts)');

const options = workerData as ThreadOptions;
const post = (message: FromThread) => port.postMessage(message);

/** What the service's side needs of a PGlite or PostgreSQL error: its fields, not its class. */
function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    // PGlite attaches the statement and its parameters: the caller has those already.
    if (key === 'query' || key === 'params' || key === 'queryOptions') continue;
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = value;
  }
  return fields;
}

const unlisteners = new Map<string, () => Promise<void>>();

async function handle(pglite: PGlite, message: ToThread): Promise<void> {
  try {
    switch (message.op) {
      case 'query': {
        const result = await pglite.query(message.sql, message.params);
        post({ id: message.id, ok: true, rows: result.rows, rowCount: result.affectedRows ?? result.rows.length });
        return;
      }
      case 'exec':
        await pglite.exec(message.sql);
        post({ id: message.id, ok: true });
        return;
      case 'listen': {
        const channel = message.channel;
        if (!unlisteners.has(channel)) {
          unlisteners.set(channel, await pglite.listen(channel, (payload) => post({ notification: channel, payload })));
        }
        post({ id: message.id, ok: true });
        return;
      }
      case 'unlisten': {
        const unlisten = unlisteners.get(message.channel);
        unlisteners.delete(message.channel);
        if (unlisten && !pglite.closed) await unlisten();
        post({ id: message.id, ok: true });
        return;
      }
      case 'close':
        if (!pglite.closed) await pglite.close();
        post({ id: message.id, ok: true });
        return;
    }
  } catch (error) {
    post({ id: message.id, ok: false, error: plainError(error) });
  }
}

try {
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
  port.on('message', (message: ToThread) => void handle(pglite, message));
  post({ ready: true });
} catch (error) {
  post({ ready: false, error: plainError(error) });
}
