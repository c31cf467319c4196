// D17: what a sync reports — SUCCESS or FAIL, the counts per kind, and every discarded object
// with its reason (moreInfo for the POS, details for the operator).

import type { Availability, Discarded, DiscardKind } from './catalog-plan-types.js';

/**
 * What a sync did to one kind of object. `updated` counts only objects whose stored values really
 * changed; `unchanged` those the payload matched but left as they were (an identical re-push is
 * all unchanged), so matched = updated + unchanged.
 */
export interface KindCounts {
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
}

export interface SyncOutcome {
  status: 'SUCCESS' | 'FAIL';
  moreInfo: string;
  details: {
    /** The upload's entityType; an Open Delivery notification's own entityType (D29). */
    entityType: string | null;
    counts: { categories: KindCounts; products: KindCounts; discarded: Record<DiscardKind, number> };
    discarded: Discarded[];
    removalSkipped: string | null;
    problem: string | null;
    /** Operator-only: the exact error of a failed pull (the merchant reads a generic reason). */
    pullError?: string;
    /** Open Delivery (D29): the body's format, what has no place in the catalog, the switch. */
    format?: 'cleaver' | 'opendelivery';
    notMapped?: string[];
    merchantStatus?: Availability;
    /** A pull whose answer was unchanged (304, or the same body as the last applied one). */
    unchanged?: '304' | 'same-body';
  };
}

export const emptyCounts = (): KindCounts => ({ created: 0, updated: 0, unchanged: 0, removed: 0 });
/** Nothing created, updated or removed yet, of either kind. */
export const zeroCounts = () => ({ categories: emptyCounts(), products: emptyCounts() });

/** One kind's counts as moreInfo words them (D17). */
export const countsLine = (label: string, c: KindCounts) =>
  `${label}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.removed} removed.`;

/** How many discarded objects moreInfo lists one by one; the structured details keep them all. */
const LISTED = 200;
const KIND_LABEL: Record<DiscardKind, string> = {
  updatedObjects: 'updatedObjects',
  categories: 'category',
  itemOffers: 'itemOffer',
  items: 'item',
  links: 'category link',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Per-kind counts of discarded objects (every kind present, 0 when none). */
export function countDiscarded(discarded: Discarded[]): Record<DiscardKind, number> {
  const byKind: Record<DiscardKind, number> = { updatedObjects: 0, categories: 0, itemOffers: 0, items: 0, links: 0 };
  for (const d of discarded) byKind[d.kind] += 1;
  return byKind;
}

/** D17's "each discarded object with its id and reason", as one sentence group for moreInfo. */
export function listDiscarded(discarded: Discarded[]): string {
  if (discarded.length === 0) return 'Discarded: none.';
  const byKind = countDiscarded(discarded);
  const kinds = (Object.keys(byKind) as DiscardKind[]).filter((k) => byKind[k] > 0);
  const listed = discarded.slice(0, LISTED).map((d) => {
    const name = d.id !== null ? `${KIND_LABEL[d.kind]} "${d.id}"` : KIND_LABEL[d.kind];
    const where =
      d.path ??
      (d.kind === 'updatedObjects'
        ? `updatedObjects[${d.index}]`
        : `${d.kind === 'links' ? 'categories' : d.kind}[${d.index}]`);
    return `${name} (${where}): ${d.reason}`;
  });
  return (
    `Discarded: ${discarded.length} (${kinds.map((k) => `${k} ${byKind[k]}`).join(', ')}). ` +
    `${listed.join('; ')}${discarded.length > LISTED ? `; … and ${plural(discarded.length - LISTED, 'more')}` : ''}.`
  );
}

/** D17: SUCCESS only when nothing was discarded; moreInfo is for a person to read. */
export function describeOutcome(
  entityType: string | null,
  counts: { categories: KindCounts; products: KindCounts },
  discarded: Discarded[],
  removalSkipped: string | null,
  problem: string | null = null,
): SyncOutcome {
  const parts: string[] = [];
  if (problem) parts.push(problem);
  else {
    const c = counts.categories;
    const p = counts.products;
    if (entityType === 'MERCHANT') {
      parts.push(countsLine('Categories', c));
    }
    parts.push(countsLine('Products', p));
    parts.push(listDiscarded(discarded));
    if (removalSkipped) parts.push(`Nothing was removed: ${removalSkipped}.`);
  }
  return {
    status: problem || discarded.length > 0 ? 'FAIL' : 'SUCCESS',
    moreInfo: parts.join(' '),
    details: {
      entityType,
      counts: { ...counts, discarded: countDiscarded(discarded) },
      discarded,
      removalSkipped,
      problem,
    },
  };
}
