// D42, pure: the plans of a weighing out of tolerance under the ASK policy (it waits, showing
// the lines before and after) and of the decision that ends the wait (ACCEPT applies it as D38
// does, REJECT leaves the order as it was, REMOVE_LINES takes the named lines out and applies
// the rest). order-changes.ts writes them (weighing-approval-writes.ts).
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import type { OrderDocument } from './order-intake.js';
import { applyLines, type CheckedLine, type WeighingOutcome } from './order-weighing.js';
import type { OrderRow } from './orders-repository.js';
import type { ApprovalLine, ApprovalPlan, DecisionPlan, DocumentWithWeighing } from './weighing-approval-writes.js';
import type {
  ApprovalRow,
  ApprovalState,
  StoredRequestLine,
  WeighingDecision,
} from './weighing-approvals-repository.js';

const STATE_OF: Record<WeighingDecision, ApprovalState> = {
  ACCEPT: 'ACCEPTED',
  REJECT: 'REJECTED',
  REMOVE_LINES: 'LINES_REMOVED',
};

/** The waiting weighing: what the customer is asked about, with its deadline. */
export function planApproval(
  document: OrderDocument,
  outcome: WeighingOutcome,
  ask: {
    keyId: string | null;
    weighingId: string;
    now: Date;
    seconds: number;
    defaultDecision: WeighingDecision;
  },
): ApprovalPlan {
  const lines: ApprovalLine[] = outcome.checked.map((line) => {
    const before = document.items[line.index];
    const after = outcome.document.items[line.index];
    if (!before || !after) throw new Error(`weighed line ${line.index} is not in the order`);
    return {
      index: line.index,
      name: before.name,
      orderedQuantity: line.orderedQuantity,
      quantityBefore: before.quantity,
      quantity: line.quantity.toNumber(),
      totalPriceBefore: before.totalPrice,
      totalPriceAfter: after.totalPrice,
      outOfTolerance: line.outside,
      ...(line.scaleLabel ? { scaleLabel: line.scaleLabel } : {}),
    };
  });
  return {
    keyId: ask.keyId,
    defaultDecision: ask.defaultDecision,
    request: outcome.checked.map(toStored),
    weighing: {
      weighingId: ask.weighingId,
      state: 'PENDING_APPROVAL',
      deadline: new Date(ask.now.getTime() + ask.seconds * 1000).toISOString(),
      lines,
      itemsPriceBefore: outcome.itemsPriceBefore,
      itemsPriceAfter: outcome.itemsPriceAfter,
    },
  };
}

const toStored = (line: CheckedLine): StoredRequestLine => ({
  index: line.index,
  orderedQuantity: line.orderedQuantity,
  quantity: line.quantity.toFixed(),
  ...(line.scaleLabel ? { scaleLabel: line.scaleLabel } : {}),
  ...(line.labelPrice ? { labelPrice: line.labelPrice.toFixed() } : {}),
  outside: line.outside,
});

const fromStored = (line: StoredRequestLine): CheckedLine => ({
  index: line.index,
  orderedQuantity: line.orderedQuantity,
  quantity: new Decimal(line.quantity),
  ...(line.scaleLabel ? { scaleLabel: line.scaleLabel } : {}),
  ...(line.labelPrice ? { labelPrice: new Decimal(line.labelPrice) } : {}),
  outside: line.outside,
});

/** An order the butcher may still weigh: the decision then changes it (otherwise it is only recorded). */
const stillWeighable = (order: OrderRow) => order.status === 'CONFIRMED' && !order.event_types.includes('PICKED_UP');

/**
 * The decision's plan, or a 400 naming `lines` when REMOVE_LINES names a line the weighing does
 * not have. The deadline's REMOVE_LINES that would empty the order rejects instead.
 */
export function planDecision(
  order: OrderRow,
  approval: ApprovalRow,
  input: { decision: WeighingDecision; lines?: number[] },
  by: 'platform' | 'deadline',
  now: Date,
): DecisionPlan {
  const checked = approval.request.map(fromStored);
  let decision = input.decision;
  if (input.lines !== undefined && decision !== 'REMOVE_LINES') {
    throw badRequest(`lines goes with decision REMOVE_LINES only, not ${decision}`);
  }
  let removed: number[] = [];
  if (decision === 'REMOVE_LINES') {
    const weighed = checked.map((l) => l.index);
    removed = input.lines ?? checked.filter((l) => l.outside).map((l) => l.index);
    removed.forEach((index, k) => {
      if (!weighed.includes(index)) {
        throw badRequest(`lines[${k}] (${index}) is not a line of this weighing (its lines are ${weighed.join(', ')})`);
      }
    });
    removed = [...new Set(removed)].sort((a, b) => a - b);
    if (removed.length >= order.document.items.length) {
      if (by === 'platform') {
        throw badRequest('lines: REMOVE_LINES would leave the order without items; REJECT, or cancel the order');
      }
      decision = 'REJECT';
      removed = [];
    }
  }
  const document = order.document as DocumentWithWeighing;
  let outcome: WeighingOutcome | null = null;
  if (stillWeighable(order) && decision !== 'REJECT') {
    const removedSet = new Set(removed);
    outcome = applyLines(
      document,
      checked.filter((l) => !removedSet.has(l.index)),
      removedSet,
    );
  }
  const waiting = document.weighing?.weighingId === approval.id ? document.weighing : undefined;
  if (!waiting) throw new Error(`order ${order.id} does not show weighing ${approval.id}`);
  return {
    weighingId: approval.id,
    keyId: approval.key_id,
    decision,
    by,
    state: STATE_OF[decision],
    removed,
    outcome,
    weighing: {
      ...waiting,
      state: STATE_OF[decision],
      decision,
      by,
      decidedAt: now.toISOString(),
      ...(removed.length > 0 ? { removedLines: removed } : {}),
    },
  };
}
