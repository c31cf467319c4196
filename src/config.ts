// The only reader of process.env (style.md#shape-of-the-app). Values are validated once at start and passed down.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type CleaverEnv = 'sandbox' | 'production';
export type Role = 'all' | 'api' | 'worker';

export interface RateLimitConfig {
  authPerMinute: number;
  readPerMinute: number;
  writePerMinute: number;
  /** Console login attempts per minute per client address. */
  loginPerMinute: number;
}

/** Operator console sessions and the login lockout (docs/security.md). */
export interface OperatorSecurityConfig {
  sessionIdleSec: number;
  sessionMaxSec: number;
  /** Failed logins in a row before an account is locked; then each failure doubles the lock. */
  loginMaxFailures: number;
  /** The same per client address (many accounts tried from one place). */
  loginIpMaxFailures: number;
  loginLockoutSec: number;
  loginLockoutMaxSec: number;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  env: CleaverEnv;
  adminToken: string;
  secretKey: string;
  publicUrl: string;
  appId: string;
  redisUrl: string | undefined;
  /**
   * D36: the NATS server the worker's relay publishes the platform feed to; unset: HTTP only. D46:
   * a comma-separated list of the cluster's servers, as given (`natsServers` holds them one by one).
   */
  natsUrl: string | undefined;
  /** D46: the servers of CLEAVER_NATS_URL; empty without a broker. */
  natsServers: string[];
  /**
   * D46: replicas of the feed's stream when the service creates it (CLEAVER_NATS_REPLICAS);
   * undefined: 3 when three servers or more are known, else 1 (modules/feed/feed-stream.ts).
   */
  natsReplicas: number | undefined;
  /** D46: a Redis under Sentinel (CLEAVER_REDIS_SENTINELS and CLEAVER_REDIS_MASTER_NAME), instead of REDIS_URL. */
  redisSentinel: { sentinels: Array<{ host: string; port: number }>; masterName: string } | undefined;
  /** D36: the JetStream stream of the feed (created when missing). */
  natsStream: string;
  /**
   * Tracing (docs/operations.md, "Tracing"): the address of a trace in the operator's trace viewer,
   * `{traceId}` standing for the id; the console links events and deliveries there. Unset: ids only.
   */
  traceUrlTemplate: string | undefined;
  webhookRetryScheduleSec: number[];
  /** How long a worker holds a claimed delivery; a worker that dies frees it after this (D11). */
  webhookLeaseSec: number;
  /** D11: a 2xx must arrive within this; only tests lower it (no environment variable). */
  webhookTimeoutMs: number;
  /** The longest `cleaver listen` long-poll waits (POST /v1/sandbox/listen); only tests lower it. */
  listenMaxWaitSec: number;
  /** The longest `wait` of GET /admin/v1/feed (at most its documented 30 s); only tests lower it. */
  feedMaxWaitSec: number;
  /** An endpoint failing longer than this is disabled until re-registered (0: never). */
  webhookDisableAfterHours: number;
  /**
   * The CLEAVER_HOMOLOGATION_* variables as given (sandbox homologation timings): their names and
   * values belong to the homologation module, which checks them at start (homologation-timings.ts).
   */
  homologationTimingEnv: Record<string, string>;
  /** How long a worker holds a catalog sync between heartbeats; a crashed one's is retaken after this. */
  catalogLeaseSec: number;
  /** D31: how long a stopping process keeps serving (readiness already 503) before it stops accepting. */
  shutdownDrainMs: number;
  /** D31: from the signal, the most a stop may take before remaining connections are cut. */
  shutdownTimeoutMs: number;
  /** D31: the longest a call to Redis may take before the rate limiter fails open. */
  redisTimeoutMs: number;
  /** D30: how long what no one reads any more is kept, and the size of each pruning batch. */
  retention: {
    acknowledgedReceiptsHours: number;
    pendingReceiptsDays: number;
    finishedOrdersDays: number;
    syncPayloads: number;
    syncSummaryDays: number;
    usageHours: number;
    /** D36: platform feed items (never one the NATS relay has not published yet). */
    feedDays: number;
    batch: number;
    orderBatch: number;
  };
  /** POS presence thresholds (seconds since a key was last seen) and the opt-in switch-off (0: off). */
  presence: { lateAfterSec: number; offlineAfterSec: number; autoUnavailableAfterSec: number };
  rateLimits: RateLimitConfig;
  operatorSecurity: OperatorSecurityConfig;
  merchantCacheTtlSec: number;
  logLevel: string;
  bodyLimitBytes: number;
  role: Role;
  /** How long a start waits for the database to answer before it gives up (CLEAVER_DB_WAIT_SEC). */
  dbWaitSec: number;
  /** Apply pending migrations at start (`serve --no-migrate` / CLEAVER_MIGRATE_ON_START=false: refuse instead). */
  migrateOnStart: boolean;
  /** Named statements for the hottest queries on PostgreSQL (CLEAVER_DB_PREPARED_STATEMENTS; src/db/db.ts). */
  dbPreparedStatements: boolean;
  /** The embedded database on a thread of its own (CLEAVER_EMBEDDED_DB_THREAD; docs/adr/0009). */
  embeddedDbThread: boolean;
  /** Which of the secrets were generated (and stored in the data dir) rather than given. */
  generated: { adminToken: boolean; secretKey: boolean };
}

/** Exit codes of a start that cannot go on (sysexits.h), listed in `cleaver --help`. */
export const STARTUP_EXIT = {
  /** A bad environment value, a port in use, a data directory in use or not writable. */
  CONFIG: 78,
  /** The database did not answer within CLEAVER_DB_WAIT_SEC. */
  DATABASE_UNREACHABLE: 69,
  /** The database schema does not fit: migrations pending (--no-migrate) or one failed. */
  DATABASE_SCHEMA: 65,
} as const;

/**
 * Why the service cannot start, in one line that says what to do; the CLI prints it without a
 * stack trace (LOG_LEVEL=debug adds it) and exits with `exitCode`.
 */
export class StartupError extends Error {
  override name = 'StartupError';
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class ConfigError extends StartupError {
  override name = 'ConfigError';
  constructor(message: string) {
    super(message, STARTUP_EXIT.CONFIG);
  }
}

/** Sandbox default for X-App-Id of outgoing webhooks (operator-api.md#starting-the-service). */
export const SANDBOX_APP_ID = '6f1c2a4e-8b3d-4c5e-9a7f-0d2e4b6c8a10';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MIN_SECRET_LENGTH = 32;

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** pino's levels (the logger of every process). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function readUrl(name: string, raw: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw;
}

/**
 * D46: CLEAVER_NATS_URL is one server or a comma-separated list of a cluster's servers, each a
 * `nats:` or `tls:` URL; the client tries them all (and learns the rest of the cluster).
 */
function readNatsServers(raw: string): string[] {
  const servers = raw.split(',').map((part) => part.trim());
  if (servers.some((server) => server === '')) {
    throw new ConfigError(`CLEAVER_NATS_URL must be a comma-separated list of nats: URLs, got "${raw}"`);
  }
  for (const server of servers) readUrl('CLEAVER_NATS_URL', server, ['nats:', 'tls:']);
  return servers;
}

/**
 * D46: `host:port,…` of the sentinels watching the Redis master named CLEAVER_REDIS_MASTER_NAME;
 * both or neither.
 */
function readRedisSentinel(env: Env): Config['redisSentinel'] {
  const raw = env.CLEAVER_REDIS_SENTINELS;
  const masterName = env.CLEAVER_REDIS_MASTER_NAME;
  if (!raw) {
    if (masterName) throw new ConfigError('CLEAVER_REDIS_MASTER_NAME is set without CLEAVER_REDIS_SENTINELS');
    return undefined;
  }
  const sentinels = raw.split(',').map((part) => {
    const match = /^\s*([^\s:]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})\s*$/.exec(part);
    const port = match ? Number(match[2]) : 0;
    if (!match?.[1] || port < 1 || port > 65535) {
      throw new ConfigError(`CLEAVER_REDIS_SENTINELS must be a comma-separated list of host:port, got "${raw}"`);
    }
    return { host: match[1].replace(/^\[|\]$/g, ''), port };
  });
  if (!masterName) {
    throw new ConfigError(
      'CLEAVER_REDIS_MASTER_NAME is required with CLEAVER_REDIS_SENTINELS (the name the sentinels monitor)',
    );
  }
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(masterName)) {
    throw new ConfigError(`CLEAVER_REDIS_MASTER_NAME must be letters, digits, . - or _, got "${masterName}"`);
  }
  return { sentinels, masterName };
}

export function parseRetrySchedule(raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) {
    throw new ConfigError(`CLEAVER_WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of seconds, got "${raw}"`);
  }
  return parts.map(Number);
}

/**
 * A secret given in the environment wins; in sandbox a missing one is generated once into the
 * data dir and reused after restarts; in production its absence stops the start (D25).
 */
function resolveSecret(
  env: Env,
  name: string,
  file: string,
  cleaverEnv: CleaverEnv,
  dataDir: string,
): { value: string; generated: boolean } {
  const given = env[name];
  if (given !== undefined && given !== '') {
    if (given.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`${name} must be at least ${MIN_SECRET_LENGTH} characters long`);
    }
    return { value: given, generated: false };
  }
  if (cleaverEnv === 'production') {
    throw new ConfigError(`${name} is required when CLEAVER_ENV=production`);
  }
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const stored = readFileSync(path, 'utf8').trim();
    if (stored.length >= MIN_SECRET_LENGTH) return { value: stored, generated: true };
  }
  const value = randomBytes(32).toString('base64url');
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, `${value}\n`, { mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(
      `CLEAVER_DATA_DIR ${dataDir} cannot be written (${code}) to keep the generated ${name}: ` +
        `choose another directory, fix its permissions, or set ${name}`,
    );
  }
  return { value, generated: true };
}

function readOperatorSecurity(env: Env): OperatorSecurityConfig {
  const sessionMaxSec = readInt(env, 'CLEAVER_SESSION_MAX_SEC', 8 * 3600, 60, 30 * 86_400);
  const sessionIdleSec = readInt(env, 'CLEAVER_SESSION_IDLE_SEC', 1800, 60, 30 * 86_400);
  if (sessionIdleSec > sessionMaxSec) {
    throw new ConfigError(
      `CLEAVER_SESSION_IDLE_SEC (${sessionIdleSec}) must not exceed CLEAVER_SESSION_MAX_SEC (${sessionMaxSec})`,
    );
  }
  return {
    sessionIdleSec,
    sessionMaxSec,
    loginMaxFailures: readInt(env, 'CLEAVER_LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginIpMaxFailures: readInt(env, 'CLEAVER_LOGIN_IP_MAX_FAILURES', 20, 1, 100_000),
    loginLockoutSec: readInt(env, 'CLEAVER_LOGIN_LOCKOUT_SEC', 60, 1, 86_400),
    loginLockoutMaxSec: 3600,
  };
}

/** What a production start cannot do without (D25): a sandbox generates or defaults them. */
const PRODUCTION_REQUIRED = ['CLEAVER_ADMIN_TOKEN', 'CLEAVER_SECRET_KEY', 'CLEAVER_APP_ID'];

/** Every missing one at once: an operator fixing a deploy should not learn of them one start at a time. */
function requireProductionVariables(env: Env): void {
  const missing = PRODUCTION_REQUIRED.filter((name) => !env[name]);
  if (missing.length === 0) return;
  const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  throw new ConfigError(`${names} ${missing.length === 1 ? 'is' : 'are'} required when CLEAVER_ENV=production`);
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const cleaverEnv = (env.CLEAVER_ENV ?? 'sandbox') as CleaverEnv;
  if (cleaverEnv !== 'sandbox' && cleaverEnv !== 'production') {
    throw new ConfigError(`CLEAVER_ENV must be "sandbox" or "production", got "${env.CLEAVER_ENV}"`);
  }
  if (cleaverEnv === 'production') requireProductionVariables(env);
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = resolve(env.CLEAVER_DATA_DIR || './.cleaver');
  const databaseUrl = env.DATABASE_URL
    ? readUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'])
    : undefined;
  const redisUrl = env.REDIS_URL ? readUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']) : undefined;
  const natsUrl = env.CLEAVER_NATS_URL || undefined;
  const natsServers = natsUrl ? readNatsServers(natsUrl) : [];
  const natsReplicas = env.CLEAVER_NATS_REPLICAS ? readInt(env, 'CLEAVER_NATS_REPLICAS', 1, 1, 5) : undefined;
  const redisSentinel = readRedisSentinel(env);
  if (redisSentinel && redisUrl) {
    throw new ConfigError('REDIS_URL and CLEAVER_REDIS_SENTINELS name two ways to reach Redis: set only one (D46)');
  }
  const natsStream = env.CLEAVER_NATS_STREAM || 'CLEAVER';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(natsStream)) {
    throw new ConfigError(`CLEAVER_NATS_STREAM must be letters, digits, - or _ (at most 64), got "${natsStream}"`);
  }
  const traceUrlTemplate = env.CLEAVER_TRACE_URL_TEMPLATE || undefined;
  if (traceUrlTemplate !== undefined) {
    if (!traceUrlTemplate.includes('{traceId}')) {
      throw new ConfigError(
        `CLEAVER_TRACE_URL_TEMPLATE must contain {traceId} where the trace id goes, got "${traceUrlTemplate}"`,
      );
    }
    let url: URL;
    try {
      url = new URL(traceUrlTemplate.replaceAll('{traceId}', '0'));
    } catch {
      throw new ConfigError(`CLEAVER_TRACE_URL_TEMPLATE is not a valid URL: "${traceUrlTemplate}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError(`CLEAVER_TRACE_URL_TEMPLATE must use http: or https:, got "${url.protocol}"`);
    }
  }
  const hostForUrl = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const publicUrl = (
    env.CLEAVER_PUBLIC_URL
      ? readUrl('CLEAVER_PUBLIC_URL', env.CLEAVER_PUBLIC_URL, ['http:', 'https:'])
      : `http://${hostForUrl}:${port}`
  ).replace(/\/+$/, '');
  const appId = env.CLEAVER_APP_ID || SANDBOX_APP_ID;
  if (!UUID_RE.test(appId)) throw new ConfigError(`CLEAVER_APP_ID must be a uuid, got "${appId}"`);
  if (cleaverEnv === 'production' && !env.CLEAVER_APP_ID) {
    throw new ConfigError('CLEAVER_APP_ID is required when CLEAVER_ENV=production');
  }
  const role = (env.CLEAVER_ROLE || 'all') as Role;
  if (!['all', 'api', 'worker'].includes(role)) {
    throw new ConfigError(`CLEAVER_ROLE must be all, api or worker, got "${role}"`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const migrateOnStart = readBoolean(env, 'CLEAVER_MIGRATE_ON_START', true);
  const dbPreparedStatements = readBoolean(env, 'CLEAVER_DB_PREPARED_STATEMENTS', true);
  const embeddedDbThread = readBoolean(env, 'CLEAVER_EMBEDDED_DB_THREAD', true);
  const admin = resolveSecret(env, 'CLEAVER_ADMIN_TOKEN', 'admin-token', cleaverEnv, dataDir);
  const secret = resolveSecret(env, 'CLEAVER_SECRET_KEY', 'secret-key', cleaverEnv, dataDir);
  return {
    port,
    host,
    databaseUrl,
    dataDir,
    env: cleaverEnv,
    adminToken: admin.value,
    secretKey: secret.value,
    publicUrl,
    appId,
    redisUrl,
    natsUrl,
    natsServers,
    natsReplicas,
    redisSentinel,
    natsStream,
    traceUrlTemplate,
    webhookRetryScheduleSec: parseRetrySchedule(
      env.CLEAVER_WEBHOOK_RETRY_SCHEDULE || '0,5,300,1800,7200,18000,36000,36000',
    ),
    webhookLeaseSec: readInt(env, 'CLEAVER_WEBHOOK_LEASE_SEC', 60, 1, 3600),
    webhookTimeoutMs: 15_000,
    listenMaxWaitSec: 25,
    feedMaxWaitSec: 30,
    webhookDisableAfterHours: readInt(env, 'CLEAVER_WEBHOOK_DISABLE_AFTER_HOURS', 72, 0, 24 * 365),
    homologationTimingEnv: Object.fromEntries(
      Object.entries(env).filter(
        (e): e is [string, string] => e[0].startsWith('CLEAVER_HOMOLOGATION_') && e[1] !== undefined,
      ),
    ),
    catalogLeaseSec: readInt(env, 'CLEAVER_CATALOG_LEASE_SEC', 8, 2, 3600),
    shutdownDrainMs: readInt(env, 'CLEAVER_SHUTDOWN_DRAIN_MS', 5_000, 0, 120_000),
    shutdownTimeoutMs: readInt(env, 'CLEAVER_SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    redisTimeoutMs: readInt(env, 'CLEAVER_REDIS_TIMEOUT_MS', 200, 10, 200),
    retention: {
      acknowledgedReceiptsHours: readInt(env, 'CLEAVER_RETENTION_ACKED_RECEIPTS_HOURS', 8, 1, 24 * 365),
      pendingReceiptsDays: readInt(env, 'CLEAVER_RETENTION_PENDING_RECEIPTS_DAYS', 7, 1, 3650),
      finishedOrdersDays: readInt(env, 'CLEAVER_RETENTION_FINISHED_ORDERS_DAYS', 30, 1, 3650),
      syncPayloads: readInt(env, 'CLEAVER_RETENTION_SYNC_PAYLOADS', 20, 1, 10_000),
      syncSummaryDays: readInt(env, 'CLEAVER_RETENTION_SYNC_DAYS', 90, 1, 3650),
      usageHours: readInt(env, 'CLEAVER_RETENTION_USAGE_HOURS', 48, 1, 24 * 365),
      feedDays: readInt(env, 'CLEAVER_RETENTION_FEED_DAYS', 7, 1, 3650),
      batch: readInt(env, 'CLEAVER_RETENTION_BATCH', 1000, 10, 100_000),
      orderBatch: 100,
    },
    presence: {
      lateAfterSec: readInt(env, 'CLEAVER_PRESENCE_LATE_SEC', 120, 1, 86_400),
      offlineAfterSec: readInt(env, 'CLEAVER_PRESENCE_OFFLINE_SEC', 900, 1, 7 * 86_400),
      autoUnavailableAfterSec: readInt(env, 'CLEAVER_PRESENCE_AUTO_UNAVAILABLE_SEC', 0, 0, 30 * 86_400),
    },
    rateLimits: {
      authPerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_AUTH', 30, 1, 10_000_000),
      readPerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_READ', 200, 1, 10_000_000),
      writePerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_WRITE', 600, 1, 10_000_000),
      loginPerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_LOGIN', 10, 1, 10_000_000),
    },
    operatorSecurity: readOperatorSecurity(env),
    merchantCacheTtlSec: readInt(env, 'CLEAVER_MERCHANT_CACHE_TTL', 60, 0, 86_400),
    logLevel,
    bodyLimitBytes: readInt(env, 'CLEAVER_BODY_LIMIT', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    role,
    dbWaitSec: readInt(env, 'CLEAVER_DB_WAIT_SEC', 60, 0, 3600),
    migrateOnStart,
    dbPreparedStatements,
    embeddedDbThread,
    generated: { adminToken: admin.generated, secretKey: secret.generated },
    ...overrides,
  };
}
