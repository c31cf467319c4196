// The Pascal client (clients/pascal) as a Delphi or Lazarus POS uses it: compiled with Free
// Pascal from the repository's sources, its checks run (SHA-256, the signature vectors every
// client shares, token renewal against the service), its example taken through a whole order
// flow against a live sandbox service, and its webhook verifier given what the service really
// delivered, then the same body tampered with.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';
import {
  buildDir,
  type ClientWorld,
  compilerPresent,
  expectChecksPass,
  expectEveryOrderAction,
  expectVerifierOnRealDelivery,
  expectWholeOrderFlow,
  openButcherShop,
  run,
  startClientWorld,
} from './client-world.js';

const fpc = await compilerPresent('fpc', ['-iV']);
const source = join(ROOT, 'clients/pascal');

describe.skipIf(!fpc)(
  'the Pascal client, compiled with Free Pascal, against a live service',
  { timeout: 120_000 },
  () => {
    let world: ClientWorld;
    const out = buildDir('pascal');

    beforeAll(async () => {
      world = await startClientWorld();
      mkdirSync(join(out, 'units'), { recursive: true });
      // Warnings are errors (-Sew): the units stay clean for Delphi's stricter eye as well.
      for (const program of [
        'tests/ClientChecks.dpr',
        'tests/OrderActions.dpr',
        'examples/OrderFlow.dpr',
        'examples/VerifyWebhook.dpr',
      ]) {
        await run('fpc', [
          '-Sew',
          `-Fu${join(source, 'src')}`,
          `-FU${join(out, 'units')}`,
          `-FE${out}`,
          join(source, program),
        ]);
      }
    });
    afterAll(async () => {
      await world?.close();
      rmSync(out, { recursive: true, force: true });
    });

    it('passes its checks: SHA-256, the shared signature vectors, unknown event types, token reuse and renewal', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal Checks');
      await expectChecksPass(world, shop, join(out, 'ClientChecks'), []);
    });

    it('runs the example through a whole order flow: token, poll, details, confirm, weigh, ready, dispatch, acknowledge', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal');
      await expectWholeOrderFlow(world, shop, join(out, 'OrderFlow'), []);
    });

    it('takes every POS order action: confirm, preparing, details, ready, dispatch, tracking, codes, delivered, picked up, cancellations', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal Actions');
      await expectEveryOrderAction(world, shop, join(out, 'OrderActions'), []);
    });

    it('verifies the webhook the service delivered, and refuses it with a tampered body or another secret', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal Webhooks');
      await expectVerifierOnRealDelivery(world, shop, out, join(out, 'VerifyWebhook'), []);
    });
  },
);
