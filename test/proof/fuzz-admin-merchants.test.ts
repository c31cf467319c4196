import { defineFuzzSuite } from './fuzz-suite.js';

// Fuzzing proof (architecture.md#fuzzing), the "admin-merchants" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('admin-merchants');
