// What the embedded database starts with, wherever it runs (src/db/pglite.ts on the service's
// thread, src/db/pglite-worker.ts on its own). Kept apart from both so that importing it does not
// load PGlite.

/**
 * PostgreSQL's buffer pool inside PGlite. Its default (128 MB) is allocated and touched when the
 * database starts, so it was a third of an idle embedded service's resident memory
 * (docs/benchmarks.md). The embedded database serves one process's development, sandbox or small
 * shop data, whose hot pages fit in far less; pages beyond the pool are read back from the data
 * directory's files, which the operating system caches.
 */
const SHARED_BUFFERS = '16MB';

/** PostgreSQL settings beyond PGlite's defaults (`-c name=value` pairs). */
export const PGLITE_SETTINGS = ['-c', `shared_buffers=${SHARED_BUFFERS}`];
