import { defineFuzzSuite } from './fuzz-suite.js';

// Issue 9 fuzzing, the "admin-merchants" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('admin-merchants');
