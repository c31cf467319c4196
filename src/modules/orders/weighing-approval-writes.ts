// D42: what a weighing out of tolerance writes while it waits, and what the decision writes, in
// the transaction of the order's change (order-changes.ts applies these plans). The waiting
// weighing is on the order's document (`weighing`), a row of weighing_approvals (the deadline
// worker's queue) and a feed item; the decision is a compare-and-set of that row first, so that
// of two deciders (the platform and the deadline) exactly one changes the order.
import type { Queryable } from '../../db/db.js';
import { conflict } from '../../lib/errors.js';
import type { FeedRecorder } from '../feed/index.js';
import type { OrderDocument } from './order-intake.js';
import type { Price, WeighingOutcome } from './order-weighing.js';
import type { OrderRow } from './orders-repository.js';
import * as repo from './orders-repository.js';
import {
  type ApprovalState,
  claimPending,
  insertApproval,
  type StoredRequestLine,
  type WeighingDecision,
} from './weighing-approvals-repository.js';

/** One line of a waiting weighing as the order shows it: before and after (D42). */
export interface ApprovalLine {
  index: number;
  name: string;
  orderedQuantity: number;
  quantityBefore: number;
  quantity: number;
  totalPriceBefore: Price;
  totalPriceAfter: Price;
  /** Outside the merchant's tolerance: why the customer is asked. */
  outOfTolerance: boolean;
  scaleLabel?: string;
}

/** The order's `weighing` (D42): the last weighing that asked the customer, and its decision. */
export interface OrderWeighingState {
  weighingId: string;
  state: ApprovalState;
  deadline: string;
  lines: ApprovalLine[];
  itemsPriceBefore: Price;
  itemsPriceAfter: Price;
  decision?: WeighingDecision;
  by?: 'platform' | 'deadline';
  decidedAt?: string;
  removedLines?: number[];
}

export type DocumentWithWeighing = OrderDocument & { weighing?: OrderWeighingState };

export interface ApprovalPlan {
  keyId: string | null;
  weighing: OrderWeighingState;
  request: StoredRequestLine[];
  defaultDecision: WeighingDecision;
}

export interface DecisionPlan {
  weighingId: string;
  keyId: string | null;
  decision: WeighingDecision;
  by: 'platform' | 'deadline';
  state: ApprovalState;
  removed: number[];
  /** The weighing applied (ACCEPT, REMOVE_LINES on an order still being prepared), or null. */
  outcome: WeighingOutcome | null;
  /** The order's `weighing` once decided. */
  weighing: OrderWeighingState;
}

/** The document with its `weighing`, its totals untouched (a CAS of the order, false when it lost). */
async function writeWeighingState(tx: Queryable, order: OrderRow, weighing: OrderWeighingState, at: Date) {
  const document: DocumentWithWeighing = { ...order.document, weighing };
  return repo.updateWeighedOrderIfVersion(
    tx,
    order.id,
    order.version,
    {
      document,
      itemsPrice: String(order.document.total.itemsPrice.value),
      orderAmount: String(order.document.total.orderAmount.value),
    },
    at,
  );
}

export async function applyApproval(
  tx: Queryable,
  order: OrderRow,
  plan: ApprovalPlan,
  ctx: { feed: FeedRecorder; at: Date },
): Promise<boolean> {
  const { weighing } = plan;
  if (!(await writeWeighingState(tx, order, weighing, ctx.at))) return false;
  await insertApproval(tx, {
    id: weighing.weighingId,
    orderId: order.id,
    merchantId: order.merchant_id,
    keyId: plan.keyId,
    request: plan.request,
    lines: weighing.lines,
    itemsPriceBefore: String(weighing.itemsPriceBefore.value),
    itemsPriceAfter: String(weighing.itemsPriceAfter.value),
    deadline: new Date(weighing.deadline),
    defaultDecision: plan.defaultDecision,
    at: ctx.at,
  });
  await ctx.feed(tx, {
    kind: 'order',
    type: 'WEIGHING_APPROVAL_REQUESTED',
    merchantId: order.merchant_id,
    orderId: order.id,
    occurredAt: ctx.at,
    data: {
      weighingId: weighing.weighingId,
      lines: weighing.lines,
      itemsPriceBefore: weighing.itemsPriceBefore,
      itemsPriceAfter: weighing.itemsPriceAfter,
      deadline: weighing.deadline,
    },
  });
  return true;
}

/** Called when the decision is written (the opt-in WEIGHING_DECIDED event of a POS, D42). */
export type DecisionListener = (
  tx: Queryable,
  decided: { merchantId: string; orderId: string; weighingId: string; decision: WeighingDecision; by: string },
) => Promise<void>;

export async function applyDecision(
  tx: Queryable,
  order: OrderRow,
  plan: DecisionPlan,
  ctx: {
    feed: FeedRecorder;
    at: Date;
    write: (outcome: WeighingOutcome) => Promise<void>;
    listeners?: DecisionListener[];
  },
): Promise<boolean> {
  const claimed = await claimPending(tx, plan.weighingId, {
    state: plan.state,
    decision: plan.decision,
    by: plan.by,
    removed: plan.removed,
    at: ctx.at,
  });
  if (!claimed) throw alreadyDecided();
  if (plan.outcome) {
    const document: DocumentWithWeighing = { ...plan.outcome.document, weighing: plan.weighing };
    await ctx.write({ ...plan.outcome, document });
  } else if (!(await writeWeighingState(tx, order, plan.weighing, ctx.at))) {
    return false;
  }
  await ctx.feed(tx, {
    kind: 'order',
    type: 'WEIGHING_DECIDED',
    merchantId: order.merchant_id,
    orderId: order.id,
    occurredAt: ctx.at,
    data: {
      weighingId: plan.weighingId,
      decision: plan.decision,
      by: plan.by,
      ...(plan.removed.length > 0 ? { removedLines: plan.removed } : {}),
    },
  });
  for (const listener of ctx.listeners ?? []) {
    await listener(tx, {
      merchantId: order.merchant_id,
      orderId: order.id,
      weighingId: plan.weighingId,
      decision: plan.decision,
      by: plan.by,
    });
  }
  return true;
}

export const alreadyDecided = () => conflict('The weighing was already decided');
