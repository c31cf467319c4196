// The operator-security variables of src/config.ts: defaults, values, and refusals naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = {
  CLEAVER_ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
  CLEAVER_SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstu',
  CLEAVER_DATA_DIR: '/nonexistent-test-data-dir',
};

describe('operator security configuration', () => {
  it('has defaults: 30 idle minutes, 8 hours, 5 and 20 failures, 60 s first lock, 10 logins a minute', () => {
    const c = loadConfig(base);
    expect(c.operatorSecurity).toEqual({
      sessionIdleSec: 1800,
      sessionMaxSec: 28800,
      loginMaxFailures: 5,
      loginIpMaxFailures: 20,
      loginLockoutSec: 60,
      loginLockoutMaxSec: 3600,
    });
    expect(c.rateLimits.loginPerMinute).toBe(10);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      ...base,
      CLEAVER_SESSION_IDLE_SEC: '600',
      CLEAVER_SESSION_MAX_SEC: '3600',
      CLEAVER_LOGIN_MAX_FAILURES: '3',
      CLEAVER_LOGIN_IP_MAX_FAILURES: '50',
      CLEAVER_LOGIN_LOCKOUT_SEC: '30',
      CLEAVER_RATE_LIMIT_LOGIN: '5',
    });
    expect(c.operatorSecurity).toMatchObject({
      sessionIdleSec: 600,
      sessionMaxSec: 3600,
      loginMaxFailures: 3,
      loginIpMaxFailures: 50,
      loginLockoutSec: 30,
    });
    expect(c.rateLimits.loginPerMinute).toBe(5);
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ ...base, CLEAVER_SESSION_IDLE_SEC: 'soon' })).toThrow(
      new ConfigError('CLEAVER_SESSION_IDLE_SEC must be a whole number from 60 to 2592000, got "soon"'),
    );
    expect(() => loadConfig({ ...base, CLEAVER_LOGIN_MAX_FAILURES: '0' })).toThrow(
      new ConfigError('CLEAVER_LOGIN_MAX_FAILURES must be between 1 and 1000, got 0'),
    );
    expect(() => loadConfig({ ...base, CLEAVER_SESSION_IDLE_SEC: '7200', CLEAVER_SESSION_MAX_SEC: '3600' })).toThrow(
      new ConfigError('CLEAVER_SESSION_IDLE_SEC (7200) must not exceed CLEAVER_SESSION_MAX_SEC (3600)'),
    );
  });
});
