import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/errors.js';

// D23: fixed one-minute windows per group and key. Counters live in Redis when REDIS_URL is
// set, so several instances share one budget; otherwise in this process's memory.

export interface RateLimitHit {
  count: number;
  resetMs: number;
}

export interface RateLimitStore {
  /**
   * The memory store answers synchronously; Redis with a promise, or synchronously for a key far
   * from its `limit` (createRedisStore). Every hit is counted either way.
   */
  hit(key: string, windowMs: number, limit?: number): RateLimitHit | Promise<RateLimitHit>;
  close?(): Promise<void>;
  /** Whether the shared counters are in use (health); absent for a store that cannot fail. */
  status?(): 'ok' | 'unavailable';
}

export function createMemoryStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweeps = 0;
  return {
    hit(key, windowMs) {
      const t = now();
      // Drop expired windows now and then so the map stays bounded by active clients.
      if (++sweeps % 10_000 === 0) {
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      }
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, resetMs: w.resetAt - t };
    },
  };
}

/** D46: a Redis under Sentinel: the sentinels to ask, and the name of the master they watch. */
export interface RedisSentinelTarget {
  sentinels: Array<{ host: string; port: number }>;
  masterName: string;
}

/**
 * The client of the shared counters (REDIS_URL, or D46's sentinels), as the server opens it. ioredis is loaded only
 * here, by a process that has REDIS_URL: a process without it does not keep the client's code in
 * memory (RSS after start, docs/benchmarks.md).
 */
export async function openRedisClient(target: string | RedisSentinelTarget): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const options = redisClientOptions();
  if (typeof target === 'string') return new Redis(target, options);
  // D46: ioredis asks the sentinels for the master, and again after a failover; the failover
  // detector follows +switch-master, and a master demoted under this connection (READONLY) makes
  // it reconnect to the new one.
  return new Redis({
    ...options,
    sentinels: target.sentinels,
    name: target.masterName,
    failoverDetector: true,
    sentinelMaxConnections: 3,
    reconnectOnError: (error) => error.message.startsWith('READONLY'),
  });
}

function redisClientOptions() {
  return {
    // D31: a frozen Redis must not hold requests: the rate limiter races every call against its
    // own timer (createFailoverStore) and nothing queues while disconnected. There is no client
    // command timeout: it would also bound the connection's handshake (its ready check), and a
    // Redis slow to answer right after a start then never became ready at all.
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    lazyConnect: false,
    // The counters of the requests of one event-loop turn go out in one write (a poll storm is
    // one counter per request: docs/benchmarks.md, "Poll storm").
    enableAutoPipelining: true,
  };
}

/**
 * The hits of one event-loop turn in one call: for each key (KEYS[i]; its window ARGV[2i-1] and
 * the turn's number of hits on it ARGV[2i]) the count after the turn's last hit and the
 * milliseconds left in its window, flattened. The hits of one key in one turn are one INCRBY, and
 * the caller gives them the counts before it in order: a key polled many times a turn costs Redis
 * and this process one entry, not one per request (docs/adr/0013-rate-limit-answered-from-the-last-count.md).
 */
const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local window = ARGV[2 * i - 1]
  local n = tonumber(ARGV[2 * i])
  local count = redis.call('INCRBY', key, n)
  if count == n then redis.call('PEXPIRE', key, window) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, window); ttl = tonumber(window) end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out`;

/** At most this many keys per script call: a bound on how long Redis runs one, not a size to tune. */
const MAX_KEYS_PER_CALL = 256;

type WithHitCommand = Redis & { cleaverRateLimitHits(...keysThenWindows: (string | number)[]): Promise<number[]> };

function defineHitCommand(redis: Redis): WithHitCommand {
  // A defined command is sent as EVALSHA (40 bytes instead of the script; Redis does not hash the
  // script again on every call); ioredis falls back to EVAL by itself when Redis has lost it.
  // No numberOfKeys: each call says how many keys it sends.
  if (!('cleaverRateLimitHits' in redis)) redis.defineCommand('cleaverRateLimitHits', { lua: HIT_SCRIPT });
  return redis as WithHitCommand;
}

/**
 * A cold start (D23, D31): the client connected, Redis holding the counting script, and one
 * round trip within the limiter's bound, before the process reports ready. Otherwise the first
 * requests found no connection yet (the client queues nothing while disconnected) or paid the
 * connection and the script's load, over the bound on a loaded machine; the limiter took that for
 * an outage and counted per process for a whole cooldown, so two processes let through twice the
 * limit. Waits at most `waitMs`; a Redis that is away or slow is not fatal (D31): the reason is
 * returned, and the limiter falls back as usual until Redis answers.
 */
export async function prepareRedisStore(
  redis: Redis,
  options: { waitMs: number; timeoutMs: number },
): Promise<string | null> {
  const client = defineHitCommand(redis);
  const deadline = Date.now() + options.waitMs;
  const left = () => deadline - Date.now();
  let lastProblem = `no connection within ${options.waitMs} ms`;
  while (left() > 0) {
    try {
      if (client.status !== 'ready') {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => done(new Error(lastProblem)), left());
          const ready = () => done();
          const done = (error?: Error) => {
            clearTimeout(timer);
            client.off('ready', ready);
            if (error) reject(error);
            else resolve();
          };
          client.once('ready', ready);
        });
      }
      // SCRIPT LOAD under the sha ioredis sends, so the first EVALSHA finds it; again until one
      // round trip fits within the bound a request would be given.
      const started = Date.now();
      await withTimeout(client.script('LOAD', HIT_SCRIPT), Math.max(1, left()));
      const took = Date.now() - started;
      if (took <= options.timeoutMs) return null;
      lastProblem = `Redis took ${took} ms to answer, more than ${options.timeoutMs} ms`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, left()))));
    }
  }
  return lastProblem;
}

/** How old the last count Redis gave for a key may be for a hit to be answered from it. */
const LOCAL_FRESH_MS = 1_000;
/** How long hits answered at once wait to be sent to Redis together. */
const LOCAL_SEND_MS = 20;
/**
 * Keys whose last count a store keeps at most: a bound, not a size to tune. When it is reached,
 * the keys not heard of for FORGET_QUIET_MS leave; if that frees less than a tenth, all do. (A
 * plain clear at 100,000 made a process polled by 100,000 keys forget every key about once a
 * pass, and each key's next poll then waited for Redis.) About 125 bytes a key, 25 MiB at most.
 */
const MAX_KNOWN_KEYS = 200_000;
const FORGET_QUIET_MS = 120_000;

/**
 * Shared counters in Redis. The hits of one event-loop turn go in one script call (sent when the
 * turn ends): under a poll storm one call counts many polls, where a call per request was the
 * biggest cost of a poll answered from the pending-keys cache (docs/adr/0012-pending-keys-cache.md).
 * Each hit counts exactly once, in order (D23).
 *
 * A hit is answered at once, without waiting for Redis, when the count Redis gave for its key less
 * than a second ago, plus this process's hits still on their way, stays within half the key's
 * limit; it is still counted in Redis (sent with the key's other such hits within LOCAL_SEND_MS),
 * and Redis's answer teaches the store the new count. A key heard of more than a second ago (a POS
 * polling every 30 s) has one hit at a time answered so, from the count last heard while it was in
 * the lower half of the limit, or from none once its window has ended. Near the limit, for a key
 * never heard of, or after a failed call, a hit waits for Redis as before, so a 429 is always
 * decided on the shared count. What this gives up: a burst of more than half a key's limit within
 * one second on other processes can let this process pass up to half the limit more in that
 * second, and a key taken past its limit elsewhere since this process last heard of it gets one
 * request more here (docs/adr/0013-rate-limit-answered-from-the-last-count.md).
 */
export function createRedisStore(
  redis: Redis,
  options: { now?: () => number; maxKnownKeys?: number } = {},
): RateLimitStore {
  const client = defineHitCommand(redis);
  const now = options.now ?? Date.now;
  const maxKnownKeys = options.maxKnownKeys ?? MAX_KNOWN_KEYS;
  // `n` hits of one key; `resolve` gets the count after the last of them.
  type Waiting = {
    key: string;
    windowMs: number;
    n: number;
    resolve(lastCount: number, resetMs: number): void;
    reject(error: unknown): void;
  };
  type KeyHits = { key: string; windowMs: number; n: number; waiting: Waiting[] };
  let turn: Waiting[] = [];
  const send = (keys: KeyHits[]) => {
    const args: (string | number)[] = [keys.length];
    for (const k of keys) args.push(`cleaver:rl:${k.key}`);
    for (const k of keys) args.push(String(k.windowMs), String(k.n));
    client.cleaverRateLimitHits(...args).then(
      (flat) => {
        for (const [i, k] of keys.entries()) {
          const resetMs = flat[2 * i + 1] as number;
          // The key's hits in the order they came: the last of them has the count returned.
          let count = (flat[2 * i] as number) - k.n;
          for (const w of k.waiting) {
            count += w.n;
            w.resolve(count, resetMs);
          }
        }
      },
      (error: unknown) => {
        for (const k of keys) for (const w of k.waiting) w.reject(error);
      },
    );
  };
  const flush = () => {
    const byKey = new Map<string, KeyHits>();
    for (const w of turn) {
      const k = byKey.get(w.key);
      if (k) {
        k.n += w.n;
        k.waiting.push(w);
      } else byKey.set(w.key, { key: w.key, windowMs: w.windowMs, n: w.n, waiting: [w] });
    }
    turn = [];
    const keys = [...byKey.values()];
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL) send(keys.slice(i, i + MAX_KEYS_PER_CALL));
  };
  const enqueue = (waiting: Waiting) => {
    turn.push(waiting);
    // setImmediate runs after every socket the loop read this turn: their hits go together.
    if (turn.length === 1) setImmediate(flush);
  };

  // What Redis last said of each key: its count, when its window ends, when it said so; `local` is
  // this process's hits answered from it and not yet counted back.
  type Known = { count: number; resetAt: number; seenAt: number; local: number };
  const known = new Map<string, Known>();
  const learn = (key: string, count: number, resetMs: number) => {
    const t = now();
    let k = known.get(key);
    if (!k) {
      if (known.size >= maxKnownKeys) {
        for (const [other, quiet] of known) if (t - quiet.seenAt > FORGET_QUIET_MS) known.delete(other);
        if (known.size >= maxKnownKeys * 0.9) known.clear();
      }
      k = { count: 0, resetAt: 0, seenAt: 0, local: 0 };
      known.set(key, k);
    }
    const resetAt = t + resetMs;
    // A later window starts its count again; within one, answers come in order on one connection.
    k.count = resetAt > k.resetAt + LOCAL_FRESH_MS ? count : Math.max(k.count, count);
    k.resetAt = resetAt;
    k.seenAt = t;
  };

  // Hits answered at once are sent together every LOCAL_SEND_MS, one entry a key however many:
  // a key polled thousands of times a second costs Redis and this process a few calls a second.
  const unsent = new Map<string, { known: Known; windowMs: number; n: number }>();
  let sendTimer: NodeJS.Timeout | undefined;
  const enqueueUnsent = (key: string, u: { known: Known; windowMs: number; n: number }) =>
    enqueue({
      key,
      windowMs: u.windowMs,
      n: u.n,
      resolve: (count, resetMs) => {
        u.known.local -= u.n;
        learn(key, count, resetMs);
      },
      // Redis failed: forget the key, so that its next hit waits for Redis (and the failover).
      reject: () => {
        u.known.local -= u.n;
        known.delete(key);
      },
    });
  const sendUnsent = () => {
    sendTimer = undefined;
    for (const [key, u] of unsent) enqueueUnsent(key, u);
    unsent.clear();
  };

  /**
   * The count a hit of a known key may be answered from at once, or undefined (it waits for
   * Redis). Fresh (heard less than LOCAL_FRESH_MS ago): the count plus this process's hits on
   * their way, in the key's window. Stale: one hit at a time (none of this process's on their way),
   * from the count last heard, or none if that window has ended; Redis's answer to that hit makes
   * the key fresh again (docs/adr/0013-rate-limit-answered-from-the-last-count.md, "A stale count").
   */
  const answerableFrom = (k: Known, t: number): number | undefined => {
    const windowLeft = k.resetAt - t;
    if (t - k.seenAt < LOCAL_FRESH_MS) return windowLeft > LOCAL_FRESH_MS ? k.count + k.local : undefined;
    if (k.local > 0) return undefined;
    if (windowLeft > LOCAL_FRESH_MS) return k.count;
    return windowLeft < 0 ? 0 : undefined;
  };

  return {
    hit(key, windowMs, limit) {
      const k = limit === undefined ? undefined : known.get(key);
      const t = now();
      const before = k === undefined ? undefined : answerableFrom(k, t);
      if (k && limit !== undefined && before !== undefined && (before + 1) * 2 <= limit) {
        const windowLeft = k.resetAt - t;
        k.local += 1;
        const u = unsent.get(key);
        if (u && u.known === k) u.n += 1;
        else {
          // Hits answered from a count since forgotten are still sent, never dropped.
          if (u) enqueueUnsent(key, u);
          unsent.set(key, { known: k, windowMs, n: 1 });
        }
        if (!sendTimer) {
          sendTimer = setTimeout(sendUnsent, LOCAL_SEND_MS);
          sendTimer.unref();
        }
        // A window that has ended starts again with this hit (the script sets its expiry).
        return windowLeft < 0 ? { count: 1, resetMs: windowMs } : { count: before + 1, resetMs: windowLeft };
      }
      // The key's hits answered at once go first: Redis counts a process's hits in their order.
      const u = unsent.get(key);
      if (u) {
        unsent.delete(key);
        enqueueUnsent(key, u);
      }
      return new Promise<RateLimitHit>((resolve, reject) =>
        enqueue({
          key,
          windowMs,
          n: 1,
          resolve: (count, resetMs) => {
            if (limit !== undefined) learn(key, count, resetMs);
            resolve({ count, resetMs });
          },
          reject,
        }),
      );
    },
  };
}

/**
 * `promise` within `ms` of Redis's time, not of this process's. A process that is busy (a
 * burst of requests, the schemas compiled right after a start) neither sends a command nor reads
 * its answer while it computes, so a plain timer counted its own stall as Redis's slowness: the
 * first calls after a start looked like an outage (D23, D31). When the timer fires, the wait
 * counts only if the event loop sat idle for at least half of it (it was free to read an answer
 * that did not come); otherwise the call gets one more `ms`, so the wait is bounded at twice
 * that. Either way the refusal waits one turn (setImmediate runs after the loop has read what
 * arrived), so an answer already on the socket is taken.
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const since = performance.eventLoopUtilization();
    const refuse = () =>
      setImmediate(() => {
        if (!settled) reject(new Error(`rate-limit store did not answer within ${ms} ms`));
      });
    let timer = setTimeout(() => {
      if (performance.eventLoopUtilization(since).idle >= ms / 2) refuse();
      else timer = setTimeout(refuse, ms);
    }, ms);
    promise.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * D31: shared counters (Redis) with a bounded wait. A call that fails or takes longer than
 * `timeoutMs` is answered from this instance's own counters instead, and Redis is left alone for
 * `cooldownMs` (then one request probes it), so a frozen or absent Redis costs at most one
 * timeout per cooldown rather than one per request. Requests are never refused because Redis is
 * away: limits fall back to per instance.
 */
export function createFailoverStore(
  primary: RateLimitStore,
  fallback: RateLimitStore,
  options: { timeoutMs: number; cooldownMs?: number; now?: () => number; onError?: (error: unknown) => void },
): RateLimitStore {
  const now = options.now ?? Date.now;
  const cooldownMs = options.cooldownMs ?? 5_000;
  let openUntil = 0;
  let probing = false;
  return {
    hit(key, windowMs, limit) {
      if (probing || now() < openUntil) return fallback.hit(key, windowMs);
      const probe = openUntil !== 0;
      let pending: Promise<RateLimitHit>;
      try {
        const hit = primary.hit(key, windowMs, probe ? undefined : limit);
        // Answered from what the shared counters said a moment ago (createRedisStore).
        if (!(hit instanceof Promise)) return hit;
        pending = hit;
      } catch (error) {
        pending = Promise.reject(error);
      }
      if (probe) probing = true; // the one request that tries Redis again
      return withTimeout(pending, options.timeoutMs).then(
        (hit) => {
          openUntil = 0;
          probing = false;
          return hit;
        },
        (error) => {
          openUntil = now() + cooldownMs;
          probing = false;
          options.onError?.(error);
          return fallback.hit(key, windowMs);
        },
      );
    },
    status: () => (openUntil === 0 ? 'ok' : 'unavailable'),
  };
}

export interface RateLimitGroup {
  name: string;
  limit: number;
  windowMs: number;
  /**
   * Whether a hit far from the limit may be answered from the last shared count
   * (docs/adr/0013-rate-limit-answered-from-the-last-count.md). Not for the limits that guard
   * credentials (token and login attempts): those are always decided on the shared count.
   */
  answerFarFromLimit?: boolean;
}

export type RateLimitKey = (request: FastifyRequest) => string;

/** Clients whose store key a hook keeps at most (then it starts again): a bound, not a cache size to tune. */
const MAX_KEPT_STORE_KEYS = 100_000;

export const tooManyRequests = (retryAfterSec: number) =>
  new AppError(429, 'Too Many Requests', { headers: { 'retry-after': String(retryAfterSec) } });

/**
 * Returns an onRequest hook enforcing one group. Headers follow the IETF draft
 * (`RateLimit-Policy`, `RateLimit`); a 429 also carries `Retry-After`. When the store fails
 * (Redis down) the request is let through: refusing all traffic would be worse than a brief
 * gap in limiting.
 */
export function rateLimitHook(
  store: RateLimitStore,
  group: RateLimitGroup,
  keyOf: RateLimitKey,
  onStoreError: (error: unknown) => void = () => {},
) {
  const windowSec = Math.round(group.windowMs / 1000);
  const policy = `"${group.name}";q=${group.limit};w=${windowSec}`;
  const apply = (hit: RateLimitHit, reply: FastifyReply): Error | undefined => {
    const resetSec = Math.max(1, Math.ceil(hit.resetMs / 1000));
    const remaining = Math.max(0, group.limit - hit.count);
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"${group.name}";r=${remaining};t=${resetSec}`);
    return hit.count > group.limit ? tooManyRequests(resetSec) : undefined;
  };
  // The store's key of each client, kept: joining `group:client` anew on every request, then
  // hashing the new text, was most of the memory store's cost (docs/benchmarks.md, "Figures of
  // 2026-11-27, eighth session"). The clients (a token's key id, a socket's address) are
  // long-lived strings whose hash V8 keeps, and the memory store's windows share these keys.
  const storeKeys = new Map<string, string>();
  const storeKeyOf = (client: string): string => {
    let key = storeKeys.get(client);
    if (key === undefined) {
      if (storeKeys.size >= MAX_KEPT_STORE_KEYS) storeKeys.clear();
      key = `${group.name}:${client}`;
      storeKeys.set(client, key);
    }
    return key;
  };
  // Callback style: with the memory store the common path allocates no promise.
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    let hit: RateLimitHit | Promise<RateLimitHit>;
    try {
      hit = store.hit(storeKeyOf(keyOf(request)), group.windowMs, group.answerFarFromLimit ? group.limit : undefined);
    } catch (error) {
      onStoreError(error);
      return done();
    }
    if (!(hit instanceof Promise)) return done(apply(hit, reply));
    hit.then(
      (h) => done(apply(h, reply)),
      (error) => {
        onStoreError(error);
        done();
      },
    );
  };
}
