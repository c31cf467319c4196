// Generated scale label layouts (D41) for the property tests of labels and weighing by label.
import fc from 'fast-check';

/** Any layout D41 allows. */
export const arbLayout = fc
  .record({
    prefix: fc.oneof(
      fc.constant('2'),
      fc.integer({ min: 0, max: 9 }).map((d) => `2${d}`),
    ),
    codeDigits: fc.integer({ min: 4, max: 6 }),
    value: fc.constantFrom('WEIGHT' as const, 'PRICE' as const),
  })
  .filter((l) => {
    const valueDigits = 12 - l.prefix.length - l.codeDigits;
    return valueDigits >= 5 && valueDigits <= 7;
  })
  .map((l) => ({
    ...l,
    valueDigits: 12 - l.prefix.length - l.codeDigits,
    decimals: l.value === 'WEIGHT' ? 3 : 2,
  }));
