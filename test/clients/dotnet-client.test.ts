// The C# client (clients/dotnet) as a .NET Framework POS uses it: compiled with Mono's mcs from
// the repository's sources (C# 7, System.Net.Http, no package), its checks run (the signature
// vectors every client shares, token renewal against the service), its example taken through a
// whole order flow against a live sandbox service, and its webhook verifier given what the
// service really delivered, then the same body tampered with.
import { readdirSync, rmSync } from 'node:fs';
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

const mcs = (await compilerPresent('mcs', ['--version'])) && (await compilerPresent('mono', ['--version']));
const source = join(ROOT, 'clients/dotnet');
const csharp = (dir: string) =>
  readdirSync(join(source, dir))
    .filter((f) => f.endsWith('.cs'))
    .map((f) => join(source, dir, f));

describe.skipIf(!mcs)('the C# client, compiled with mcs, against a live service', { timeout: 120_000 }, () => {
  let world: ClientWorld;
  const out = buildDir('dotnet');
  const library = join(out, 'Cleaver.Client.dll');
  // mcs knows C# up to 7.2; the sources keep to what C# 7.3 and .NET Framework 4.6.1 share with it.
  const flags = ['-langversion:7.2', '-warnaserror', '-r:System.Net.Http.dll'];

  beforeAll(async () => {
    world = await startClientWorld();
    await run('mcs', [...flags, '-target:library', `-out:${library}`, ...csharp('src/Cleaver.Client')]);
    for (const [name, dir] of [
      ['ClientChecks', 'tests/ClientChecks'],
      ['OrderActions', 'tests/OrderActions'],
      ['OrderFlow', 'examples/OrderFlow'],
      ['VerifyWebhook', 'examples/VerifyWebhook'],
    ]) {
      await run('mcs', [...flags, `-r:${library}`, `-out:${join(out, `${name}.exe`)}`, ...csharp(dir)]);
    }
  });
  afterAll(async () => {
    await world?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('passes its checks: HMAC-SHA256, the shared signature vectors, unknown event types, token reuse and renewal', async () => {
    const shop = await openButcherShop(world, 'Açougue C# Checks');
    await expectChecksPass(world, shop, 'mono', [join(out, 'ClientChecks.exe')]);
  });

  it('runs the example through a whole order flow: token, poll, details, confirm, weigh, ready, dispatch, acknowledge', async () => {
    const shop = await openButcherShop(world, 'Açougue C#');
    await expectWholeOrderFlow(world, shop, 'mono', [join(out, 'OrderFlow.exe')]);
  });

  it('takes every POS order action: confirm, preparing, details, ready, dispatch, tracking, codes, delivered, picked up, cancellations', async () => {
    const shop = await openButcherShop(world, 'Açougue C# Actions');
    await expectEveryOrderAction(world, shop, 'mono', [join(out, 'OrderActions.exe')]);
  });

  it('verifies the webhook the service delivered, and refuses it with a tampered body or another secret', async () => {
    const shop = await openButcherShop(world, 'Açougue C# Webhooks');
    await expectVerifierOnRealDelivery(world, shop, out, 'mono', [join(out, 'VerifyWebhook.exe')]);
  });
});
