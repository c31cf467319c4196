import { defineFuzzSuite } from './fuzz-suite.js';

// Issue 9 fuzzing, the "admin-other" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('admin-other');
