import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseRetrySchedule, SANDBOX_APP_ID } from '../../src/config.js';
import {
  DEFAULT_TIMINGS,
  resolveTimings,
  timingEnvProblem,
} from '../../src/modules/homologation/homologation-timings.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cleaver-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has the defaults of OPERATOR-API.md', () => {
    const dir = tempDir();
    const config = loadConfig({ CLEAVER_DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: dir,
      env: 'sandbox',
      publicUrl: 'http://127.0.0.1:8080',
      appId: SANDBOX_APP_ID,
      redisUrl: undefined,
      webhookRetryScheduleSec: [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
      rateLimits: { authPerMinute: 30, readPerMinute: 200, writePerMinute: 600 },
      role: 'all',
    });
  });

  it('generates the admin token and secret key once in sandbox and reuses them', () => {
    const dir = tempDir();
    const first = loadConfig({ CLEAVER_DATA_DIR: dir });
    expect(first.generated).toEqual({ adminToken: true, secretKey: true });
    expect(first.adminToken.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'admin-token'), 'utf8').trim()).toBe(first.adminToken);
    const second = loadConfig({ CLEAVER_DATA_DIR: dir });
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.secretKey).toBe(first.secretKey);
  });

  it('prefers values from the environment', () => {
    const config = loadConfig({
      CLEAVER_DATA_DIR: tempDir(),
      CLEAVER_ADMIN_TOKEN: 'a'.repeat(40),
      CLEAVER_SECRET_KEY: 'b'.repeat(40),
      CLEAVER_PUBLIC_URL: 'https://api.example.com/',
      DATABASE_URL: 'postgres://u@db:5432/x',
      REDIS_URL: 'redis://r:6379',
      PORT: '9000',
    });
    expect(config).toMatchObject({
      adminToken: 'a'.repeat(40),
      secretKey: 'b'.repeat(40),
      publicUrl: 'https://api.example.com',
      databaseUrl: 'postgres://u@db:5432/x',
      redisUrl: 'redis://r:6379',
      port: 9000,
      generated: { adminToken: false, secretKey: false },
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ CLEAVER_ENV: 'staging' }, 'CLEAVER_ENV must be "sandbox" or "production", got "staging"'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must use postgres: or postgresql:, got "mysql:"'],
    [{ DATABASE_URL: 'nonsense' }, 'DATABASE_URL is not a valid URL: "nonsense"'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL must use redis: or rediss:, got "http:"'],
    [{ CLEAVER_APP_ID: 'app' }, 'CLEAVER_APP_ID must be a uuid, got "app"'],
    [{ CLEAVER_ADMIN_TOKEN: 'short' }, 'CLEAVER_ADMIN_TOKEN must be at least 32 characters long'],
    [
      { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,5,soon' },
      'CLEAVER_WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of seconds, got "0,5,soon"',
    ],
    [{ CLEAVER_ROLE: 'boss' }, 'CLEAVER_ROLE must be all, api or worker, got "boss"'],
    [
      { CLEAVER_TRACE_URL_TEMPLATE: 'https://jaeger/trace/' },
      'CLEAVER_TRACE_URL_TEMPLATE must contain {traceId} where the trace id goes, got "https://jaeger/trace/"',
    ],
    [
      { CLEAVER_TRACE_URL_TEMPLATE: 'javascript:alert({traceId})' },
      'CLEAVER_TRACE_URL_TEMPLATE must use http: or https:, got "javascript:"',
    ],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig({ CLEAVER_DATA_DIR: tempDir(), ...env })).toThrow(new ConfigError(message));
  });

  it('takes a list of NATS servers, the stream replicas and a Redis under Sentinel (D46)', () => {
    const config = loadConfig({
      CLEAVER_DATA_DIR: tempDir(),
      CLEAVER_NATS_URL: 'nats://10.0.0.1:4222, nats://10.0.0.2:4222,tls://10.0.0.3:4222',
      CLEAVER_NATS_REPLICAS: '3',
      CLEAVER_REDIS_SENTINELS: '10.0.0.1:26379,sentinel-b:26379, [::1]:26380',
      CLEAVER_REDIS_MASTER_NAME: 'cleaver',
    });
    expect(config).toMatchObject({
      natsServers: ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222', 'tls://10.0.0.3:4222'],
      natsReplicas: 3,
      redisUrl: undefined,
      redisSentinel: {
        sentinels: [
          { host: '10.0.0.1', port: 26379 },
          { host: 'sentinel-b', port: 26379 },
          { host: '::1', port: 26380 },
        ],
        masterName: 'cleaver',
      },
    });
    // Unset: no broker, replicas chosen by the relay from the servers it knows, no Sentinel.
    expect(loadConfig({ CLEAVER_DATA_DIR: tempDir() })).toMatchObject({
      natsServers: [],
      natsReplicas: undefined,
      redisSentinel: undefined,
    });
  });

  it.each([
    [
      { CLEAVER_NATS_URL: 'nats://a:4222,,nats://b:4222' },
      'CLEAVER_NATS_URL must be a comma-separated list of nats: URLs, got "nats://a:4222,,nats://b:4222"',
    ],
    [{ CLEAVER_NATS_URL: 'nats://a:4222,http://b:4222' }, 'CLEAVER_NATS_URL must use nats: or tls:, got "http:"'],
    [{ CLEAVER_NATS_REPLICAS: '7' }, 'CLEAVER_NATS_REPLICAS must be between 1 and 5, got 7'],
    [{ CLEAVER_NATS_REPLICAS: 'three' }, 'CLEAVER_NATS_REPLICAS must be a whole number from 1 to 5, got "three"'],
    [
      { CLEAVER_REDIS_SENTINELS: '10.0.0.1:26379' },
      'CLEAVER_REDIS_MASTER_NAME is required with CLEAVER_REDIS_SENTINELS (the name the sentinels monitor)',
    ],
    [{ CLEAVER_REDIS_MASTER_NAME: 'cleaver' }, 'CLEAVER_REDIS_MASTER_NAME is set without CLEAVER_REDIS_SENTINELS'],
    [
      { CLEAVER_REDIS_SENTINELS: '10.0.0.1', CLEAVER_REDIS_MASTER_NAME: 'cleaver' },
      'CLEAVER_REDIS_SENTINELS must be a comma-separated list of host:port, got "10.0.0.1"',
    ],
    [
      { CLEAVER_REDIS_SENTINELS: 'a:70000', CLEAVER_REDIS_MASTER_NAME: 'cleaver' },
      'CLEAVER_REDIS_SENTINELS must be a comma-separated list of host:port, got "a:70000"',
    ],
    [
      { CLEAVER_REDIS_SENTINELS: 'a:26379', CLEAVER_REDIS_MASTER_NAME: 'my master' },
      'CLEAVER_REDIS_MASTER_NAME must be letters, digits, . - or _, got "my master"',
    ],
    [
      { CLEAVER_REDIS_SENTINELS: 'a:26379', CLEAVER_REDIS_MASTER_NAME: 'cleaver', REDIS_URL: 'redis://r:6379' },
      'REDIS_URL and CLEAVER_REDIS_SENTINELS name two ways to reach Redis: set only one (D46)',
    ],
  ])('refuses the high-availability setting %j with a clear message', (env, message) => {
    expect(() => loadConfig({ CLEAVER_DATA_DIR: tempDir(), ...env })).toThrow(new ConfigError(message));
  });

  it('stops a production start without admin token, secret key or app id (D25)', () => {
    const dir = tempDir();
    const base = {
      CLEAVER_DATA_DIR: dir,
      CLEAVER_ENV: 'production',
      CLEAVER_APP_ID: '11111111-2222-4333-8444-555555555555',
    };
    expect(() => loadConfig(base)).toThrow(
      new ConfigError('CLEAVER_ADMIN_TOKEN and CLEAVER_SECRET_KEY are required when CLEAVER_ENV=production'),
    );
    expect(() => loadConfig({ ...base, CLEAVER_ADMIN_TOKEN: 'a'.repeat(40) })).toThrow(
      'CLEAVER_SECRET_KEY is required when CLEAVER_ENV=production',
    );
    expect(() =>
      loadConfig({
        CLEAVER_DATA_DIR: dir,
        CLEAVER_ENV: 'production',
        CLEAVER_ADMIN_TOKEN: 'a'.repeat(40),
        CLEAVER_SECRET_KEY: 'b'.repeat(40),
      }),
    ).toThrow('CLEAVER_APP_ID is required when CLEAVER_ENV=production');
    // All of them missing: one message naming them all, not one start per variable.
    expect(() => loadConfig({ CLEAVER_DATA_DIR: dir, CLEAVER_ENV: 'production' })).toThrow(
      new ConfigError(
        'CLEAVER_ADMIN_TOKEN, CLEAVER_SECRET_KEY and CLEAVER_APP_ID are required when CLEAVER_ENV=production',
      ),
    );
    expect(() => loadConfig({ ...base, CLEAVER_APP_ID: '' })).toThrow(
      new ConfigError(
        'CLEAVER_ADMIN_TOKEN, CLEAVER_SECRET_KEY and CLEAVER_APP_ID are required when CLEAVER_ENV=production',
      ),
    );
  });

  it('hands the CLEAVER_HOMOLOGATION_* variables to the homologation module, which checks them', () => {
    const config = loadConfig({
      CLEAVER_DATA_DIR: tempDir(),
      CLEAVER_HOMOLOGATION_DURATION_MS: '90000',
      CLEAVER_HOMOLOGATION_RETRY_AFTER_SEC: '5',
      CLEAVER_WEBHOOK_LEASE_SEC: '30',
    });
    expect(config.homologationTimingEnv).toEqual({
      CLEAVER_HOMOLOGATION_DURATION_MS: '90000',
      CLEAVER_HOMOLOGATION_RETRY_AFTER_SEC: '5',
    });
    expect(timingEnvProblem(config.homologationTimingEnv)).toBeNull();
    expect(resolveTimings(undefined, config.homologationTimingEnv)).toEqual({
      ...DEFAULT_TIMINGS,
      durationMs: 90_000,
      retryAfterSec: 5,
    });
    // Nothing from the process's own environment unless it comes through the configuration.
    expect(resolveTimings(undefined)).toEqual(DEFAULT_TIMINGS);
    expect(timingEnvProblem({ CLEAVER_HOMOLOGATION_DURATION_MS: '600001' })).toBe(
      'CLEAVER_HOMOLOGATION_DURATION_MS must be a whole number from 1 to 600000, got "600001"',
    );
  });

  it('parses fractional retry schedules (compressed schedules in tests)', () => {
    expect(parseRetrySchedule('0, 0.5,2')).toEqual([0, 0.5, 2]);
  });
});
