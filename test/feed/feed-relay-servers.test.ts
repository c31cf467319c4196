// D46 (docs/design/decisions.md): the relay given a list of NATS servers, a dead one first,
// publishes through the live one; a stream replicated less than asked is reported (a warning line,
// `degraded` in /health/ready, the metrics); and with the broker away the relay's state is a
// degraded component of /health/ready, which stays 200 (the backlog waits in the database). The
// broker is a `nats-server -js` of the test's own, never the shared one.
import { connect, nanos, RetentionPolicy, StorageType } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHealthApp } from '../../src/app.js';
import { createFeedRelay, type FeedRelay } from '../../src/modules/feed/index.js';
import { createSimpleOrder } from '../support/orders.js';
import { freePort, type OwnNats, startOwnNats } from '../support/own-services.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

describe('the feed relay on a list of NATS servers (D46)', () => {
  let t: TestApp;
  let nats: OwnNats;
  let dead: string;
  const relays: FeedRelay[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    nats = await startOwnNats();
    dead = `nats://127.0.0.1:${await freePort()}`;
  }, 60_000);

  afterAll(async () => {
    for (const relay of relays) await relay.stop();
    await nats?.destroy();
    await t?.close();
  });

  const newRelay = (
    stream: string,
    options: {
      replicas?: number;
      onWarning?: (line: string) => void;
      registry?: TestApp['services']['metrics']['registry'];
    } = {},
  ) => {
    const relay = createFeedRelay({
      db: t.services.db,
      clock: t.services.clock,
      url: `${dead}, ${nats.url}`,
      stream,
      subjectPrefix: stream.toLowerCase(),
      name: `test:${stream}`,
      stamp: t.services.feed.stamp,
      idleMs: 50,
      ...options,
    });
    relays.push(relay);
    return relay;
  };

  it('publishes through the live server of a list whose first server is dead, and reports a short stream', async () => {
    const me = await createMerchant(t.app, 'Açougue Dois Servidores');
    await createSimpleOrder(t.app, me.merchantId);
    await t.services.feed.stamp();
    const head = await t.services.feed.headPosition();

    // One server known: the stream is created with one replica, as asked by default.
    const relay = newRelay('HA_LIST');
    let sent = 0;
    for (let n = await relay.publishOnce(); n > 0; n = await relay.publishOnce()) sent += n;
    expect(sent).toBe(head);
    expect(relay.health()).toMatchObject({
      stream: 'HA_LIST',
      connected: true,
      status: 'ok',
      backlog: 0,
      lastError: null,
      replicas: { asked: 1, actual: 1 },
      warning: null,
    });

    // A stream its operator made with one replica, where three are asked: reported, not changed.
    const nc = await connect({ servers: nats.url });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({
      name: 'HA_SHORT',
      subjects: ['ha_short.>'],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      duplicate_window: nanos(60_000),
      num_replicas: 1,
    });
    await nc.close();
    const warnings: string[] = [];
    const short = newRelay('HA_SHORT', { replicas: 3, onWarning: (line) => warnings.push(line) });
    await short.publishOnce();
    expect(warnings).toEqual([
      'the NATS stream HA_SHORT has 1 replica, fewer than the 3 asked (CLEAVER_NATS_REPLICAS): losing the server ' +
        'that holds it stops the feed\'s publication; raise it with "nats stream edit HA_SHORT --replicas 3"',
    ]);
    expect(short.health()).toMatchObject({
      status: 'degraded',
      connected: true,
      replicas: { asked: 3, actual: 1 },
      warning: warnings[0],
    });
  });

  it('shows the relay degraded in /health/ready (still 200) and in /metrics while the broker is away', async () => {
    const relay = newRelay('HA_AWAY', { registry: t.services.metrics.registry });
    await relay.start();
    await expect.poll(() => relay.health().connected, { timeout: 10_000 }).toBe(true);
    const health = await buildHealthApp(t.services, { feedRelayHealth: () => relay.health() });
    try {
      const ok = await health.inject({ method: 'GET', url: '/health/ready' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ status: 'ok', feedRelay: { status: 'ok', connected: true } });

      await nats.stop();
      const me = await createMerchant(t.app, 'Açougue Sem Broker');
      await createSimpleOrder(t.app, me.merchantId);
      await expect
        .poll(() => relay.health(), { timeout: 15_000, interval: 100 })
        .toMatchObject({ status: 'degraded', connected: false });
      await expect.poll(() => relay.health().backlog, { timeout: 15_000, interval: 100 }).toBeGreaterThan(0);
      const away = await health.inject({ method: 'GET', url: '/health/ready' });
      expect(away.statusCode).toBe(200);
      const body = away.json();
      expect(body).toMatchObject({ status: 'degraded', feedRelay: { status: 'degraded', connected: false } });
      expect(body.feedRelay.backlog).toBeGreaterThan(0);
      const metrics = await health.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/^cleaver_feed_relay_connected 0$/m);
      expect(metrics.body).toMatch(/^cleaver_feed_relay_degraded 1$/m);

      // Back: the backlog leaves, the component is ok again.
      await nats.start();
      await expect
        .poll(() => relay.health(), { timeout: 20_000, interval: 100 })
        .toMatchObject({ status: 'ok', connected: true, backlog: 0 });
    } finally {
      await health.close();
    }
  }, 60_000);
});
