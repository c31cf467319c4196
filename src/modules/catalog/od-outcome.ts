// Pure: the outcome of an Open Delivery sync (D29) in the words of D17, plus what Open Delivery
// adds: the order-receiving switch, and what the catalog has no place for ("Not mapped"), which
// is reported but does not make a sync FAIL. An unchanged pull is a SUCCESS that says so.
import {
  type Availability,
  countDiscarded,
  countsLine,
  type Discarded,
  type KindCounts,
  listDiscarded,
  type SyncOutcome,
  zeroCounts,
} from './catalog-upload-plan.js';

export interface OdOutcomeInput {
  entityType: string | null;
  /** Set when the notification switched order receiving. */
  merchantStatus?: Availability | null;
  counts?: { categories: KindCounts; products: KindCounts };
  /** Which count lines apply: a whole menu has both; a CATEGORY notification only categories. */
  lines?: Array<'categories' | 'products'>;
  discarded?: Discarded[];
  removalSkipped?: string | null;
  notMapped?: string[];
  problem?: string | null;
}

export function describeOdOutcome(input: OdOutcomeInput): SyncOutcome {
  const counts = input.counts ?? zeroCounts();
  const discarded = input.discarded ?? [];
  const notMapped = input.notMapped ?? [];
  const problem = input.problem ?? null;
  const parts: string[] = [];
  if (input.merchantStatus) {
    parts.push(
      `Merchant status: ${input.merchantStatus} (order receiving ${input.merchantStatus === 'AVAILABLE' ? 'on' : 'off'}).`,
    );
  }
  if (problem) parts.push(problem);
  else if (input.lines && input.lines.length > 0) {
    if (input.lines.includes('categories')) parts.push(countsLine('Categories', counts.categories));
    if (input.lines.includes('products')) parts.push(countsLine('Products', counts.products));
    parts.push(listDiscarded(discarded));
    if (input.removalSkipped) parts.push(`Nothing was removed: ${input.removalSkipped}.`);
  }
  if (notMapped.length > 0) parts.push(`Not mapped: ${notMapped.join('; ')}.`);
  return {
    status: problem || discarded.length > 0 ? 'FAIL' : 'SUCCESS',
    moreInfo: parts.join(' '),
    details: {
      entityType: input.entityType,
      counts: { ...counts, discarded: countDiscarded(discarded) },
      discarded,
      removalSkipped: input.removalSkipped ?? null,
      problem,
      format: 'opendelivery',
      notMapped,
      ...(input.merchantStatus ? { merchantStatus: input.merchantStatus } : {}),
    },
  };
}

/** A pull that found the menu unchanged: nothing was processed, and that is a success. */
export function describeUnchanged(
  how: { notModified: true; url: string; etag: string } | { sameBody: true; appliedAt: Date },
): SyncOutcome {
  const moreInfo =
    'notModified' in how
      ? `Unchanged: GET ${how.url} answered 304 Not Modified to If-None-Match ${how.etag}; nothing was re-processed.`
      : `Unchanged: the menu is identical to the one applied at ${how.appliedAt.toISOString()}; nothing was re-processed.`;
  return {
    status: 'SUCCESS',
    moreInfo,
    details: {
      entityType: null,
      counts: { ...zeroCounts(), discarded: countDiscarded([]) },
      discarded: [],
      removalSkipped: null,
      problem: null,
      unchanged: 'notModified' in how ? '304' : 'same-body',
    },
  };
}
