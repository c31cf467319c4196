// `cleaver merchants|keys|logistics|orders …`: the operator API (operator-api.md) from a shell.
import { readFileSync } from 'node:fs';
import type { IntegrationProfile, SandboxOrderRequest } from '@cleaver/pos-client';
import {
  ADMIN_HELP,
  ADMIN_OPTIONS,
  baseUrl,
  EXIT,
  flagOptions,
  type Io,
  money,
  operatorClient,
  parse,
  printDone,
  printFields,
  printHelp,
  printJson,
  printList,
  printRecord,
  printTable,
  requirePositional,
  UsageError,
  valueOptions,
} from './common.js';

export const MERCHANTS_HELP = `Usage:
  cleaver merchants create --name NAME [--id UUID] [--status AVAILABLE|UNAVAILABLE] [--with-key]
  cleaver merchants list
  cleaver merchants show MERCHANT_ID

  --with-key   also create an integration key and print its client id and secret

${ADMIN_HELP}`;

export const KEYS_HELP = `Usage:
  cleaver keys create MERCHANT_ID [--name NAME] [--profile cleaver|opendelivery]
                                                  the secret is shown only once
  cleaver keys set-profile MERCHANT_ID KEY_ID --profile cleaver|opendelivery
                                                  the key's next request speaks the new dialect
  cleaver keys revoke MERCHANT_ID KEY_ID          its tokens stop working at once

  --profile   cleaver (default): the spec; opendelivery: Open Delivery 1.7.0 where the two differ
              (one eventId per event occurrence, webhooks to /v1/newEvent, 422 refusals)

${ADMIN_HELP}`;

export const LOGISTICS_HELP = `Usage:
  cleaver logistics create --name NAME --merchant MERCHANT_ID [--merchant MERCHANT_ID …]

${ADMIN_HELP}`;

export const ORDERS_HELP = `Usage (sandbox: orders placed as if by a customer):
  cleaver orders create MERCHANT_ID --item POS_CODE:QTY [--item …] [--type DELIVERY|TAKEOUT]
  cleaver orders create MERCHANT_ID --body FILE    full body as in OPERATOR-API.md
  cleaver orders show ORDER_ID
  cleaver orders customer-cancel ORDER_ID [--reason TEXT]   emits ORDER_CANCELLATION_REQUEST

  --item POS_CODE:QTY   a product by its POS code (pdv_external_id); QTY may be fractional for KG
  --product UUID:QTY    a product by its internal id

${ADMIN_HELP}`;

export async function merchantsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    ...valueOptions('name', 'id', 'status'),
    ...flagOptions('with-key'),
  });
  const [sub, ...rest] = positionals;
  if (values.help) return printHelp(io, MERCHANTS_HELP);
  const json = values.json ?? false;
  switch (sub) {
    case 'create': {
      if (!values.name) throw new UsageError('merchants create needs --name');
      if (values.status && values.status !== 'AVAILABLE' && values.status !== 'UNAVAILABLE') {
        throw new UsageError('--status must be AVAILABLE or UNAVAILABLE');
      }
      const op = operatorClient(values, io.env);
      const merchant = await op.createMerchant({
        name: values.name,
        ...(values.id ? { id: values.id } : {}),
        ...(values.status ? { status: values.status as 'AVAILABLE' | 'UNAVAILABLE' } : {}),
      });
      const key = values['with-key'] ? await op.createIntegrationKey(merchant.id, 'cli') : undefined;
      printRecord(io, json, key ? { ...merchant, integrationKey: key } : merchant, [
        ['merchant id', merchant.id],
        ['name', merchant.name],
        ['status', merchant.status],
        ...(key
          ? ([
              ['key id', key.keyId],
              ['client id', key.clientId],
              ['client secret', `${key.clientSecret}   (shown only now)`],
            ] as Array<[string, string]>)
          : []),
      ]);
      // Lines to paste into a shell: what `cleaver pos …` and the client read.
      if (key && !json) {
        io.stdout.write(
          `\nPOS credentials (the secret is shown only now):\n` +
            `  export CLEAVER_URL=${baseUrl(values.url, io.env)}\n` +
            `  export CLEAVER_CLIENT_ID=${key.clientId}\n` +
            `  export CLEAVER_CLIENT_SECRET=${key.clientSecret}\n`,
        );
      }
      return EXIT.OK;
    }
    case 'list': {
      const merchants = await operatorClient(values, io.env).listMerchants();
      printList(io, json, merchants, ['ID', 'NAME', 'STATUS', 'CREATED'], (m) => [m.id, m.name, m.status, m.createdAt]);
      return EXIT.OK;
    }
    case 'show': {
      const merchant = await operatorClient(values, io.env).getMerchant(requirePositional(rest, 0, 'MERCHANT_ID'));
      printJson(io, merchant);
      return EXIT.OK;
    }
    default:
      throw new UsageError(sub ? `unknown subcommand "merchants ${sub}"` : 'merchants needs a subcommand');
  }
}

const PROFILES: readonly IntegrationProfile[] = ['cleaver', 'opendelivery'];

/** D27: --profile, checked before asking the server. */
function profileOption(value: string | undefined, required: boolean): IntegrationProfile | undefined {
  if (value === undefined) {
    if (required) throw new UsageError('--profile is required (cleaver or opendelivery)');
    return undefined;
  }
  if (!(PROFILES as readonly string[]).includes(value)) {
    throw new UsageError(`--profile must be cleaver or opendelivery, not "${value}"`);
  }
  return value as IntegrationProfile;
}

export async function keysCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    ...valueOptions('name', 'profile'),
  });
  const [sub, ...rest] = positionals;
  if (values.help) return printHelp(io, KEYS_HELP);
  switch (sub) {
    case 'create': {
      const merchantId = requirePositional(rest, 0, 'MERCHANT_ID');
      const profile = profileOption(values.profile, false);
      const key = await operatorClient(values, io.env).createIntegrationKey(merchantId, values.name, profile);
      printRecord(io, values.json, { ...key, profile: profile ?? 'cleaver' }, [
        ['key id', key.keyId],
        ['client id', key.clientId],
        ['client secret', `${key.clientSecret}   (shown only now)`],
        ['profile', profile ?? 'cleaver'],
      ]);
      return EXIT.OK;
    }
    case 'set-profile': {
      const merchantId = requirePositional(rest, 0, 'MERCHANT_ID');
      const keyId = requirePositional(rest, 1, 'KEY_ID');
      const profile = profileOption(values.profile ?? rest[2], true) as IntegrationProfile;
      const key = await operatorClient(values, io.env).setIntegrationKeyProfile(merchantId, keyId, profile);
      printDone(io, values.json, key, `key ${key.keyId} (${key.name}) now has the ${key.profile} profile`);
      return EXIT.OK;
    }
    case 'revoke': {
      const merchantId = requirePositional(rest, 0, 'MERCHANT_ID');
      const keyId = requirePositional(rest, 1, 'KEY_ID');
      await operatorClient(values, io.env).deleteIntegrationKey(merchantId, keyId);
      printDone(io, values.json, { revoked: keyId }, `key ${keyId} revoked; its tokens no longer work`);
      return EXIT.OK;
    }
    default:
      throw new UsageError(sub ? `unknown subcommand "keys ${sub}"` : 'keys needs a subcommand');
  }
}

export async function logisticsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    name: { type: 'string' },
    merchant: { type: 'string', multiple: true },
  });
  if (values.help) return printHelp(io, LOGISTICS_HELP);
  if (positionals[0] !== 'create') {
    throw new UsageError(
      positionals[0] ? `unknown subcommand "logistics ${positionals[0]}"` : 'logistics needs a subcommand',
    );
  }
  if (!values.name) throw new UsageError('logistics create needs --name');
  const app = await operatorClient(values, io.env).createLogisticsApp({
    name: values.name,
    merchantIds: values.merchant ?? [],
  });
  printRecord(io, values.json, app, [
    ['app id', app.appId],
    ['client secret', `${app.clientSecret}   (shown only now)`],
    ['merchants', app.merchantIds.join(', ')],
  ]);
  return EXIT.OK;
}

function parseItem(spec: string, key: 'pdvId' | 'productId'): SandboxOrderRequest['items'][number] {
  const at = spec.lastIndexOf(':');
  const ref = at > 0 ? spec.slice(0, at) : spec;
  const quantity = at > 0 ? Number(spec.slice(at + 1)) : 1;
  if (!ref || !Number.isFinite(quantity) || quantity <= 0) {
    throw new UsageError(
      `--${key === 'pdvId' ? 'item' : 'product'} "${spec}": expected CODE:QUANTITY with QUANTITY > 0`,
    );
  }
  return { [key]: ref, quantity };
}

export async function ordersCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    item: { type: 'string', multiple: true },
    product: { type: 'string', multiple: true },
    ...valueOptions('type', 'body', 'reason'),
  });
  const [sub, ...rest] = positionals;
  if (values.help) return printHelp(io, ORDERS_HELP);
  switch (sub) {
    case 'create': {
      const merchantId = requirePositional(rest, 0, 'MERCHANT_ID');
      let body: SandboxOrderRequest;
      if (values.body) {
        try {
          body = JSON.parse(readFileSync(values.body, 'utf8')) as SandboxOrderRequest;
        } catch (error) {
          throw new UsageError(`--body ${values.body}: ${(error as Error).message}`);
        }
      } else {
        const items = [
          ...(values.item ?? []).map((s) => parseItem(s, 'pdvId')),
          ...(values.product ?? []).map((s) => parseItem(s, 'productId')),
        ];
        if (items.length === 0) throw new UsageError('orders create needs --item, --product or --body');
        const type = values.type ?? 'DELIVERY';
        if (type !== 'DELIVERY' && type !== 'TAKEOUT') throw new UsageError('--type must be DELIVERY or TAKEOUT');
        body = { type, items };
      }
      const order = await operatorClient(values, io.env).createOrder(merchantId, body);
      if (values.json) printJson(io, order);
      else {
        printFields(io, [
          ['order id', order.id],
          ['display id', order.displayId],
          ['type', order.type],
          ['total', money(order.total.orderAmount.value, order.total.orderAmount.currency)],
          ['delivery code', order.deliveryCode],
        ]);
        printTable(
          io,
          ['ITEM', 'NAME', 'QTY', 'UNIT', 'TOTAL'],
          order.items.map((i) => [i.id, i.name, i.quantity, i.unit, money(i.totalPrice.value)]),
        );
      }
      return EXIT.OK;
    }
    case 'show': {
      printJson(io, await operatorClient(values, io.env).getOrder(requirePositional(rest, 0, 'ORDER_ID')));
      return EXIT.OK;
    }
    case 'customer-cancel': {
      const orderId = requirePositional(rest, 0, 'ORDER_ID');
      await operatorClient(values, io.env).customerCancellation(orderId, values.reason);
      const line = `customer cancellation requested for ${orderId} (ORDER_CANCELLATION_REQUEST)`;
      printDone(io, values.json, { orderId, requested: true }, line);
      return EXIT.OK;
    }
    default:
      throw new UsageError(sub ? `unknown subcommand "orders ${sub}"` : 'orders needs a subcommand');
  }
}
