// docs/design/architecture.md#module-boundaries, enforced: fails the build when an import goes
// around a module's index.ts or back up the layers, when a repository touches another module's
// table, or when SQL appears outside a repository. Exceptions: docs/adr/0004-module-boundaries.md.
import { describe, expect, it } from 'vitest';
import {
  importProblems,
  importsOf,
  layerOf,
  migratedTables,
  moduleCycles,
  readTree,
  resolveImport,
  tableProblems,
  tablesIn,
} from './boundaries.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Which module owns each table: the only one whose repositories may touch it. */
const OWNERS: Record<string, string> = {
  merchants: 'merchants',
  integration_keys: 'auth',
  auth_revocations: 'auth',
  key_profile_changes: 'auth',
  logistics_apps: 'logistics',
  logistics_app_merchants: 'logistics',
  logistics_requests: 'logistics',
  logistics_updates: 'logistics',
  categories: 'catalog',
  products: 'catalog',
  category_products: 'catalog',
  product_media: 'catalog',
  product_cuts: 'catalog',
  // D43: pauses and counted stock.
  product_availability: 'catalog',
  catalog_syncs: 'catalog',
  catalog_states: 'catalog',
  catalog_pull_states: 'catalog',
  orders: 'orders',
  order_tracking: 'orders',
  order_weighings: 'orders',
  weighing_approvals: 'orders',
  // D44: the places taken in each slot.
  schedule_slots: 'orders',
  order_events: 'events',
  order_event_log: 'events',
  event_receipts: 'events',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  webhook_forwarding: 'webhooks',
  operators: 'operators',
  operator_sessions: 'operators',
  operator_tokens: 'operators',
  login_throttles: 'operators',
  audit_log: 'operators',
  key_usage_minutes: 'usage',
  key_presence: 'usage',
  // request_log (0020) became request_log_batches (0021).
  request_log: 'usage',
  request_log_batches: 'usage',
  homologation_runs: 'homologation',
  merchant_history: 'merchants',
  webhook_endpoint_health: 'webhooks',
  notices: 'notices',
  feed_items: 'feed',
  feed_stamper: 'feed',
  feed_relays: 'feed',
  statement_settings: 'statements',
  statements: 'statements',
  statement_lines: 'statements',
};

/** Reads of another module's table, each argued in docs/adr/0004-module-boundaries.md. */
const ALLOWED: Array<{ file: string; table: string }> = [
  // The fan-out inserts one receipt per live key in the event's own transaction, set-based.
  { file: 'src/modules/events/events-repository.ts', table: 'integration_keys' },
  // The outbox write and the claim read the merchant's webhook URL and key in the same statement.
  { file: 'src/modules/webhooks/webhooks-repository.ts', table: 'merchants' },
  // The outbox write picks the body in the dialect of the key that registered the URL (D28).
  { file: 'src/modules/webhooks/webhooks-repository.ts', table: 'integration_keys' },
  // Endpoint health joins the merchant's webhook URL and disables it with a reason (merchants'
  // webhook columns are the webhooks module's to write, as registration does).
  { file: 'src/modules/webhooks/endpoint-health-repository.ts', table: 'merchants' },
  // Endpoint health shows the address events go to: its path follows the registering key's
  // profile (D28, D40), read with the URL.
  { file: 'src/modules/webhooks/endpoint-health-repository.ts', table: 'integration_keys' },
  // The merchant record's head query reads status and times with the catalog version (D24).
  { file: 'src/modules/catalog/catalog-repository.ts', table: 'merchants' },
];

const files = readTree(ROOT, 'src');

describe('module boundaries', () => {
  it('every cross-module import goes through index.ts, and no layer imports one above it', () => {
    expect(importProblems(files).map((p) => `${p.file}: ${p.problem}`)).toEqual([]);
  });

  it("repositories touch only their own module's tables (exceptions argued in the ADR)", () => {
    expect(tableProblems(files, OWNERS, ALLOWED).map((p) => `${p.file}: ${p.problem}`)).toEqual([]);
  });

  it('every table has an owner', () => {
    expect(migratedTables(ROOT).filter((t) => !(t in OWNERS))).toEqual([]);
  });

  it('modules do not import each other in a cycle', () => {
    expect(moduleCycles(files)).toEqual([]);
  });
});

describe('the checker itself', () => {
  it.each([
    ["import { a } from './x.js';", ['./x.js']],
    ["import type { A } from '../auth/index.js';\nexport { b } from './b.js';", ['../auth/index.js', './b.js']],
    ["const m = await import('./server.js');", ['./server.js']],
    ["import { x } from 'fastify';", []],
  ])('finds relative imports in %j', (text, expected) => {
    expect(importsOf(text)).toEqual(expected);
  });

  it('resolves and classifies paths', () => {
    expect(resolveImport('src/modules/orders/orders-service.ts', '../events/index.js')).toBe(
      'src/modules/events/index.ts',
    );
    expect(layerOf('src/modules/orders/x.ts')).toBe('module:orders');
    expect(layerOf('src/lib/money.ts')).toBe('lib');
    expect(layerOf('src/app.ts')).toBe('root');
  });

  it('reports a back door, an upward import and a foreign table', () => {
    const problems = importProblems([
      { path: 'src/modules/orders/a.ts', text: "import { x } from '../events/events-service.js';" },
      { path: 'src/modules/auth/b.ts', text: "import { y } from '../../plugins/auth-hooks.js';" },
      { path: 'src/lib/c.ts', text: "import { z } from '../modules/auth/index.js';" },
      { path: 'src/modules/orders/d.ts', text: "import { w } from '../events/index.js';" },
    ]);
    expect(problems.map((p) => p.file)).toEqual(['src/modules/orders/a.ts', 'src/modules/auth/b.ts', 'src/lib/c.ts']);
    expect(
      tablesIn(
        'SELECT 1 FROM orders o JOIN merchants m ON … WITH due AS (…) FROM due',
        new Set(['orders', 'merchants']),
      ),
    ).toEqual(['orders', 'merchants']);
    expect(
      tableProblems(
        [{ path: 'src/modules/orders/orders-repository.ts', text: 'UPDATE products SET x = 1' }],
        { products: 'catalog' },
        [],
      ),
    ).toHaveLength(1);
  });
});
