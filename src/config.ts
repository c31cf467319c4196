// The only reader of process.env (STYLE.md). Values are validated once at start and passed down.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type CleaverEnv = 'sandbox' | 'production';
export type Role = 'all' | 'api' | 'worker';

export interface RateLimitConfig {
  authPerMinute: number;
  readPerMinute: number;
  writePerMinute: number;
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
  webhookRetryScheduleSec: number[];
  /** How long a worker holds a claimed delivery; a worker that dies frees it after this (D11). */
  webhookLeaseSec: number;
  /** D11: a 2xx must arrive within this; only tests lower it (no environment variable). */
  webhookTimeoutMs: number;
  rateLimits: RateLimitConfig;
  merchantCacheTtlSec: number;
  logLevel: string;
  bodyLimitBytes: number;
  role: Role;
  /** Which of the secrets were generated (and stored in the data dir) rather than given. */
  generated: { adminToken: boolean; secretKey: boolean };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Sandbox default for X-App-Id of outgoing webhooks (OPERATOR-API.md: "fixed uuid in sandbox"). */
export const SANDBOX_APP_ID = '6f1c2a4e-8b3d-4c5e-9a7f-0d2e4b6c8a10';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MIN_SECRET_LENGTH = 32;

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
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
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(32).toString('base64url');
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, generated: true };
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const cleaverEnv = (env.CLEAVER_ENV ?? 'sandbox') as CleaverEnv;
  if (cleaverEnv !== 'sandbox' && cleaverEnv !== 'production') {
    throw new ConfigError(`CLEAVER_ENV must be "sandbox" or "production", got "${env.CLEAVER_ENV}"`);
  }
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = resolve(env.CLEAVER_DATA_DIR || './.cleaver');
  const databaseUrl = env.DATABASE_URL
    ? readUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'])
    : undefined;
  const redisUrl = env.REDIS_URL ? readUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']) : undefined;
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
    webhookRetryScheduleSec: parseRetrySchedule(
      env.CLEAVER_WEBHOOK_RETRY_SCHEDULE || '0,5,300,1800,7200,18000,36000,36000',
    ),
    webhookLeaseSec: readInt(env, 'CLEAVER_WEBHOOK_LEASE_SEC', 60, 1, 3600),
    webhookTimeoutMs: 15_000,
    rateLimits: {
      authPerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_AUTH', 30, 1, 10_000_000),
      readPerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_READ', 200, 1, 10_000_000),
      writePerMinute: readInt(env, 'CLEAVER_RATE_LIMIT_WRITE', 600, 1, 10_000_000),
    },
    merchantCacheTtlSec: readInt(env, 'CLEAVER_MERCHANT_CACHE_TTL', 60, 0, 86_400),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: readInt(env, 'CLEAVER_BODY_LIMIT', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    role,
    generated: { adminToken: admin.generated, secretKey: secret.generated },
    ...overrides,
  };
}
