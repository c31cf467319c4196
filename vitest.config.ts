import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Generated-input and property tests draw from one seed per run (test/support/generated-inputs.ts):
// chosen here when FUZZ_SEED is not given, printed, and handed to every worker through the
// environment, so that a failure reproduces with `FUZZ_SEED=… npm test`.
process.env.FUZZ_SEED ||= String(randomInt(1, 2 ** 31 - 1));
process.stdout.write(
  `generated inputs: FUZZ_SEED=${process.env.FUZZ_SEED} FUZZ_SCALE=${process.env.FUZZ_SCALE || '0.1'}` +
    ' (reproduce a failure with the same FUZZ_SEED; the full counts run with npm run test:deep)\n',
);

// The same suite runs on the embedded database always, and on PostgreSQL when
// TEST_DATABASE_URL is set (`.ci/run` sets it). TEST_DB tells the helpers which one.
const postgresUrl = process.env.TEST_DATABASE_URL;

const shared = {
  include: [
    'src/**/*.test.ts',
    'test/**/*.test.ts',
    'packages/*/src/**/*.test.ts',
    'packages/*/test/**/*.test.ts',
    'examples/*/test/**/*.test.ts',
  ],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Every response a test sees is checked against /openapi.json (docs/design/architecture.md#contract).
  setupFiles: ['test/support/contract-setup.ts', 'test/support/generated-inputs-setup.ts'],
  // As tsconfig.json's `paths`: the workspace uses @cleaver/pos-client from its sources, unbuilt.
  alias: { '@cleaver/pos-client': fileURLToPath(new URL('packages/pos-client/src/index.ts', import.meta.url)) },
};

// Files that prove PostgreSQL-only behaviour (several processes on one database, an outage of
// the database server): on the embedded database they have nothing to run.
const postgresOnly = [
  'test/proof/multi-process.test.ts',
  'test/proof/outage.test.ts',
  'test/proof/worker-outage.test.ts',
  'test/proof/catalog-crash.test.ts',
];
// Proofs that do not depend on the database kind (their own Redis, a process's signals): once.
const onceOnly = [
  'test/proof/redis-freeze.test.ts',
  'test/security/logistics-flood.test.ts',
  'test/foundation/production-build.test.ts',
  'test/foundation/pglite-thread.test.ts',
];

export default defineConfig({
  test: {
    // The timings reporter feeds `npm run test:timings` and the slowest files .ci/run prints.
    reporters: ['default', './test/support/timings-reporter.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'pglite',
          exclude: ['**/node_modules/**', ...postgresOnly],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['test/support/built-cli.ts', 'test/support/pglite-global-setup.ts'],
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                exclude: ['**/node_modules/**', ...onceOnly],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['test/support/built-cli.ts', 'test/support/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
