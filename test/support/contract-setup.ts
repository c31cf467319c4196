import { afterEach, expect } from 'vitest';
import { takeContractViolations } from './contract.js';

// Fails the test whose requests got a response its /openapi.json does not describe.
afterEach(() => {
  expect(takeContractViolations()).toEqual([]);
});
