// The AsyncAPI 3.0 document of the platform feed (D36), served at /asyncapi.json beside
// /openapi.json: one channel per kind and type, whose NATS subject is the relay's
// (`cleaver.<kind>.<merchantId>.<type>`), and one message per channel whose payload is the feed
// item with that kind, type and data. Built from the same TypeBox schemas the HTTP answer and the
// relay use (feed-schemas.ts), so the document cannot describe a message the code does not send.
import type { TSchema } from 'typebox';
import { FEED_DATA, FEED_KINDS, FeedItem } from './feed-schemas.js';

type Json = Record<string, unknown>;

export interface AsyncApiOptions {
  version: string;
  /** The HTTP base of the service, where GET /admin/v1/feed answers the same items. */
  publicUrl: string;
  /** CLEAVER_NATS_URL when set: the broker the relay publishes to. */
  natsUrl?: string;
  /** CLEAVER_NATS_STREAM. */
  stream: string;
}

/** A TypeBox schema as plain JSON Schema (TypeBox's own symbols dropped). */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** `CANCELLATION_REQUEST_DENIED` → `CancellationRequestDenied`, for message and operation names. */
const pascal = (text: string) =>
  text
    .toLowerCase()
    .split(/[_.-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The feed item of one kind and type: the item's schema with `kind`, `type` and `data` fixed. */
function payloadOf(kind: string, type: string, data: TSchema): Json {
  const item = plain(FeedItem);
  const properties = { ...(item.properties as Json) };
  properties.kind = { type: 'string', const: kind };
  properties.type = { type: 'string', const: type };
  properties.data = plain(data);
  return { ...item, properties };
}

function natsServer(natsUrl: string | undefined): Json {
  // D46: CLEAVER_NATS_URL may list a cluster's servers; the first one stands for them.
  const first = natsUrl?.split(',')[0]?.trim();
  const url = first ? new URL(first) : undefined;
  return {
    host: url ? `${url.hostname}:${url.port || '4222'}` : '127.0.0.1:4222',
    protocol: 'nats',
    description: url
      ? 'The NATS server the worker relay publishes to (CLEAVER_NATS_URL).'
      : 'Where a NATS server would be; this instance has no CLEAVER_NATS_URL, so its feed is HTTP only.',
  };
}

export function asyncApiDocument(options: AsyncApiOptions): Json {
  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  for (const kind of FEED_KINDS) {
    for (const [type, data] of Object.entries(FEED_DATA[kind])) {
      const name = `${pascal(kind)}${pascal(type)}`;
      const channelId = `${kind}.${type}`;
      messages[name] = {
        name,
        title: `${kind} ${type}`,
        summary: (data as { description?: string }).description ?? `${kind} ${type}`,
        contentType: 'application/json',
        headers: {
          type: 'object',
          properties: {
            'Nats-Msg-Id': {
              type: 'string',
              format: 'uuid',
              description: "The item's id: JetStream drops a second publish of the same item.",
            },
            traceparent: {
              type: 'string',
              description:
                "While the service exports traces: the W3C trace context of the relay's publish, in the trace of the change that wrote the item.",
            },
          },
        },
        payload: payloadOf(kind, type, data),
      };
      channels[channelId] = {
        address: `cleaver.${kind}.{merchantId}.${type}`,
        title: `${kind} ${type}`,
        description: `Items of kind \`${kind}\` and type \`${type}\`, in feed order per merchant.`,
        servers: [{ $ref: '#/servers/nats' }],
        parameters: { merchantId: { description: 'The merchant the item is about.' } },
        messages: { [name]: { $ref: `#/components/messages/${name}` } },
      };
      operations[`receive${name}`] = {
        action: 'receive',
        title: `Receive ${kind} ${type}`,
        channel: { $ref: `#/channels/${channelId}` },
        messages: [{ $ref: `#/channels/${channelId}/messages/${name}` }],
      };
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Cleaver platform feed',
      version: options.version,
      description:
        'Everything that happens to orders, merchants, catalogs and webhook endpoints, and the closing of ' +
        "merchants' statements (D45), in order (D36). " +
        `The same items are read over HTTP at ${options.publicUrl}/admin/v1/feed (cursor \`after\`, ` +
        `\`next\`, long poll \`wait\`, a token of the \`platform\` role) and, when the service has ` +
        `CLEAVER_NATS_URL, from the JetStream stream \`${options.stream}\` (subjects \`cleaver.>\`). ` +
        'Deduplicate on the item id; per merchant, items arrive in feed order.',
    },
    defaultContentType: 'application/json',
    servers: { nats: natsServer(options.natsUrl) },
    channels,
    operations,
    components: { messages },
  };
}
