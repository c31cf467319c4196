// The Pascal client (clients/pascal) as a Delphi or Lazarus POS uses it: compiled with Free
// Pascal from the repository's sources, its checks run (SHA-256, the signature vectors every
// client shares, token renewal against the service), its example taken through a whole order
// flow against a live sandbox service, and its webhook verifier given what the service really
// delivered, then the same body tampered with.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPosClient } from '../../packages/pos-client/src/index.js';
import { ROOT } from '../cli/run-cli.js';
import {
  buildDir,
  type ClientWorld,
  compilerPresent,
  deliveredCreated,
  exampleEnv,
  openButcherShop,
  placeOrder,
  run,
  runProgram,
  SCALE_LABEL,
  startClientWorld,
  writeNotification,
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
      for (const program of ['tests/ClientChecks.dpr', 'examples/OrderFlow.dpr', 'examples/VerifyWebhook.dpr']) {
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
    });

    it('passes its checks: SHA-256, the shared signature vectors, unknown event types, token reuse and renewal', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal Checks');
      const vectors = JSON.parse(readFileSync(join(ROOT, 'clients/signature-vectors.json'), 'utf8')) as {
        cases: unknown[];
      };
      const { code, output } = await runProgram(join(out, 'ClientChecks'), [
        join(ROOT, 'clients/signature-vectors.json'),
        world.server.url,
        shop.merchant.merchantId,
        shop.merchant.clientSecret,
      ]);
      expect(code, output).toBe(0);
      expect(output.match(/^ok: signature vector: /gm)).toHaveLength(vectors.cases.length);
      expect(output).toContain('ok: renewed 299 s before expiry');
      expect(output).toContain('ok: an unknown event type is kept as written');
    });

    it('runs the example through a whole order flow: token, poll, details, confirm, weigh, ready, dispatch, acknowledge', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal');
      const order = await placeOrder(world, shop);
      const { code, output } = await runProgram(join(out, 'OrderFlow'), [], exampleEnv(world, shop));
      expect(code, output).toBe(0);
      const steps = [
        'token: obtained',
        'product: Picanha (KG) cut bife=Bife',
        `event: CREATED order ${order.id}`,
        `order: ${order.displayId} DELIVERY CREATED`,
        '  item 0: Picanha 2.5 KG BRL 30.48 Bife – Alho',
        'confirmed',
        `weighed: item 0 2.504 kg (ordered 2.5) BRL 30.52 label ${shop.labels ? SCALE_LABEL : ''}`,
        'ready for pickup',
        'dispatched',
        'acknowledged: ',
        `request log: POST /v1/orders/${order.id}/dispatch 202`,
        `order flow complete: ${order.id} DISPATCHED (token requests: 1)`,
      ];
      let from = 0;
      for (const step of steps) {
        const at = output.indexOf(step, from);
        expect(at, `"${step}" after position ${from} of:\n${output}`).toBeGreaterThanOrEqual(0);
        from = at + step.length;
      }

      // The service's view: weighed by the label, dispatched, and nothing left pending.
      const after = await world.op.getOrder(order.id);
      expect(after.lastEvent).toBe('DISPATCHED');
      expect(after.items[0]).toMatchObject({ quantity: 2.504, orderedQuantity: 2.5, totalPrice: { value: 30.52 } });
      if (shop.labels) expect(after.items[0]).toMatchObject({ scaleLabel: SCALE_LABEL });
      const pos = createPosClient({
        baseUrl: world.server.url,
        clientId: shop.merchant.merchantId,
        clientSecret: shop.merchant.clientSecret,
      });
      expect(await pos.pollEvents()).toEqual([]);
    });

    it('verifies the webhook the service delivered, and refuses it with a tampered body or another secret', async () => {
      const shop = await openButcherShop(world, 'Açougue Pascal Webhooks');
      const order = await placeOrder(world, shop);
      const delivered = await deliveredCreated(world, order.id);
      const verifier = join(out, 'VerifyWebhook');

      const genuine = writeNotification(out, `genuine-${order.id}`, delivered);
      const accepted = await runProgram(verifier, [shop.merchant.clientSecret, genuine.bodyFile, genuine.headersFile]);
      expect(accepted).toEqual({ code: 0, output: `valid x-app-signature,standard-webhooks CREATED ${order.id}\n` });

      const tampered = writeNotification(
        out,
        `tampered-${order.id}`,
        delivered,
        delivered.body.replace('CREATED', 'CANCELLED'),
      );
      const refused = await runProgram(verifier, [shop.merchant.clientSecret, tampered.bodyFile, tampered.headersFile]);
      expect(refused).toEqual({ code: 1, output: 'refused: X-App-Signature does not match the body\n' });

      const other = await runProgram(verifier, ['cs_another-secret', genuine.bodyFile, genuine.headersFile]);
      expect(other).toEqual({ code: 1, output: 'refused: X-App-Signature does not match the body\n' });

      // The Standard Webhooks signature alone (a receiver that drops X-App-Signature) decides the same way.
      const { 'x-app-signature': _, ...standardOnly } = delivered.headers;
      const standard = writeNotification(out, `standard-${order.id}`, { ...delivered, headers: standardOnly });
      expect(await runProgram(verifier, [shop.merchant.clientSecret, standard.bodyFile, standard.headersFile])).toEqual(
        {
          code: 0,
          output: `valid standard-webhooks CREATED ${order.id}\n`,
        },
      );
      const standardTampered = writeNotification(
        out,
        `standard-tampered-${order.id}`,
        { ...delivered, headers: standardOnly },
        `${delivered.body} `,
      );
      expect(
        await runProgram(verifier, [
          shop.merchant.clientSecret,
          standardTampered.bodyFile,
          standardTampered.headersFile,
        ]),
      ).toEqual({ code: 1, output: 'refused: webhook-signature does not match the body\n' });
    });
  },
);
