import { defineFuzzSuite } from './fuzz-suite.js';

// Fuzzing proof (architecture.md#fuzzing), the "merchant" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('merchant');
