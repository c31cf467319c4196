// Statements in the console (D45): a merchant's statements with a chart of the last periods'
// gross and net, a statement with its totals and lines, and the admin's form that marks a CLOSED
// statement PAID. Everything is read and done through the statements service, as the operator
// API does.

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isUuid } from '../lib/ids.js';
import { type LineView, periodContaining, type StatementView } from '../modules/statements/index.js';
import { lines as lineChart } from './charts.js';
import { allow } from './console-access.js';
import { invalidInput, notFoundPage } from './console-errors.js';
import { readForm } from './console-form.js';
import { type ConsoleKit, queryOf } from './console-kit.js';
import { badge, type Html, html, path, query, time } from './html.js';
import { money } from './i18n.js';
import { csrfField, type PageContext, page } from './layout.js';
import { merchantIdOf, pager } from './widgets.js';

const PAGE = 50;
/** Periods in the chart. */
const CHART_PERIODS = 12;
const PaidForm = Type.Object({
  paidOn: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  reference: Type.String({ minLength: 1, maxLength: 200 }),
});

const statementIdOf = (request: FastifyRequest): string => {
  const id = (request.params as { statementId: string }).statementId;
  if (!isUuid(id)) throw notFoundPage((t) => t.statements.notFound);
  return id;
};

const TONE = { OPEN: 'info', CLOSED: 'warn', PAID: 'ok' } as const;
const stateBadge = (ctx: PageContext, state: StatementView['state']) =>
  badge(ctx.t.statements.state[state], TONE[state], state);

/** The period's local dates (America/Sao_Paulo), last day inclusive. */
const localDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
function periodText(s: StatementView): string {
  const first = localDate.format(new Date(s.periodStart));
  const last = localDate.format(new Date(new Date(s.periodEnd).getTime() - 1));
  return first === last ? first : `${first} → ${last}`;
}

const statementHref = (id: string) => path`/console/statements/${id}`;

function totalsList(ctx: PageContext, s: StatementView): Html {
  const st = ctx.t.statements;
  const row = (label: string, value: number) => html`<div><dt>${label}</dt><dd>${money(value, ctx.lang)}</dd></div>`;
  return html`<dl class="facts">
    ${row(st.totals.gross, s.totals.gross)}
    ${row(st.totals.weighingAdjustments, s.totals.weighingAdjustments)}
    ${row(st.totals.cancellations, s.totals.cancellations)}
    ${row(st.totals.commission, s.totals.commission)}
    ${row(st.totals.collectedByMerchant, s.totals.collectedByMerchant)}
    ${row(st.totals.adjustments, s.totals.adjustments)}
    ${row(st.totals.net, s.totals.net)}
  </dl>`;
}

function linesTable(ctx: PageContext, found: LineView[]): Html {
  const st = ctx.t.statements;
  if (found.length === 0) return html`<p class="muted">${st.noLines}</p>`;
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${st.linesHeading}</caption>
  <thead><tr><th scope="col">${st.occurredAt}</th><th scope="col">${st.kindLabel}</th><th scope="col">${st.value}</th><th scope="col">${st.netEffect}</th><th scope="col">${st.order}</th><th scope="col">${st.reason}</th></tr></thead>
  <tbody>${found.map(
    (l) => html`<tr><td data-label="${st.occurredAt}">${time(l.occurredAt)}</td>
    <td data-label="${st.kindLabel}">${badge(st.kind[l.kind], 'muted', l.kind)}</td>
    <td data-label="${st.value}">${money(l.value, ctx.lang)}</td>
    <td data-label="${st.netEffect}">${money(l.netEffect, ctx.lang)}</td>
    <td data-label="${st.order}">${l.orderId ? html`<a href="${path`/console/orders/${l.orderId}`}"><code>${l.orderId.slice(0, 8)}</code></a>` : '—'}</td>
    <td data-label="${st.reason}">${l.reason ?? '—'}</td></tr>`,
  )}</tbody></table></div>`;
}

export const statementsPages: FastifyPluginAsync<{ kit: ConsoleKit }> = async (app, { kit }) => {
  const { statements, merchants } = kit.services;

  app.get('/merchants/:merchantId/statements', allow('viewer'), async (request, reply) => {
    const m = await merchants.requireMerchant(merchantIdOf(request));
    const ctx = kit.ctx(request);
    const st = ctx.t.statements;
    const q = queryOf(request);
    const found = await statements.list({ merchantId: m.id, cursor: q.cursor || undefined, limit: PAGE });
    const recent = (await statements.list({ merchantId: m.id, limit: CHART_PERIODS })).items.reverse();
    const chart = recent.length
      ? lineChart(
          ctx,
          st.chartTitle,
          recent.map((s) => localDate.format(new Date(s.periodStart))),
          [
            { label: st.totals.gross, colour: '#2b6cb0', values: recent.map((s) => s.totals.gross) },
            { label: st.totals.net, colour: '#2f855a', values: recent.map((s) => s.totals.net) },
          ],
          '',
        )
      : '';
    const table = found.items.length
      ? html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${st.listOf(m.name)}</caption>
  <thead><tr><th scope="col">${st.period}</th><th scope="col">${st.stateLabel}</th><th scope="col">${st.totals.gross}</th><th scope="col">${st.totals.commission}</th><th scope="col">${st.totals.collectedByMerchant}</th><th scope="col">${st.totals.net}</th></tr></thead>
  <tbody>${found.items.map(
    (s) => html`<tr><th scope="row" data-label="${st.period}"><a href="${statementHref(s.id)}">${periodText(s)}</a></th>
    <td data-label="${st.stateLabel}">${stateBadge(ctx, s.state)}</td>
    <td data-label="${st.totals.gross}">${money(s.totals.gross, ctx.lang)}</td>
    <td data-label="${st.totals.commission}">${money(s.totals.commission, ctx.lang)}</td>
    <td data-label="${st.totals.collectedByMerchant}">${money(s.totals.collectedByMerchant, ctx.lang)}</td>
    <td data-label="${st.totals.net}">${money(s.totals.net, ctx.lang)}</td></tr>`,
  )}</tbody></table></div>`
      : html`<p class="muted">${st.none}</p>`;
    const settings = await statements.settingsOf(m.id);
    const body = html`<p><a href="${path`/console/merchants/${m.id}`}">${st.backToMerchant(m.name)}</a></p>
<section aria-labelledby="st-h" class="panel">
  <h2 id="st-h">${st.heading}</h2>
  <p class="muted small">${st.intro(String(settings.commissionPercent), st.cycle[settings.settlementCycle])}</p>
  ${chart}
  ${table}
  ${pager(ctx.t, request, found.next)}
</section>`;
    return kit.send(reply, page(ctx, { title: st.listOf(m.name), active: 'merchants' }, body));
  });

  app.get('/statements/:statementId', allow('viewer'), async (request, reply) => {
    const ctx = kit.ctx(request);
    const st = ctx.t.statements;
    const found = await statements.lines(statementIdOf(request));
    const s = found.statement;
    const [name] = (await merchants.merchantNames([s.merchantId])).values();
    const merchantName = name ?? s.merchantId;
    const csrf = csrfField(ctx.csrfToken);
    const paidForm =
      s.state === 'CLOSED' && ctx.can('POST /console/statements/:statementId/paid')
        ? html`<form method="post" action="${statementHref(s.id)}/paid" class="inline-form" data-confirm="${st.paidConfirm}">${csrf}
  <div class="field"><label for="paid-on">${st.paidOn}</label><input id="paid-on" name="paidOn" type="date" required></div>
  <div class="field"><label for="paid-ref">${st.paidReference}</label><input id="paid-ref" name="reference" required maxlength="200"></div>
  <button type="submit">${st.markPaid}</button>
</form>`
        : '';
    const body = html`<p><a href="${path`/console/merchants/${s.merchantId}/statements`}">${st.backToList(merchantName)}</a></p>
<section aria-labelledby="s-h" class="panel">
  <h2 id="s-h">${st.statementOf(periodText(s))} ${stateBadge(ctx, s.state)}</h2>
  ${totalsList(ctx, s)}
  <dl class="facts">
    <div><dt>${st.closedAt}</dt><dd>${time(s.closedAt)}</dd></div>
    <div><dt>${st.paidAt}</dt><dd>${time(s.paidAt)}${s.paidReference ? html` · <code>${s.paidReference}</code>` : ''}</dd></div>
  </dl>
  ${paidForm}
</section>
<section aria-labelledby="l-h" class="panel">
  <h2 id="l-h">${st.linesHeading}</h2>
  <p class="muted small">${st.linesHelp}</p>
  ${linesTable(ctx, found.lines)}
</section>`;
    const notice = queryOf(request).done === 'paid' ? st.donePaid : '';
    return kit.send(reply, page(ctx, { title: st.statementOf(periodText(s)), active: 'merchants', notice }, body));
  });

  app.post('/statements/:statementId/paid', allow('admin', 'statement.paid'), async (request, reply) => {
    const id = statementIdOf(request);
    const { paidOn, reference } = readForm(request, PaidForm, {
      labels: { paidOn: (t) => t.statements.paidOn, reference: (t) => t.statements.paidReference },
    });
    // The day the operator chose, as its start in Sao Paulo (the statements' own calendar).
    const day = periodContaining(new Date(`${paidOn}T15:00:00Z`), 'DAILY');
    if (Number.isNaN(day.start.getTime())) throw invalidInput((t) => t.statements.paidOn, 'paidOn');
    await statements.markPaid(id, { paidAt: day.start.toISOString(), reference });
    return reply.redirect(statementHref(id) + query({ done: 'paid' }), 303);
  });
};
