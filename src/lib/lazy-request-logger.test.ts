import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './lazy-request-logger.js';

/** A Fastify app with a pino logger whose lines land in `lines`, and a count of children made. */
async function appWithLog(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level, redact: ['*.client_secret'] }, stream);
  const child = vi.spyOn(logger, 'child');
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/says', async (request) => {
    request.log.info({ body: { client_id: 'pos', client_secret: 'secret' } }, 'hello');
    return { ok: true };
  });
  app.get('/debug', async (request) => {
    request.log.debug('below the level');
    return { ok: true };
  });
  app.get('/fails', async (_request, reply) => {
    reply.log.error({ err: new Error('boom') }, 'failed');
    return reply.code(500).send({ title: 'Internal Server Error', status: 500 });
  });
  await app.ready();
  // Fastify makes the instance's own child at start; only the requests' children count here.
  child.mockClear();
  return { app, lines, child };
}

describe('lazy request logger', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('builds no child logger for a request that writes nothing', async () => {
    const { app, lines, child } = await appWithLog();
    close = () => app.close();
    const res = await app.inject({ url: '/quiet' });
    expect(res.statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('nor for a line below the level', async () => {
    const { app, lines, child } = await appWithLog('info');
    close = () => app.close();
    expect((await app.inject({ url: '/debug' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("writes a request's line with its request id, redacted as the service's logger redacts", async () => {
    const { app, lines, child } = await appWithLog();
    close = () => app.close();
    const res = await app.inject({ url: '/says' });
    expect(res.statusCode).toBe(200);
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'hello', reqId: expect.any(String) });
    expect(lines[0]?.body).toEqual({ client_id: 'pos', client_secret: '[Redacted]' });
  });

  it("writes through the reply's logger, the request's own, with its request id", async () => {
    const { app, lines } = await appWithLog();
    close = () => app.close();
    const res = await app.inject({ url: '/fails' });
    expect(res.statusCode).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'failed', reqId: expect.any(String), err: { message: 'boom' } });
  });

  it('answers level questions as the child would', async () => {
    const { app } = await appWithLog('warn');
    close = () => app.close();
    const log = lazyRequestLogger(app.log, { reqId: 'r1' }, {}) as unknown as pino.Logger;
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('error')).toBe(true);
    const chatty = lazyRequestLogger(app.log, { reqId: 'r2' }, { level: 'debug' }) as unknown as pino.Logger;
    expect(chatty.level).toBe('debug');
    expect(chatty.isLevelEnabled('debug')).toBe(true);
  });
});
