// Route schemas compiled on first use instead of all at start (start to ready, docs/benchmarks.md):
// compiling every route's validators (ajv) and response serializers (fast-json-stringify)
// was most of the time between buildApp and a listening socket. A server warms them all up
// right after it listens, a few per event-loop turn, so a schema that cannot compile still
// fails within moments of the start, and no client request waits for more than the one it
// needs. Tests that never call warmUp compile only what they use.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Compiled = (...args: never[]) => unknown;

export function createLazySchemas() {
  const pending = new Set<() => unknown>();

  /** A function that compiles itself on its first call (or at warmUp), then is the compiled one. */
  function lazy<F extends Compiled>(compile: () => F, copyErrors = false): F {
    let fn: F | undefined;
    const get = (): F => {
      if (!fn) {
        fn = compile();
        pending.delete(get);
      }
      return fn;
    };
    pending.add(get);
    // Fixed parameters rather than rest and spread: this runs for every validated request and
    // every serialised answer (a validator or serializer takes one to three arguments).
    const wrapper = ((a: never, b: never, c: never) => {
      const f = fn ?? get();
      const result = f(a, b, c);
      // ajv reports what failed on the function itself; Fastify reads it from the one it holds.
      if (copyErrors) (wrapper as unknown as { errors: unknown }).errors = (f as unknown as { errors: unknown }).errors;
      return result;
    }) as F;
    return wrapper;
  }

  return {
    lazy,
    /** Fastify's own response serializer compiler, each route's serializer compiled when first used. */
    schemaController: {
      compilersFactory: {
        buildSerializer: (externalSchemas: unknown, options: unknown) => {
          const build = SerializerSelector()(externalSchemas as never, options as never);
          return (routeSchema: unknown) => lazy(() => build(routeSchema as never) as Compiled);
        },
      },
    } as FastifyServerOptions['schemaController'],
    /** Compiles whatever is still pending, yielding to the event loop between chunks. */
    async warmUp(chunk = 8): Promise<void> {
      while (pending.size > 0) {
        let n = 0;
        for (const get of pending) {
          get();
          if (++n >= chunk) break;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    pendingCount: () => pending.size,
  };
}

export type LazySchemas = ReturnType<typeof createLazySchemas>;

const ofApp = new WeakMap<object, LazySchemas>();

/** Remembers the schemas of an app (buildApp), for warmUpSchemas. */
export function attachLazySchemas(app: object, schemas: LazySchemas): void {
  ofApp.set(app, schemas);
}

/** Compiles every schema of the app not compiled yet (server.ts, right after listening). */
export async function warmUpSchemas(app: object): Promise<void> {
  await ofApp.get(app)?.warmUp();
}
