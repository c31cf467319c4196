import { defineFuzzSuite } from './fuzz-suite.js';

// Fuzzing proof (architecture.md#fuzzing), the "oauth-logistics" operations (test/proof/fuzz-suite.ts).
await defineFuzzSuite('oauth-logistics');
