// Completes the generated OpenAPI document for readers (each operation's summary and description
// come from its route declaration, src/lib/route-declaration.ts; each field's description from its
// TypeBox schema): parameter descriptions, an example for every request and response body
// (sampled from the schema where the route gives none), the meaning of every error status, the
// typed catalog upload, and the outgoing webhooks (webhooks.ts). Decision numbers are taken out
// of every text: a reader of the reference cannot open them.
import { MERCHANT_UPDATE_BODY } from './merchant-update.js';
import { applyRequestRules, forEachObject } from './request-rules.js';
import { EVENT_CATALOG_EXTENSION, openApiWebhooks } from './webhooks.js';

type Json = Record<string, unknown>;

/** "(D7)", "(spec 4.3, D16)", "D27: …", "D10–D12" → the text without them. */
export function withoutDecisionNumbers(text: string): string {
  const D = String.raw`D\d+(?:\.\d+)?(?:\s*[–-]\s*D?\d+)?`;
  return text
    .replace(new RegExp(String.raw`\s*\((?:${D}(?:,\s*)?)+\)`, 'g'), '')
    .replace(new RegExp(String.raw`,\s*${D}\b`, 'g'), '')
    .replace(new RegExp(String.raw`\b${D},\s*`, 'g'), '')
    .replace(new RegExp(String.raw`\b${D}:\s*`, 'g'), '')
    .replace(new RegExp(String.raw`\s*\b${D}\b`, 'g'), '')
    .replace(/\(\s*\)/g, '')
    .replace(/\s+([,.;)])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

const PARAMETER_DOCS: Record<string, string> = {
  orderId: 'The order’s id.',
  merchantId: 'The merchant’s id.',
  keyId: 'The integration key’s id.',
  appId: 'The logistics partner app’s id.',
  deliveryId: 'The webhook delivery’s id.',
  weighingId:
    'The id of the weighing waiting for a decision, as the weighing’s answer and the order’s `weighing` give it.',
  id: 'The operator’s id.',
  tokenId: 'The personal token’s id.',
  limit: 'How many records at most in one page.',
  cursor: 'Where the next page starts: taken from the `Link: rel="next"` header of the previous page.',
  eventType: 'Only events of these types (repeat the parameter for several).',
  status: 'Only records with this status.',
  since: 'Only records at or after this time (ISO 8601).',
  until: 'Only records before this time (ISO 8601).',
  hours: 'How many past hours to count (default 6).',
  kind: 'Only notices of this kind.',
  actor: 'Only entries by this actor: an email, an operator id or a token id.',
  action: 'Only entries of this action (e.g. merchant.create).',
  deliveryCode: 'The delivery code to check.',
  'x-polling-merchants':
    'Open Delivery: the merchant ids to poll for, comma-separated; only the token’s own merchant is allowed.',
};

const SUCCESS_WORD: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'Done, no body',
};

const ERROR_MEANING: Record<string, string> = {
  '400':
    'The request is invalid: the title names the field and what is wrong, or the action is refused in the order’s state.',
  '401': 'Missing, expired, revoked or invalid credentials (bearer token, operator token, or signature).',
  '403': 'The credential is valid but not allowed here (a role below the route’s rule, or a blocked merchant).',
  '404': 'Not found: the record does not exist or is not the caller’s (another merchant’s order is never shown).',
  '409': 'Conflicts with the current state: the title says which, and what to do.',
  '413': 'The body is larger than this route accepts.',
  '415': 'The body is not of a content type this route reads (application/json).',
  '422': 'Open Delivery profile: an action the order’s state does not allow (application/problem+json).',
  '429': 'Rate limited: wait the seconds of the Retry-After header before trying again.',
  '500': 'An unexpected error on our side, logged with the request id; the body never carries details.',
  '503': 'Temporarily unavailable (database down, shutting down): try again after Retry-After.',
};

const SAMPLE_STRINGS: Record<string, string> = {
  '^[A-Z]{3}$': 'BRL',
  '^[A-Z]{2}$': 'SP',
  '^[0-9]{4,8}$': '1234',
  '^[0-9]{1,18}$': '7891234567895',
  '^[A-Za-z][A-Za-z0-9.]*$': 'merchant.create',
  '^[0-9]+(\\.[0-9]+)?$': '1.5',
  '^[0-9./-]{11,18}$': '123.456.789-09',
  '^\\+?[0-9][0-9 ()-]{6,24}$': '+55 11 91234-5678',
  '^[0-9]{5}-?[0-9]{3}$': '01310-100',
};
/** Realistic values for common field names (only where the schema sets no pattern or format). */
const STRING_BY_NAME: Record<string, string> = {
  name: 'Açougue Boi Bravo',
  'items.name': 'Picanha',
  'products.name': 'Picanha',
  'options.name': 'Bife fino',
  'categories.name': 'Bovinos',
  'category.name': 'Bovinos',
  'customer.name': 'Ana Souza',
  'deliveryPerson.name': 'Carlos Lima',
  'integrationKeys.name': 'Caixa 1',
  'items.id': '1',
  'options.id': '1',
  'cuts.name': 'Bife',
  currency: 'BRL',
  'event.type': 'DELIVERY_ARRIVED',
  clientId: '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
  client_id: '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
  client_secret: 'cs_live_9f2c0a7b4e1d',
  clientSecret: 'cs_live_9f2c0a7b4e1d',
  grant_type: 'client_credentials',
  token_type_hint: 'access_token',
  access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZiMmExYyJ9.c2lnbmF0dXJl',
  token: 'cop_3q2e7x9w1v5t8y4u',
  code: 'UNAVAILABLE_ITEM',
  mode: 'MANUAL',
  pickupArea: 'Balcão 3',
  extension: '21',
  methodInfo: 'Visa final 4242',
  number: '1000',
  'phone.number': '+55 11 91234-5678',
  phone: '+55 11 91234-5678',
  state: 'SP',
  postalCode: '01310-100',
  targetId: '1',
  baseURL: 'https://pos.example.com/cleaver',
  apiKey: 'pos-api-key-7d1c',
  ordersWebhookURL: 'https://pos.example.com',
  orderURL: 'https://cleaver.example/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
  target: 'https://pos.example.com/v1/orderUpdate',
  eventType: 'CREATED',
  lastEvent: 'CREATED',
  raisedEvent: 'DISPATCHED',
  statusBefore: 'CONFIRMED',
  statusAfter: 'DISPATCHED',
  scenario: 'cash-with-change',
  kind: 'webhook.failing',
  password: 'correct horse battery staple',
  role: 'support',
  container: 'BAG',
  containerSize: 'MEDIUM',
  instruction: 'Retirar no balcão',
  pdvId: 'picanha',
  orderDisplayId: '4821',
  orderingAppMerchantId: '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
  disabledReason: 'failing for more than 72 h',
  from: 'AVAILABLE',
  to: 'UNAVAILABLE',
  'vehicle.type': 'MOTORBIKE',
  'deliveryPerson.id': 'courier-17',
  'cuts.id': 'bife',
  'spice.id': 'alho',
  virtualBrand: 'Boi Bravo Grill',
  salesChannel: 'MARKETPLACE',
  documentNumber: '123.456.789-09',
  country: 'BR',
  title: 'Order not found',
  reason: 'Acabou a picanha',
  description: 'Picanha bovina, peça inteira',
  message: 'O entregador chegou',
  moreInfo:
    'Categories: 0 created, 0 updated, 3 unchanged, 0 removed. Products: 0 created, 1 updated, 7 unchanged, 0 removed. Discarded: none.',
  externalCode: '2001',
  orderExternalCode: 'PDV-7',
  pdv_external_id: 'picanha',
  pdvExternalId: 'loja-centro',
  displayId: '4821',
  deliveryCode: '1234',
  email: 'ana@acougue.example',
  street: 'Rua Augusta',
  city: 'São Paulo',
  district: 'Consolação',
  complement: 'Apto 12',
  reference: 'Em frente à padaria',
  formattedAddress: 'Rua Augusta, 1000, Consolação, São Paulo - SP',
  customerName: 'Ana Souza',
  specialInstructions: 'Cortar em bifes',
  extraInfo: 'Sem cebola',
  licencePlate: 'ABC1D23',
  action: 'merchant.create',
  actor: 'ana@acougue.example',
  ip: '203.0.113.7',
  userAgent: 'cleaver-cli',
  url: 'https://pos.example.com/v1/orderUpdate',
  lastError: 'HTTP 503',
  error: 'HTTP 503',
  responseSnippet: '{"ok":true}',
  sku: 'PIC-KG',
  ean: '7891234567895',
  note: 'order marked DISPATCHED',
};
const NUMBER_BY_NAME: Record<string, number> = {
  price: 89.9,
  value: 89.9,
  unitPrice: 89.9,
  totalPrice: 112.38,
  quantity: 1.25,
  stock: 12,
  preparationTime: 20,
  expires_in: 3600,
  TTL: 300,
  attemptNo: 1,
  attemptCount: 1,
  statusCode: 200,
  durationMs: 42,
  latitude: -23.5558,
  longitude: -46.6621,
  index: 0,
};
const UUID_SAMPLE = '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9';
/**
 * Ids of different things differ in examples, so a reader never takes one for another (an event
 * record's eventId, orderId and sourceAppId were one uuid); the orderId is the one orderURL names.
 */
const UUID_BY_NAME: Record<string, string> = {
  eventId: '7d2e9c4b-1a3f-4b6e-8c5d-9e0f1a2b3c4d',
  orderId: '0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
  sourceAppId: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  merchantId: 'a4e5f6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b',
  keyId: 'c7d8e9f0-a1b2-4c3d-8e4f-5a6b7c8d9e0f',
  deliveryId: 'e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b',
};

/** A value that satisfies the schema, preferring the schema's own examples. */
export function sample(schema: unknown, depth = 0, name = '', parent = ''): unknown {
  const s = (schema ?? {}) as Json;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.$ref === 'Error' || s.$ref === '#/components/schemas/Error') return { title: 'Order not found', status: 404 };
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key] as Json[] | undefined;
    if (options?.length) return sample(options.find((o) => o.type !== 'null') ?? options[0], depth, name, parent);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return sample(s.allOf[0], depth, name, parent);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (depth > 12) return null;
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const [key, prop] of Object.entries((s.properties as Json | undefined) ?? {})) {
        out[key] = sample(prop, depth + 1, key, name);
      }
      return out;
    }
    case 'array': {
      const item = sample(s.items, depth + 1, name, parent);
      const min = (s.minItems as number | undefined) ?? 1;
      return s.maxItems === 0 ? [] : Array.from({ length: Math.max(1, min) }, () => item);
    }
    case 'integer':
    case 'number': {
      const min = (s.minimum as number | undefined) ?? (s.exclusiveMinimum as number | undefined);
      const named = NUMBER_BY_NAME[name];
      const max = s.maximum as number | undefined;
      if (named !== undefined && (min === undefined || named > min) && (max === undefined || named <= max)) {
        return type === 'integer' ? Math.round(named) : named;
      }
      if (min !== undefined) return s.exclusiveMinimum !== undefined ? min + 1 : min;
      return type === 'integer' ? 1 : 1.5;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return sampleString(s, name, parent);
    default:
      return {};
  }
}

function sampleString(s: Json, name: string, parent: string): string {
  const byPattern = typeof s.pattern === 'string' ? SAMPLE_STRINGS[s.pattern] : undefined;
  if (byPattern) return byPattern;
  const named = STRING_BY_NAME[`${parent}.${name}`] ?? STRING_BY_NAME[name];
  if (named !== undefined && !s.pattern && !s.format && named.length <= ((s.maxLength as number | undefined) ?? 1e9)) {
    return named;
  }
  switch (s.format) {
    case 'uuid':
      return UUID_BY_NAME[name] ?? UUID_SAMPLE;
    case 'date-time':
      return '2026-11-24T12:00:00.000Z';
    case 'date':
      return '2026-11-24';
    case 'uri':
      return 'https://pos.example.com/cleaver';
    case 'email':
      return 'ana@example.com';
  }
  const min = (s.minLength as number | undefined) ?? 0;
  const text = 'texto';
  return text.length >= min ? text.slice(0, (s.maxLength as number | undefined) ?? text.length) : text.padEnd(min, 'x');
}

/** Takes the decision numbers out of every description in a schema (the fields' own, from TypeBox). */
function withoutDecisionNumbersIn(schema: unknown): void {
  forEachObject(schema, (s) => {
    if (typeof s.description === 'string') s.description = withoutDecisionNumbers(s.description);
  });
}

function completeContent(content: Json | undefined, fallbackExample?: unknown): void {
  for (const media of Object.values(content ?? {}) as Json[]) {
    if (media.example === undefined && media.examples === undefined) {
      media.example = fallbackExample ?? sample(media.schema);
    }
  }
}

function completeOperation(op: Json): void {
  const id = op.operationId as string;
  if (typeof op.summary === 'string') op.summary = withoutDecisionNumbers(op.summary);
  if (typeof op.description === 'string') op.description = withoutDecisionNumbers(op.description);
  if (id === 'putV1MerchantUpdate') {
    const body = op.requestBody as Json;
    const content = body.content as Record<string, Json>;
    content['application/json'] = MERCHANT_UPDATE_BODY;
  }
  applyRequestRules(op);
  for (const parameter of (op.parameters as Json[] | undefined) ?? []) {
    parameter.description ??= PARAMETER_DOCS[parameter.name as string];
    if (typeof parameter.description === 'string') {
      parameter.description = withoutDecisionNumbers(parameter.description);
    }
  }
  const requestBody = op.requestBody as Json | undefined;
  if (requestBody) {
    withoutDecisionNumbersIn(requestBody);
    requestBody.description ??= 'The request body.';
    completeContent(requestBody.content as Json);
  }
  for (const [code, response] of Object.entries((op.responses as Record<string, Json>) ?? {})) {
    withoutDecisionNumbersIn(response);
    const meaning = ERROR_MEANING[code];
    if (SUCCESS_WORD[code] && (!response.description || response.description === 'Default Response')) {
      response.description = `${SUCCESS_WORD[code]}: ${String(op.summary ?? '').replace(/\.$/, '')}.`;
    }
    if (
      meaning &&
      (!response.description || /^Error \{title, status\}$|^Default Response$/.test(String(response.description)))
    ) {
      response.description = meaning;
    }
    const title = code === '400' ? badRequestTitle(op) : exampleTitle(code);
    const errorExample = meaning
      ? {
          title,
          status: Number(code),
          ...(code === '400' && OAUTH_OPERATIONS.has(id) ? { error: 'invalid_request' } : {}),
        }
      : undefined;
    completeContent(response.content as Json, errorExample);
  }
}

/**
 * A 400 this operation can give, in the words the service uses (plugins/validation.ts): a
 * required field of its body left out, else a path parameter that is not a uuid, else a query
 * parameter out of its range, else the one every route can give (a malformed URL).
 */
/** The token routes answer errors with RFC 6749's `error` beside the title (auth-routes.ts). */
const OAUTH_OPERATIONS = new Set(['postOauthToken', 'postOauthRevoke']);

function badRequestTitle(op: Json): string {
  // Revoking reads the client's credentials before the rest of the body.
  if (op.operationId === 'postOauthRevoke') return 'client_id is required';
  const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
  const schema = content['application/json']?.schema as Json | undefined;
  const required = schema?.type === 'object' ? (schema.required as string[] | undefined) : undefined;
  if (required && required.length > 0) return `${required[0]} is required`;
  const parameters = (op.parameters as Json[] | undefined) ?? [];
  const uuidParam = parameters.find((p) => p.in === 'path' && (p.schema as Json | undefined)?.format === 'uuid');
  if (uuidParam) return `${uuidParam.name} must be a uuid (params)`;
  const listed = parameters.find((p) => {
    const ps = p.schema as Json | undefined;
    return p.in === 'query' && Array.isArray((ps?.items as Json | undefined)?.enum ?? ps?.enum);
  });
  if (listed) {
    const ps = listed.schema as Json;
    const values = ((ps.items as Json | undefined)?.enum ?? ps.enum) as unknown[];
    return `${listed.name} must be one of ${values.join(', ')} (query)`;
  }
  const items = schema?.type === 'array' ? (schema.items as Json | undefined) : undefined;
  const itemRequired = items?.required as string[] | undefined;
  if (itemRequired && itemRequired.length > 0) return `[0].${itemRequired[0]} is required`;
  const bounded = parameters.find(
    (p) => p.in === 'query' && typeof (p.schema as Json | undefined)?.maximum === 'number',
  );
  if (bounded) return `${bounded.name} must be <= ${(bounded.schema as Json).maximum} (query)`;
  if (schema?.type === 'object') return 'Body is not valid JSON';
  return 'Malformed URL';
}

/** The example error title of a status, or undefined for one without an example. */
function exampleTitle(code: string): string | undefined {
  return (
    {
      '400': 'body/items/0/quantity must be > 0',
      '401': 'Invalid access token',
      '403': 'Forbidden: this route needs the admin role',
      '404': 'Order not found',
      '409': 'The merchant has no ordersWebhookURL registered',
      '413': 'Request body is too large',
      '415': 'Unsupported Media Type: text/plain',
      '422': 'Order cannot be confirmed in status CANCELLED',
      '429': 'Too Many Requests',
      '500': 'Internal Server Error',
      '503': 'Service temporarily unavailable',
    } as Record<string, string>
  )[code];
}

/** The @fastify/swagger `transformObject` hook: the document as readers get it. */
export function completeOpenApi(document: Json): Json {
  for (const methods of Object.values((document.paths as Record<string, Record<string, Json>>) ?? {})) {
    for (const op of Object.values(methods)) completeOperation(op);
  }
  const components = document.components as Json | undefined;
  const schemas = (components?.schemas as Record<string, Json> | undefined) ?? {};
  if (schemas.Error) {
    schemas.Error.description = 'Every error answer: a short title naming the field or the rule, and the HTTP status.';
    withoutDecisionNumbersIn(schemas.Error);
    const { title, status } = schemas.Error.properties as Record<string, Json>;
    if (title) title.description ??= 'What went wrong, naming the field or the rule, in one line.';
    if (status) status.description ??= 'The HTTP status, repeated.';
  }
  document.webhooks = openApiWebhooks();
  document[EVENT_CATALOG_EXTENSION.key] = EVENT_CATALOG_EXTENSION.value;
  return document;
}
