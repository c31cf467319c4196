// D46 (docs/design/decisions.md): Redis under Sentinel. A master, a replica and a sentinel of the
// test's own (redis-server on free ports, the sentinel as `redis-server --sentinel`), never the
// shared Redis. The service's client, opened from CLEAVER_REDIS_SENTINELS and
// CLEAVER_REDIS_MASTER_NAME, finds the master through the sentinel, and after the master is killed
// and the sentinel promotes the replica, it writes to the new master with no restart.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRedisClient } from '../../src/plugins/rate-limit.js';
import { freePort } from '../support/own-services.js';

/** `redis-server` with these arguments, in `dir` (where a master writes its sync file), once it says it is ready. */
async function redisServer(args: string[], ready: string, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  const deadline = Date.now() + 10_000;
  while (!out.includes(ready)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return child;
}

describe('Redis under Sentinel (D46)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cleaver-sentinel-'));
  const children: ChildProcess[] = [];
  let master: ChildProcess;
  let ports: { master: number; replica: number; sentinel: number };
  let redis: Redis | undefined;

  beforeAll(async () => {
    ports = { master: await freePort(), replica: await freePort(), sentinel: await freePort() };
    const base = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    master = await redisServer(['--port', String(ports.master), ...base], 'Ready to accept connections', dir);
    children.push(master);
    children.push(
      await redisServer(
        ['--port', String(ports.replica), ...base, '--replicaof', '127.0.0.1', String(ports.master)],
        'MASTER <-> REPLICA sync: Finished',
        dir,
      ),
    );
    // The sentinel rewrites its file: one of its own, in the test's directory.
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${ports.sentinel}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor cleaver 127.0.0.1 ${ports.master} 1`,
        'sentinel down-after-milliseconds cleaver 1000',
        'sentinel failover-timeout cleaver 5000',
        '',
      ].join('\n'),
    );
    children.push(await redisServer([conf, '--sentinel'], '+monitor master cleaver', dir));
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the master through the sentinel, and the new one after a failover', async () => {
    const config = loadConfig({
      CLEAVER_DATA_DIR: dir,
      CLEAVER_REDIS_SENTINELS: `127.0.0.1:${ports.sentinel}`,
      CLEAVER_REDIS_MASTER_NAME: 'cleaver',
    });
    redis = await openRedisClient(config.redisSentinel as NonNullable<typeof config.redisSentinel>);
    const client = redis;
    client.on('error', () => {}); // reconnects by itself, as the server's client does (src/server.ts)
    await expect.poll(() => client.status, { timeout: 10_000 }).toBe('ready');
    expect(await client.incr('ha:counter')).toBe(1);
    expect(Number(/tcp_port:(\d+)/.exec(await client.info('server'))?.[1])).toBe(ports.master);

    const killedAt = Date.now();
    master.kill('SIGKILL');
    // The sentinel sees the master down after 1 s and promotes the replica; the client asks it
    // again and writes there (the rate limiter counts per process meanwhile, D31).
    await expect
      .poll(
        () =>
          client.incr('ha:counter').then(
            () => 'written',
            () => 'refused',
          ),
        { timeout: 20_000, interval: 200 },
      )
      .toBe('written');
    const windowMs = Date.now() - killedAt;
    expect(Number(/tcp_port:(\d+)/.exec(await client.info('server'))?.[1])).toBe(ports.replica);
    expect(await client.role()).toEqual(expect.arrayContaining(['master']));
    expect(windowMs).toBeLessThan(15_000);
  }, 60_000);
});
