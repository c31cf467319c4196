import { seedGenerators } from './generated-inputs.js';

// Every property and generated-input test of this worker draws from the run's seed
// (test/support/generated-inputs.ts).
seedGenerators();
