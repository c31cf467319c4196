// D36: the NATS relay of the platform feed in the console (operator-api.md#third-round-the-platform-feed-cuts-weighing:
// relay lag and last publish in /health/ready, /metrics and the console). The webhooks page says
// how many items the relay has still to publish and when it last published, from its row in
// feed_relays (so the console of any process shows it), in English and Portuguese; and that no
// relay runs when none has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login } from './console-session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The visible text of a page, tags dropped and spaces squeezed. */
const text = (body: string) =>
  body
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** The relay's section of the webhooks page. */
function section(body: string): string {
  const m = /<section aria-labelledby="feed-relay-h"[\s\S]*?<\/section>/.exec(body);
  expect(m, 'the feed relay section').not.toBeNull();
  return (m as RegExpExecArray)[0];
}

describe('the platform feed relay on the console', () => {
  it('shows the items still to publish and the last publish, or that no relay runs', async () => {
    const s = await login(t.app);
    const none = await s.get('/console/webhooks');
    expect(none.statusCode).toBe(200);
    expect(text(section(none.body))).toBe(
      ' Platform feed to NATS No NATS relay has run (CLEAVER_NATS_URL is not set): the platform reads the feed over HTTP. ',
    );

    // Four orders' items; the relay (its row as the relay writes it) has published all but 3.
    const me = await createMerchant(t.app, 'Açougue Feed');
    for (let i = 0; i < 4; i++) await createSimpleOrder(t.app, me.merchantId);
    await t.services.feed.stamp();
    const head = await t.services.feed.headPosition();
    expect(head).toBeGreaterThan(3);
    const at = new Date('2026-03-02T15:04:05Z');
    await t.services.db.query(
      'INSERT INTO feed_relays (name, position, published_at, updated_at) VALUES ($1, $2, $3, $3)',
      ['nats:CLEAVER', head - 3, at],
    );
    const behind = await s.get('/console/webhooks');
    expect(behind.statusCode).toBe(200);
    const relay = section(behind.body);
    expect(relay).toContain('<code>nats:CLEAVER</code> <span class="badge badge-warn">3 items behind</span>');
    expect(relay).toMatch(/last publish <time datetime="2026-03-02T15:04:05.000Z"/);

    const pt = await s.get('/console/webhooks', { cookie: 'cleaver_lang=pt-BR' });
    expect(pt.statusCode).toBe(200);
    expect(text(section(pt.body))).toMatch(
      /^ Feed da plataforma para o NATS nats:CLEAVER 3 itens atrasados · última publicação /,
    );

    await t.services.db.query('UPDATE feed_relays SET position = $2 WHERE name = $1', ['nats:CLEAVER', head]);
    const upToDate = await s.get('/console/webhooks');
    expect(section(upToDate.body)).toContain(
      '<code>nats:CLEAVER</code> <span class="badge badge-ok">up to date</span>',
    );
  });
});
