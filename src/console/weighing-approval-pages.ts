// D41 and D42 in the console: the merchant page's scale label layouts and weighing policy, and
// the order page's panel of a weighing that asked the customer: while it
// waits, its deadline and each line before and after; once decided, the decision and by whom.
import type { MerchantRow } from '../modules/merchants/index.js';
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

/** D41, D42: the merchant's scale label layouts (tried in order) and what a weighing off the tolerance does. */
export function scaleLabelsPanel(ctx: PageContext, m: MerchantRow): Html {
  const a = ctx.t.weighingApproval;
  return html`<section aria-labelledby="scale-h" class="panel" id="scale-labels">
  <h2 id="scale-h">${a.layoutsTitle}</h2>
  ${
    m.scale_label_layouts.length === 0
      ? html`<p class="muted">${a.noLayouts}</p>`
      : html`<table>
    <thead><tr><th>${a.prefix}</th><th>${a.codeDigits}</th><th>${a.value}</th><th>${a.valueDigits}</th><th>${a.decimals}</th></tr></thead>
    <tbody>${m.scale_label_layouts.map(
      (l) =>
        html`<tr><td data-label="${a.prefix}"><code>${l.prefix}</code></td><td data-label="${a.codeDigits}">${l.codeDigits}</td><td data-label="${a.value}">${a.values[l.value] ?? l.value}</td><td data-label="${a.valueDigits}">${l.valueDigits}</td><td data-label="${a.decimals}">${l.decimals}</td></tr>`,
    )}</tbody>
  </table>`
  }
  <p class="small">${a.policy(m.weighing_out_of_tolerance, m.weighing_approval_seconds, a.decisions[m.weighing_approval_default] ?? m.weighing_approval_default)}</p>
</section>`;
}
