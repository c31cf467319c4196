// A failing webhook endpoint is never green in the console: the state the operator API gives
// (GET /admin/v1/merchants/{id}/webhookHealth: healthy, failing since, last error, disabled and
// why) is on the merchants list, the merchant's page, the webhooks page and a banner on every
// page, and the operator notices (GET /admin/v1/notices) on the notices page and the merchant's.
// The case of the report: attempts fail, the next retry is an hour away, so no delivery has
// FAILED yet ("none failed") while the endpoint has been failing all along.
import { describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders } from '../support/test-app.js';
import { closeAfterEach, setup } from '../support/webhook-kit.js';
import { login } from './console-session.js';

closeAfterEach();

/** The visible text of a page, tags dropped and spaces squeezed. */
const text = (body: string) =>
  body
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('webhook endpoint health in the console', () => {
  it('a failing endpoint with no FAILED delivery yet is failing everywhere an operator looks', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,3600');
    const name = (await t.services.merchants.requireMerchant(merchant.merchantId)).name;
    receiver.setHandler(() => ({ status: 500, body: 'receiver exploded' }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });

    const api = await t.app.inject({
      url: `/admin/v1/merchants/${merchant.merchantId}/webhookHealth`,
      headers: adminHeaders,
    });
    expect(api.json()).toMatchObject({ state: 'failing', lastError: 'HTTP 500' });
    expect((await webhooks.listMerchantDeliveries(merchant.merchantId, { status: 'FAILED' })).items).toEqual([]);

    const s = await login(t.app);
    // The merchants list: the endpoint's state, not "registered".
    const list = await s.get('/console/merchants');
    expect(list.body).toMatch(
      /<td data-label="Webhook"><span class="badge badge-bad">failing<\/span> <span class="small">since <time/,
    );
    expect(list.body).not.toContain('registered</span>');

    // The merchant's page: what to do, the state with its last error, no green "none failed".
    const page = await s.get(`/console/merchants/${merchant.merchantId}`);
    const pageText = text(page.body);
    expect(page.body).toContain('<p class="callout callout-bad">The webhook endpoint is failing:');
    expect(pageText).toContain('Last error HTTP 500');
    expect(pageText).toMatch(/Endpoint failing since \d{2} \w{3} \d{4}/);
    expect(page.body).not.toContain('badge-ok">none failed');
    expect(pageText).toContain('no failed delivery');
    // Its notices.
    expect(page.body).toMatch(/id="notices-h">Notices<\/h2>\s*<ol class="plain notices">/);
    expect(pageText).toContain(`Webhook endpoint ${receiver.url} is failing: HTTP 500`);

    // Every page: the banner names the merchant and links to the endpoints.
    const orders = await s.get('/console/orders');
    expect(orders.body).toMatch(
      new RegExp(
        `<aside class="attention" aria-label="Webhook endpoints in trouble"><div class="attention-inner">\\s*<strong>A webhook endpoint is in trouble:</strong> <a href="/console/merchants/${merchant.merchantId}">${name}</a> \\(failing since <time`,
      ),
    );
    expect(orders.body).toContain('<a href="/console/webhooks#endpoints">See the endpoints</a>');
    // Not in the live fragment (it refreshes every 2 s).
    const fragment = await t.app.inject({
      url: `/console/orders/${(await t.services.orders.listOrders({ merchantId: merchant.merchantId, limit: 1 }))[0].id}/timeline`,
      headers: { cookie: s.cookie, 'x-console-fragment': '1' },
    });
    expect(fragment.body).not.toContain('attention');

    // The webhooks page: the endpoints in trouble first; filtered by merchant, its health.
    const hooks = await s.get('/console/webhooks');
    const endpoints = hooks.body.slice(hooks.body.indexOf('id="endpoints"'), hooks.body.indexOf('id="deliveries-h"'));
    expect(endpoints).toContain(`<a href="/console/merchants/${merchant.merchantId}">${name}</a>`);
    expect(endpoints).toContain('<td data-label="Last error" class="wrap" lang="en">HTTP 500</td>');
    const mine = await s.get(`/console/webhooks?merchantId=${merchant.merchantId}`);
    expect(text(mine.body)).toContain(`Webhook endpoint of ${name}`);
    expect(text(mine.body)).toContain('1 pending');

    // The notices page, filtered by kind and merchant.
    const notices = await s.get(`/console/notices?kind=webhook.failing&merchantId=${merchant.merchantId}`);
    expect(notices.statusCode).toBe(200);
    expect(notices.body).toContain('title="webhook.failing" data-code="webhook.failing">Webhook failing</span>');
    expect(text(notices.body)).toContain(`Webhook endpoint ${receiver.url} is failing: HTTP 500`);
    const none = await s.get('/console/notices?kind=webhook.disabled');
    expect(none.body).toContain('No notices match.');

    // In Portuguese too.
    const pt = await t.app.inject({
      url: `/console/merchants/${merchant.merchantId}`,
      headers: { cookie: s.cookie, 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' },
    });
    expect(pt.body).toContain('title="failing" data-code="failing">falhando</span>');
    expect(pt.body).toContain('<strong>Um endpoint de webhook está com problema:</strong>');

    // The endpoint answers again: healthy, the banner gone, a notice says so.
    receiver.setHandler(() => ({ status: 200 }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    const healthy = await s.get('/console/merchants');
    expect(healthy.body).toContain('<td data-label="Webhook"><span class="badge badge-ok">healthy</span></td>');
    expect(healthy.body).not.toContain('class="attention"');
    expect((await s.get('/console/webhooks')).body).toContain('No webhook endpoint is failing or disabled.');
    const after = await s.get('/console/notices');
    expect(after.body.indexOf('>Webhook recovered</span>')).toBeLessThan(after.body.indexOf('>Webhook failing</span>'));
  });

  it('a disabled endpoint (410) says so, and why, with what the merchant must do', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0');
    receiver.setHandler(() => ({ status: 410 }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    const s = await login(t.app);
    const page = await s.get(`/console/merchants/${merchant.merchantId}`);
    expect(page.body).toContain('<dd><span class="badge badge-bad">disabled</span> <span class="small">since <time');
    expect(page.body).toContain('<p class="callout callout-bad">The webhook endpoint is disabled:');
    expect(text(page.body)).toContain('Why disabled');
    const banner = await s.get('/console/audit');
    expect(text(banner.body)).toMatch(/A webhook endpoint is in trouble: .+ \(disabled\)/);
  });
});
