import { defineFuzzSuite } from './fuzz-suite.js';

// Fuzzing proof (architecture.md#fuzzing), the "admin-other" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('admin-other');
