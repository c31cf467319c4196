import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
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
  // A worker runs file after file in one process (CLEAVER_TEST_ISOLATE=1 for a process per file):
  // the sources are imported and PGlite's migrated template is loaded once per worker, not once
  // per file. Nothing leaks from file to file: every file builds its own app on its own database
  // copy, and no test stubs a module, a global or the environment (test/README.md).
  isolate: process.env.CLEAVER_TEST_ISOLATE === '1',
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
  'test/proof/statements-crash.test.ts',
  'test/proof/rate-limit-cold-start.test.ts',
  'test/feed/feed-relay-faults.test.ts',
];
// Files that prove nothing about the database kind run once, on the embedded database: pure logic,
// the client library, the CLI and the binary, browsers, documents and the OpenAPI contract, the
// request parser, signatures, a process's signals, their own Redis. (The same suite still runs on
// both databases wherever a query, a transaction or a lock is what is being tested.) A file that
// has something PostgreSQL-specific to prove as well says so with describe.runIf on testDbKind.
const onceOnly = [
  // Pure logic beside the sources, the architecture and documentation checks.
  'src/**/*.test.ts',
  'test/architecture/**/*.test.ts',
  'test/docs/**/*.test.ts',
  // The POS client library and the example POS, against a running app.
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'examples/*/test/**/*.test.ts',
  // The Pascal and C# clients (clients/), compiled and run against a running app.
  'test/clients/*.test.ts',
  // The CLI (commands over HTTP) and the built binary; cli-startup-errors has PostgreSQL cases.
  'test/cli/cli-catalog.test.ts',
  'test/cli/cli-pos-defaults.test.ts',
  'test/cli/cli-platform-tail.test.ts',
  'test/cli/cli-homologation.test.ts',
  'test/cli/cli-homologation-pass.test.ts',
  'test/cli/cli-listen.test.ts',
  'test/cli/cli-operator.test.ts',
  'test/cli/cli-orders.test.ts',
  'test/cli/cli-pos-orders.test.ts',
  'test/cli/cli-pos-weigh-label.test.ts',
  'test/cli/cli-pos-requests.test.ts',
  'test/cli/cli-pos-statements.test.ts',
  'test/cli/cli-trigger.test.ts',
  'test/cli/sandbox-demo.test.ts',
  'test/operators-access/cli-operators.test.ts',
  'test/opendelivery/od-keys-cli-console.test.ts',
  // Browsers drive pages whose queries the HTTP console tests cover on both databases.
  'test/console/*-browser.test.ts',
  // The contract and the HTTP surface: documents, headers, parsing, configuration.
  'test/foundation/config.test.ts',
  'test/foundation/contract.test.ts',
  'test/foundation/contract-examples.test.ts',
  'test/foundation/content-types.test.ts',
  'test/foundation/http-surface.test.ts',
  'test/foundation/openapi-lint.test.ts',
  'test/foundation/openapi-reference.test.ts',
  'test/foundation/production-build.test.ts',
  'test/foundation/pglite-thread.test.ts',
  'test/foundation/service-env.test.ts',
  'test/foundation/request-id.test.ts',
  // The AsyncAPI document against its specification and the items of one flow (a document check).
  'test/feed/feed-asyncapi.test.ts',
  'test/foundation/openapi-published.test.ts',
  'test/foundation/landing-and-guides.test.ts',
  'test/foundation/docs-reference.test.ts',
  'test/foundation/examples-literal.test.ts',
  // The getting-started guide from a clean clone, exactly as written: a reader's path, not a query.
  'test/foundation/getting-started-guide.test.ts',
  'test/operators-access/config.test.ts',
  'test/opendelivery/od-openapi-distances.test.ts',
  // The client's upload types held to the upload schema (a type check), and console form parsing
  // with its messages: nothing either does depends on the database.
  'test/catalog/upload-client-types.test.ts',
  'test/console/console-forms.test.ts',
  // Request shapes of real clients against the HTTP layer (parsing, filters, 405, Content-Type).
  'test/opendelivery/od-real-clients.test.ts',
  'test/security/request-parsing.test.ts',
  'test/security/logistics-flood.test.ts',
  // Signatures are checked before anything is read (spec 5.2); the order is only looked at.
  'test/logistics/logistics-tampering.test.ts',
  // A homologation run grades what a POS did over minutes; its storage is the routes' (both kinds).
  'test/homologation/homologation-run.test.ts',
  'test/proof/fuzz-checks.test.ts',
  'test/proof/redis-freeze.test.ts',
  // D46: clusters, brokers and sentinels of their own (a PostgreSQL that turns read-only, NATS
  // servers listed with a dead one first, a Redis failover): nothing of the test database's kind.
  'test/proof/read-only-database.test.ts',
  'test/proof/redis-sentinel.test.ts',
  'test/feed/feed-relay-servers.test.ts',
  // Rate-limit counters in memory and in Redis: the database only holds the apps' tokens.
  'test/foundation/rate-limit.test.ts',
  // Two apps' answers compared byte for byte, with and without a broker: a configuration check.
  'test/feed/feed-broker-optional.test.ts',
  // Followers of the feed across a restart of a `cleaver serve` process on its embedded database:
  // the followers' waiting and resuming, not a query.
  'test/feed/feed-followers-restart.test.ts',
];

export default defineConfig({
  test: {
    // Both cores of a two-core machine (Vitest's default leaves one idle: cores − 1). Files run in
    // parallel safely: each has its own database copy, ports are taken at 0, processes and
    // clusters of a file are its own, and serve's signal handlers are race-free (D31).
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
