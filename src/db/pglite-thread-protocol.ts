// Messages between the service's thread and the embedded database's thread
// (src/db/pglite-thread.ts ↔ src/db/pglite-worker.ts). Values cross by structured clone: dates,
// byte arrays, big integers, arrays and plain objects arrive as they were sent.

export interface ThreadOptions {
  /** Data directory; undefined = in memory. */
  dataDir?: string;
}

export type ToThread =
  | { id: number; op: 'query'; sql: string; params?: unknown[] }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

export type FromThread =
  | { ready: true }
  | { ready: false; error: Record<string, unknown> }
  | { id: number; ok: true; rows?: unknown[]; rowCount?: number }
  | { id: number; ok: false; error: Record<string, unknown> }
  | { notification: string; payload: string };
