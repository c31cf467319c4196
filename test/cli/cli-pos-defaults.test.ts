// The default waits of `cleaver pos events tail` and `pos catalog push --wait` are seconds, as
// their --help says: 5 s between polls, 2 s between status reads, 300 s before giving up. The
// command runs against a small HTTP service on 127.0.0.1 that only counts requests and answers
// with the shapes of spec 4.1, 4.3, 4.4 and 4.13 (a catalog that stays PROCESSING, no events), so
// the count of requests in a short run tells the wait the command used.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('cleaver pos: the default intervals and timeout are seconds', { timeout: 30_000 }, () => {
  let server: Server;
  let env: Record<string, string>;
  const counts = new Map<string, number>();
  const file = join(mkdtempSync(join(tmpdir(), 'cleaver-cli-defaults-')), 'catalog.json');

  beforeAll(async () => {
    writeFileSync(file, JSON.stringify({ updatedObjects: [] }));
    server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      counts.set(`${req.method} ${path}`, (counts.get(`${req.method} ${path}`) ?? 0) + 1);
      req.resume();
      req.on('end', () => {
        if (path === '/oauth/token') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }));
        } else if (path === '/v1/merchantStatus') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: 'PROCESSING', lastRead: null, moreInfo: null }));
        } else {
          // PUT /v1/merchantUpdate and an empty GET /v1/events:polling both answer 204.
          res.writeHead(204);
          res.end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    env = { CLEAVER_URL: `http://127.0.0.1:${port}`, CLEAVER_CLIENT_ID: 'pos', CLEAVER_CLIENT_SECRET: 'secret' };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => counts.clear());

  it('events tail polls once in its first 5 s (the default --interval is 5 s, not 5 ms)', async () => {
    const tail = await runCli(['pos', 'events', 'tail'], env, { timeoutMs: 1_500 });
    expect(tail.code).toBe(0);
    expect(tail.stderr).toBe('');
    expect(counts.get('GET /v1/events:polling')).toBe(1);
  });

  it('events tail --ack waits the same default 5 s between polls', async () => {
    const tail = await runCli(['pos', 'events', 'tail', '--ack'], env, { timeoutMs: 1_500 });
    expect(tail.code).toBe(0);
    expect(counts.get('GET /v1/events:polling')).toBe(1);
  });

  it('catalog push --wait reads the status every 2 s and does not give up before 300 s', async () => {
    // Stopped at 2.5 s: by then a 2 s interval read the status twice (at 0 s and 2 s). The old
    // defaults (2 ms, 300 ms) read it ~150 times and gave up at 0.3 s with "still PROCESSING".
    // Being stopped while waiting ends the command with the stop itself (what Ctrl-C does).
    const stopped = await runCli(['pos', 'catalog', 'push', file, '--wait'], env, { timeoutMs: 2_500 }).catch(
      (error: Error) => error,
    );
    expect(stopped).toBeInstanceOf(Error);
    expect((stopped as Error).name).toBe('TimeoutError');
    expect(counts.get('PUT /v1/merchantUpdate')).toBe(1);
    expect(counts.get('GET /v1/merchantStatus')).toBe(2);
  });

  it('an explicit --interval and --timeout are still seconds', async () => {
    const push = await runCli(['pos', 'catalog', 'push', file, '--wait', '--interval', '0.2', '--timeout', '0.5'], env);
    expect(push.code).toBe(5);
    expect(push.stderr).toContain('still PROCESSING after 1 s');
    expect(counts.get('GET /v1/merchantStatus')).toBeGreaterThanOrEqual(3);
    expect(counts.get('GET /v1/merchantStatus')).toBeLessThanOrEqual(5);
  });
});
