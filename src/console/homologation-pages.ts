// Homologation (sandbox only, operator-api.md#homologation): every run of every key on its own
// page (newest first, by merchant and status, in the navigation), the runs of a merchant's keys on
// its page with a form to start one per key, and a report page with every criterion, its
// evidence and the signature. A run is named by its key and when it started, never by a
// truncated id. Everything shown is escaped by the html template.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isUuid } from '../lib/ids.js';
import type { HomologationService, RunReport } from '../modules/homologation/index.js';
import { allow } from './console-access.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import type { ConsoleKit } from './console-kit.js';
import { type Html, html, path, time } from './html.js';
import { csrfField, type PageContext, page } from './layout.js';
import type { Messages } from './messages/en.js';
import { choice, codeBadge, filteredList, merchantFilterForm, oneOf } from './widgets.js';

const STATUS_TONE = { RUNNING: 'info', PASSED: 'ok', FAILED: 'bad', CANCELLED: 'muted' } as const;
const RESULT_TONE = { pass: 'ok', fail: 'bad', not_observed: 'warn', pending: 'info' } as const;
const RUN_STATUSES = ['RUNNING', 'PASSED', 'FAILED', 'CANCELLED'] as const;
/** Runs listed on the homologation page. */
const RUNS_SHOWN = 100;

export const runBadge = (t: Messages, status: RunReport['status']) =>
  codeBadge(t.codes.runStatus, status, STATUS_TONE[status]);

/** Required criteria passed out of all required ones: the run's result at a glance. */
function passedOf(t: Messages, run: RunReport): string {
  const required = run.criteria.filter((c) => c.required);
  return t.homologation.passedCount(required.filter((c) => c.result === 'pass').length, required.length);
}

/** Runs as a table (the homologation page, and a merchant's page without its merchant column). */
function runsTable(
  ctx: PageContext,
  runs: RunReport[],
  keyName: (run: RunReport) => string,
  merchantName?: (run: RunReport) => string,
): Html {
  const t = ctx.t;
  const h = t.homologation;
  return html`<table class="cards runs">
    <caption class="visually-hidden">${h.runsCaption}</caption>
    <thead><tr><th scope="col">${h.run}</th>${merchantName ? html`<th scope="col">${t.common.merchant}</th>` : ''}<th scope="col">${h.key}</th><th scope="col">${t.common.status}</th>
      <th scope="col">${h.required}</th><th scope="col">${h.finished}</th></tr></thead>
    <tbody>${runs.map(
      (
        r,
      ) => html`<tr><th scope="row" data-label="${h.run}"><a href="${path`/console/homologations/${r.id}`}">${h.startedAt} ${time(r.startedAt)}</a></th>
      ${merchantName ? html`<td data-label="${t.common.merchant}"><a href="${path`/console/merchants/${r.merchantId}`}">${merchantName(r)}</a></td>` : ''}
      <td data-label="${h.key}">${keyName(r)}</td><td data-label="${t.common.status}">${runBadge(t, r.status)}</td>
      <td data-label="${h.required}">${passedOf(t, r)}</td>
      <td data-label="${h.finished}">${time(r.finishedAt ?? null, r.status === 'RUNNING' ? h.stillRunning : '—')}</td></tr>`,
    )}</tbody></table>`;
}

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
  const h = ctx.t.homologation;
  const canStart = ctx.can('POST /console/merchants/:merchantId/keys/:keyId/homologations');
  const keyName = (r: RunReport) => keys.find((k) => k.id === r.keyId)?.name ?? h.deletedKey;
  return html`<section aria-labelledby="homolog-h" class="panel">
  <h2 id="homolog-h">${h.heading}</h2>
  <p>${h.intro}</p>
  ${runs.length ? runsTable(ctx, runs, keyName) : html`<p>${h.noRun}</p>`}
  ${
    canStart && keys.length
      ? html`<div class="button-row">${keys.map(
          (k) => html`<form method="post" action="${path`/console/merchants/${merchantId}/keys/${k.id}/homologations`}">
    ${csrfField(ctx.csrfToken)}<button type="submit" class="small">${h.startFor(k.name)}</button></form>`,
        )}</div>`
      : ''
  }
  <p><a href="/console/homologations">${h.allRuns}</a></p>
</section>`;
}

function reportBody(ctx: PageContext, run: RunReport, keyName: string, merchantName: string): Html {
  const t = ctx.t;
  const h = t.homologation;
  return html`<section aria-labelledby="run-h" class="panel">
  <h2 id="run-h">${h.run} ${runBadge(t, run.status)} <span class="small">${passedOf(t, run)}</span></h2>
  <dl class="facts">
    <div><dt>${t.common.merchant}</dt><dd><a href="${path`/console/merchants/${run.merchantId}`}">${merchantName}</a></dd></div>
    <div><dt>${h.key}</dt><dd>${keyName}</dd></div>
    <div><dt>${h.startedAt}</dt><dd>${time(run.startedAt)}</dd></div>
    <div><dt>${h.finished}</dt><dd>${time(run.finishedAt ?? null, h.stillRunning)}</dd></div>
    <div><dt>${h.ordersPlaced}</dt><dd>${run.orders.length}</dd></div>
    <div class="wide"><dt>${h.runId}</dt><dd><code class="wrap">${run.id}</code></dd></div>
    <div class="wide"><dt>${h.keyId}</dt><dd><code class="wrap">${run.keyId}</code></dd></div>
  </dl>
</section>
<section aria-labelledby="crit-h" class="panel">
  <h2 id="crit-h">${h.criteria}</h2>
  <p>${h.criteriaHelp} ${h.criteriaInEnglish}</p>
  <table class="cards criteria">
    <thead><tr><th scope="col">${h.result}</th><th scope="col">${h.criterion}</th><th scope="col">${h.rule}</th><th scope="col">${h.required}</th><th scope="col">${h.evidence}</th></tr></thead>
    <tbody>${run.criteria.map(
      (
        c,
      ) => html`<tr><td data-label="${h.result}">${codeBadge(t.codes.criterionResult, c.result, RESULT_TONE[c.result])}</td>
      <th scope="row" data-label="${h.criterion}" lang="en">${c.title}</th><td data-label="${h.rule}" lang="en">${c.rule}</td>
      <td data-label="${h.required}">${c.required ? t.common.yes : t.common.no}</td>
      <td data-label="${h.evidence}">${
        c.evidence.length
          ? html`<details><summary>${h.lines(c.evidence.length)}</summary><ul>${c.evidence.map((e) => html`<li><code class="wrap">${e}</code></li>`)}</ul></details>`
          : html`<span class="muted">—</span>`
      }</td></tr>`,
    )}</tbody></table>
</section>
<section aria-labelledby="sig-h" class="panel">
  <h2 id="sig-h">${h.signature}</h2>
  ${
    run.signature
      ? html`<p>${h.signatureHelp}</p>
  <p><code class="wrap">${run.signature}</code></p>`
      : html`<p class="muted">${h.signedWhenDone}</p>`
  }
</section>`;
}

export const homologationPages: FastifyPluginAsync<{ kit: ConsoleKit; homologation: HomologationService }> = async (
  app,
  { kit, homologation },
) => {
  app.get('/homologations', allow('viewer'), async (request, reply) => {
    const { ctx, t, q, filter } = await filteredList(kit, request);
    const h = t.homologation;
    const status = oneOf((m) => m.common.status, q.status, RUN_STATUSES);
    const runs =
      filter.typed !== undefined
        ? []
        : await homologation.listRecent({ merchantId: filter.merchantId, status, limit: RUNS_SHOWN });
    const merchantIds = [...new Set(runs.map((r) => r.merchantId))];
    const [names, keyLists] = await Promise.all([
      kit.services.merchants.merchantNames(merchantIds),
      Promise.all(merchantIds.map((id) => kit.services.auth.listIntegrationKeys(id))),
    ]);
    const keyNames = new Map(keyLists.flat().map((k) => [k.id, k.name]));
    const fields = choice(t, 'h-status', 'status', t.common.status, RUN_STATUSES, status, t.codes.runStatus);
    const form = merchantFilterForm(
      ctx,
      { action: '/console/homologations', label: h.filterLabel, idPrefix: 'h', filter, fields },
      { status },
    );
    const body = html`<p>${h.pageIntro}</p>
${form}
${
  runs.length
    ? runsTable(
        ctx,
        runs,
        (r) => keyNames.get(r.keyId) ?? h.deletedKey,
        (r) => names.get(r.merchantId) ?? r.merchantId,
      )
    : html`<p>${filter.merchantId || status ? h.noneMatch : h.noRunYet}</p>`
}
${runs.length === RUNS_SHOWN ? html`<p class="muted">${h.newest(RUNS_SHOWN)}</p>` : ''}`;
    return kit.send(reply, page(ctx, { title: h.heading, active: 'homologations' }, body));
  });

  app.get('/homologations/:id', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const id = (request.params as { id: string }).id;
    if (!isUuid(id)) throw notFoundPage((t) => t.errors.runNotFound);
    const run = await homologation.get(id);
    const [keys, names] = await Promise.all([
      kit.services.auth.listIntegrationKeys(run.merchantId),
      kit.services.merchants.merchantNames([run.merchantId]),
    ]);
    const keyName = keys.find((k) => k.id === run.keyId)?.name ?? ctx.t.homologation.deletedKey;
    const merchantName = names.get(run.merchantId) ?? run.merchantId;
    return kit.send(
      reply,
      page(
        ctx,
        { title: ctx.t.homologation.reportTitle(keyName), active: 'homologations' },
        reportBody(ctx, run, keyName, merchantName),
      ),
    );
  });

  app.post(
    '/merchants/:merchantId/keys/:keyId/homologations',
    allow('support', 'homologation.start'),
    async (request, reply) => {
      const { merchantId, keyId } = request.params as { merchantId: string; keyId: string };
      if (!isUuid(merchantId) || !isUuid(keyId)) throw invalidInput((t) => t.errors.keyNotFound);
      const run = await homologation.start(merchantId, keyId);
      return reply.redirect(path`/console/homologations/${run.id}`, 303);
    },
  );
};
