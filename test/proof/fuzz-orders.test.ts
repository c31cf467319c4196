import { defineFuzzSuite } from './fuzz-suite.js';

// Fuzzing proof (architecture.md#fuzzing), the "orders" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('orders');
