// What the merchant-plan tests (catalog-upload-plan.test.ts, od-merchant-plan.test.ts) expect of a
// clean catalog, in one place: both planners end in the same MerchantPlan (catalog-plan-types.ts).
import { expect } from 'vitest';
import type { MerchantPlan } from './catalog-plan-types.js';

/**
 * A valid catalog's plan: nothing fatal or discarded, the merchant's catalog replaced and removal
 * done (spec 4.3), and these links, each `[category, product, position]`.
 */
export function expectCleanReplace(plan: MerchantPlan, links: Array<[string, string, number]>): void {
  expect(plan.fatal).toBeNull();
  expect(plan.links).toEqual(
    links.map(([categoryPdvId, productPdvId, position]) => ({ categoryPdvId, productPdvId, position })),
  );
  expect(plan.discarded).toEqual([]);
  expect(plan.replace).toBe(true);
  expect(plan.removalSkipped).toBeNull();
}
