import { defineFuzzSuite } from './fuzz-suite.js';

// Issue 9 fuzzing, the "oauth-logistics" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('oauth-logistics');
