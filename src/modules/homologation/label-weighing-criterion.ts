// The optional label-weighing criterion of a homologation run (D41): the POS weighed at least one
// line by the scale's label during the run. Optional like kg-weighed: a POS whose scales print no
// price-embedded labels weighs by typing the kilograms, which is no fault.
import type { ObservedRequest } from './observer.js';

export const LABEL_WEIGHING_CRITERION = {
  id: 'label-weighing',
  title: 'A line weighed by its scale label',
  rule: 'D41',
} as const;

/** Passes when a weighing answered 2xx named a line by `label`; not_observed otherwise. */
export function gradeLabelWeighing(requests: ObservedRequest[]): {
  result: 'pass' | 'not_observed';
  evidence: string[];
  required: false;
} {
  const byLabel = requests.filter((r) => r.status < 300 && (r.weighedByLabel?.length ?? 0) > 0);
  if (byLabel.length === 0) {
    return { result: 'not_observed', evidence: ['no line was weighed by its scale label'], required: false };
  }
  return {
    result: 'pass',
    evidence: byLabel.map(
      (r) => `${r.method} ${r.path} → ${r.status}: line(s) ${r.weighedByLabel?.join(', ')} by label`,
    ),
    required: false,
  };
}
