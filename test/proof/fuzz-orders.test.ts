import { defineFuzzSuite } from './fuzz-suite.js';

// Issue 9 fuzzing, the "orders" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('orders');
