// Homologation (sandbox only, operator-api.md#homologation): the runs of a merchant's keys on
// its page, a form to start one per key, and a report page with every criterion, its evidence
// and the signature. Everything shown is escaped by the html template.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';
import type { HomologationService, RunReport } from '../modules/homologation/index.js';
import type { ConsoleKit } from './console-kit.js';
import { badge, type Html, html, path, shortId, time } from './html.js';
import { csrfField, page } from './layout.js';

const STATUS_TONE = { RUNNING: 'info', PASSED: 'ok', FAILED: 'bad', CANCELLED: 'muted' } as const;
const RESULT_TONE = { pass: 'ok', fail: 'bad', not_observed: 'warn', pending: 'info' } as const;

export const runBadge = (status: RunReport['status']) => badge(status, STATUS_TONE[status]);

/** The merchant page's section: its runs, newest first, and a start form per key (support). */
export async function homologationSection(
  kit: ConsoleKit,
  request: FastifyRequest,
  merchantId: string,
  keys: Array<{ id: string; name: string }>,
): Promise<Html> {
  const homologation = kit.services.homologation;
  if (!homologation) return html``;
  const runs = await homologation.listForMerchant(merchantId);
  const ctx = kit.ctx(request);
  const canStart = ctx.can('POST /console/merchants/:merchantId/keys/:keyId/homologations');
  const keyName = (id: string) => keys.find((k) => k.id === id)?.name ?? '(deleted key)';
  return html`<section aria-labelledby="homolog-h" class="panel">
  <h2 id="homolog-h">Homologation</h2>
  <p>A run plays the sandbox scenarios against the key's POS for a few minutes and grades what it does.</p>
  ${
    runs.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Run</th><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Finished</th></tr></thead>
    <tbody>${runs.map(
      (r) => html`<tr><td><a href="${path`/console/homologations/${r.id}`}">${shortId(r.id)}</a></td>
      <td>${keyName(r.keyId)} ${shortId(r.keyId)}</td><td>${runBadge(r.status)}</td>
      <td>${time(r.startedAt)}</td><td>${time(r.finishedAt ?? null)}</td></tr>`,
    )}</tbody></table></div>`
      : html`<p>No homologation run yet.</p>`
  }
  ${
    canStart && keys.length
      ? html`${keys.map(
          (
            k,
          ) => html`<form method="post" action="${path`/console/merchants/${merchantId}/keys/${k.id}/homologations`}" class="inline-form">
    ${csrfField(ctx.csrfToken)}<button type="submit" class="small">Start a run for key ${k.name}</button></form>`,
        )}`
      : ''
  }
</section>`;
}

function reportBody(run: RunReport, keyName: string): Html {
  return html`<section aria-labelledby="run-h" class="panel">
  <h2 id="run-h">Run ${runBadge(run.status)}</h2>
  <dl class="facts">
    <div><dt>Id</dt><dd><code>${run.id}</code></dd></div>
    <div><dt>Merchant</dt><dd><a href="${path`/console/merchants/${run.merchantId}`}">${shortId(run.merchantId)}</a></dd></div>
    <div><dt>Key</dt><dd>${keyName} ${shortId(run.keyId)}</dd></div>
    <div><dt>Started</dt><dd>${time(run.startedAt)}</dd></div>
    <div><dt>Finished</dt><dd>${time(run.finishedAt ?? null, 'still running')}</dd></div>
    <div><dt>Orders placed</dt><dd>${run.orders.length}</dd></div>
  </dl>
</section>
<section aria-labelledby="crit-h" class="panel">
  <h2 id="crit-h">Criteria</h2>
  <p>The run passes only when every required criterion passes.</p>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Result</th><th scope="col">Criterion</th><th scope="col">Rule</th><th scope="col">Required</th><th scope="col">Evidence</th></tr></thead>
    <tbody>${run.criteria.map(
      (
        c,
      ) => html`<tr><td>${badge(c.result.replace('_', ' '), RESULT_TONE[c.result])}</td><td>${c.title}</td><td>${c.rule}</td>
      <td>${c.required ? 'yes' : 'no'}</td>
      <td>${
        c.evidence.length
          ? html`<details><summary>${c.evidence.length} line(s)</summary><ul>${c.evidence.map((e) => html`<li><code>${e}</code></li>`)}</ul></details>`
          : html`<span class="muted">—</span>`
      }</td></tr>`,
    )}</tbody></table></div>
</section>
<section aria-labelledby="sig-h" class="panel">
  <h2 id="sig-h">Signature</h2>
  ${
    run.signature
      ? html`<p>Ed25519 over the canonical JSON of the report without <code>signature</code> (keys sorted, no spaces);
  the public key is served at <code>GET /v1/homologations/signingKey</code>.</p>
  <p><code class="wrap">${run.signature}</code></p>`
      : html`<p class="muted">Signed when the run finishes.</p>`
  }
</section>`;
}

export const homologationPages: FastifyPluginAsync<{ kit: ConsoleKit; homologation: HomologationService }> = async (
  app,
  { kit, homologation },
) => {
  app.get('/homologations/:id', async (request, reply) => {
    const id = (request.params as { id: string }).id;
    if (!isUuid(id)) throw badRequest('id must be a uuid');
    const run = await homologation.get(id);
    const keys = await kit.services.auth.listIntegrationKeys(run.merchantId);
    const keyName = keys.find((k) => k.id === run.keyId)?.name ?? '(deleted key)';
    return kit.send(
      reply,
      page(
        kit.ctx(request),
        { title: `Homologation ${run.id.slice(0, 8)}`, active: 'merchants' },
        reportBody(run, keyName),
      ),
    );
  });

  app.post('/merchants/:merchantId/keys/:keyId/homologations', async (request, reply) => {
    const { merchantId, keyId } = request.params as { merchantId: string; keyId: string };
    if (!isUuid(merchantId) || !isUuid(keyId)) throw badRequest('merchantId and keyId must be uuids');
    const run = await homologation.start(merchantId, keyId);
    return reply.redirect(path`/console/homologations/${run.id}`, 303);
  });
};
