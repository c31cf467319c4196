// D42 in the console: the order page's panel of a weighing that asked the customer: while it
// waits, its deadline and each line before and after; once decided, the decision and by whom.
import type { OrderWeighingState } from '../modules/orders/index.js';
import { badge, type Html, html, time } from './html.js';
import { money, quantity } from './i18n.js';
import type { PageContext } from './layout.js';

/** The panel, or nothing when no weighing ever asked the customer. */
export function weighingApprovalPanel(ctx: PageContext, document: { weighing?: OrderWeighingState }): Html {
  const w = document.weighing;
  if (!w) return html``;
  const a = ctx.t.weighingApproval;
  const brl = (value: number) => money(value, ctx.lang);
  const kg = (value: number) => quantity(value, 'kg', ctx.lang);
  const pending = w.state === 'PENDING_APPROVAL';
  const decided = w.decision
    ? html`<p>${a.decided(a.decisions[w.decision] ?? w.decision, w.by === 'deadline' ? a.byDeadline : a.byPlatform)} ${time(w.decidedAt)}${
        w.removedLines?.length ? html` · ${a.removed(w.removedLines.join(', '))}` : ''
      }</p>`
    : html``;
  return html`<section aria-labelledby="weighing-approval-h" class="panel" id="weighing-approval">
  <h2 id="weighing-approval-h">${a.title} ${badge(a.states[w.state] ?? w.state, pending ? 'warn' : 'ok')}</h2>
  ${pending ? html`<p>${a.waiting} ${time(w.deadline)}</p>` : decided}
  <table>
    <thead><tr><th>${a.line}</th><th>${a.before}</th><th>${a.after}</th><th></th></tr></thead>
    <tbody>${w.lines.map(
      (l) => html`<tr>
      <td data-label="${a.line}">${l.index} · ${l.name}${l.scaleLabel ? html`<br><span class="muted small">${a.label} ${l.scaleLabel}</span>` : ''}</td>
      <td data-label="${a.before}">${kg(l.quantityBefore)} = ${brl(l.totalPriceBefore.value)}</td>
      <td data-label="${a.after}">${kg(l.quantity)} = ${brl(l.totalPriceAfter.value)}</td>
      <td>${l.outOfTolerance ? badge(a.outOfTolerance, 'warn') : ''}</td>
    </tr>`,
    )}</tbody>
  </table>
  <p class="small">${a.items} ${brl(w.itemsPriceBefore.value)} → ${brl(w.itemsPriceAfter.value)}</p>
</section>`;
}
