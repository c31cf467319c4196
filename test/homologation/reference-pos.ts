// The reference POS of examples/pos-integration as the homologation tests run it: its catalog,
// the short timings a run uses in tests, and the POS started in process with quick kitchen and
// courier steps. Used by test/homologation/homologation-run.test.ts (run started by the operator)
// and test/cli/cli-homologation-pass.test.ts (run started by `cleaver pos homologation run`).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferencePos } from '../../examples/pos-integration/src/pos.js';
import { createPosClient, type MerchantUpdateRequest } from '../../packages/pos-client/src/index.js';

export const REFERENCE_CATALOG = JSON.parse(
  readFileSync(new URL('../../examples/pos-integration/catalog.json', import.meta.url), 'utf8'),
) as MerchantUpdateRequest;

/** A run's timings in tests, without its duration: generous where a loaded machine could make the reference POS late. */
export const TEST_TIMINGS = {
  waitForPosMs: 10_000,
  scenarioSpacingMs: 300,
  confirmDeadlineMs: 12_000,
  cancellationDeadlineMs: 12_000,
  pollMinIntervalMs: 100,
  pollMaxIntervalMs: 3_000,
  pollBurstWindowMs: 1_000,
  pollBurstMax: 8,
  retryAfterSec: 1,
  injectionGapMs: 1_500,
};

/**
 * Runs the reference POS for a merchant until stop(). It takes no webhook (polling only);
 * `deliveryCodeOf` stands for the customer who tells the courier's code.
 */
export function startReferencePos(options: {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  deliveryCodeOf: (orderId: string) => Promise<string | undefined>;
}): { stop(): Promise<void> } {
  const { baseUrl, clientId, clientSecret } = options;
  const reference = createReferencePos({
    client: createPosClient({ baseUrl, clientId, clientSecret }),
    statePath: join(mkdtempSync(join(tmpdir(), 'cleaver-homolog-')), 'state.json'),
    catalog: REFERENCE_CATALOG,
    webhookURL: 'http://127.0.0.1:1',
    pollIntervalMs: 250,
    preparationMs: 500,
    deliveryMs: 1_500,
    kitchenTickMs: 100,
    catalogPollMs: 100,
    deliveryCodeOf: options.deliveryCodeOf,
    log: () => {},
  });
  const controller = new AbortController();
  const done = reference.run(controller.signal).catch(() => {});
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
