import { defineFuzzSuite } from './fuzz-suite.js';

// Issue 9 fuzzing, the "merchant" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('merchant');
