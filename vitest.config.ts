import { defineConfig } from 'vitest/config';

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
  // Every response a test sees is checked against /openapi.json (issue 9 "Contract").
  setupFiles: ['test/support/contract-setup.ts'],
};

// Files that prove PostgreSQL-only behaviour (several processes on one database, an outage of
// the database server): on the embedded database they have nothing to run.
const postgresOnly = ['test/proof/multi-process.test.ts', 'test/proof/outage.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          ...shared,
          name: 'pglite',
          exclude: ['**/node_modules/**', ...postgresOnly],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['test/support/pglite-global-setup.ts'],
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                env: { TEST_DB: 'postgres' },
                globalSetup: ['test/support/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
