// Completes the generated OpenAPI document for readers: operation texts (operations.ts), field
// descriptions (fields.ts), parameter descriptions, an example for every request and response
// body (sampled from the schema where the route gives none), the meaning of every error status,
// the typed catalog upload, and the outgoing webhooks (webhooks.ts). Decision numbers are taken
// out of every text: a reader of the reference cannot open them.
import { FIELD_DOCS } from './fields.js';
import { MERCHANT_UPDATE_BODY } from './merchant-update.js';
import { OPERATION_DOCS } from './operations.js';
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
const UUID_SAMPLE = '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9';

/** A value that satisfies the schema, preferring the schema's own examples. */
export function sample(schema: unknown, depth = 0): unknown {
  const s = (schema ?? {}) as Json;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.$ref === 'Error' || s.$ref === '#/components/schemas/Error') return { title: 'Order not found', status: 404 };
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key] as Json[] | undefined;
    if (options?.length) return sample(options.find((o) => o.type !== 'null') ?? options[0], depth);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return sample(s.allOf[0], depth);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (depth > 12) return null;
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const [name, prop] of Object.entries((s.properties as Json | undefined) ?? {})) {
        out[name] = sample(prop, depth + 1);
      }
      return out;
    }
    case 'array': {
      const item = sample(s.items, depth + 1);
      const min = (s.minItems as number | undefined) ?? 1;
      return s.maxItems === 0 ? [] : Array.from({ length: Math.max(1, min) }, () => item);
    }
    case 'integer':
    case 'number': {
      const min = (s.minimum as number | undefined) ?? (s.exclusiveMinimum as number | undefined);
      if (min !== undefined) return s.exclusiveMinimum !== undefined ? min + 1 : min;
      return type === 'integer' ? 1 : 1.5;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return sampleString(s);
    default:
      return {};
  }
}

function sampleString(s: Json): string {
  if (typeof s.pattern === 'string' && SAMPLE_STRINGS[s.pattern]) return SAMPLE_STRINGS[s.pattern];
  switch (s.format) {
    case 'uuid':
      return UUID_SAMPLE;
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

/** Fills every property's description, from the route schema or FIELD_DOCS; strips decision numbers. */
function describeFields(schema: unknown, parent: string): void {
  if (Array.isArray(schema)) {
    for (const s of schema) describeFields(s, parent);
    return;
  }
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Json;
  if (typeof s.description === 'string') s.description = withoutDecisionNumbers(s.description);
  const props = s.properties as Record<string, Json> | undefined;
  if (props) {
    for (const [name, prop] of Object.entries(props)) {
      if (prop && typeof prop === 'object' && !prop.description) {
        const text = FIELD_DOCS[`${parent}.${name}`] ?? FIELD_DOCS[name];
        if (text) prop.description = text;
      }
      describeFields(prop, name);
    }
  }
  for (const [key, value] of Object.entries(s)) {
    if (key !== 'properties' && value && typeof value === 'object') describeFields(value, parent);
  }
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
  const doc = OPERATION_DOCS[id];
  if (doc?.summary) op.summary = doc.summary;
  if (doc) op.description = doc.description;
  if (typeof op.summary === 'string') op.summary = withoutDecisionNumbers(op.summary);
  if (typeof op.description === 'string') op.description = withoutDecisionNumbers(op.description);
  if (id === 'putV1MerchantUpdate') {
    const body = op.requestBody as Json;
    const content = body.content as Record<string, Json>;
    content['application/json'] = MERCHANT_UPDATE_BODY;
  }
  for (const parameter of (op.parameters as Json[] | undefined) ?? []) {
    parameter.description ??= PARAMETER_DOCS[parameter.name as string];
    if (typeof parameter.description === 'string') {
      parameter.description = withoutDecisionNumbers(parameter.description);
    }
  }
  const requestBody = op.requestBody as Json | undefined;
  if (requestBody) {
    describeFields(requestBody, id);
    requestBody.description ??= 'The request body.';
    completeContent(requestBody.content as Json);
  }
  for (const [code, response] of Object.entries((op.responses as Record<string, Json>) ?? {})) {
    describeFields(response, id);
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
    const errorExample = meaning ? { title: exampleTitle(code), status: Number(code) } : undefined;
    completeContent(response.content as Json, errorExample);
  }
}

function exampleTitle(code: string): string {
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
    describeFields(schemas.Error, 'Error');
    const props = schemas.Error.properties as Record<string, Json>;
    props.title.description ??= 'What went wrong, naming the field or the rule, in one line.';
    props.status.description ??= 'The HTTP status, repeated.';
  }
  document.webhooks = openApiWebhooks();
  document[EVENT_CATALOG_EXTENSION.key] = EVENT_CATALOG_EXTENSION.value;
  return document;
}
