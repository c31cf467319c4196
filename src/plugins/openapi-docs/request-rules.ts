// What the service checks in code that a route's validation schema does not say, written into
// the published request schemas (D34 and the contract of /openapi.json): a client generated
// from the document, or a contract tester, then knows every rule the service enforces, and
// every example here is one the service accepts (test/foundation/contract-examples.test.ts).
//
// The route schemas stay as they are: these rules are checked in code because their errors name
// the field in words a validator cannot produce (`items[0].productId or items[0].pdvId is
// required`, `expiresAt must be in the future`). Rules JSON Schema cannot state (a date in the
// future, one timing not above another) are said in the description instead.

import { eventIdOf } from '../../modules/events/index.js';

type Json = Record<string, unknown>;

/** D34: the operations that refuse an unknown top-level key; every other request body ignores them. */
const REFUSES_UNKNOWN_KEYS = new Set(['putV1MerchantUpdate', 'postV1MerchantUpdate']);

const FORM = 'application/x-www-form-urlencoded';

/** RFC 6749 2.3.1: client credentials in the body, or as HTTP Basic (securitySchemes.clientBasic). */
const CLIENT_ID = {
  type: 'string',
  description: 'The merchant id the integration key belongs to; required unless sent as HTTP Basic.',
};
const CLIENT_SECRET = {
  type: 'string',
  description:
    'The integration key’s secret, shown once when the key was created; required unless sent as HTTP Basic ' +
    '(never both).',
};

const OAUTH_BODIES: Record<string, { schema: Json; example: Json }> = {
  postOauthToken: {
    schema: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: { type: 'string', enum: ['client_credentials'], description: 'Always `client_credentials`.' },
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      },
    },
    example: {
      grant_type: 'client_credentials',
      client_id: '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
      client_secret: 'cs_live_9f2c0a7b4e1d',
    },
  },
  postOauthRevoke: {
    schema: {
      type: 'object',
      required: ['token'],
      properties: {
        token: { type: 'string', minLength: 1, description: 'The access token to revoke.' },
        token_type_hint: { type: 'string', description: 'Optional RFC 7009 hint: `access_token`.' },
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      },
    },
    example: {
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZiMmExYyJ9.c2lnbmF0dXJl',
      client_id: '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
      client_secret: 'cs_live_9f2c0a7b4e1d',
    },
  },
};

/** Money in the order intake: exact decimals of at most 4 places, below 10^10 (orders/order-intake.ts). */
const MONEY = { multipleOf: 0.0001, maximum: 9_999_999_999.9999 };
/** Quantities: more than 0, at most 3 decimal places (whole for UN products). */
const QUANTITY = { exclusiveMinimum: 0, multipleOf: 0.001 };

/** Orders a product of the sample catalog (cli/sample-catalog.ts), which a newcomer's sandbox has. */
const INTAKE_EXAMPLE = {
  type: 'DELIVERY',
  items: [{ pdvId: 'picanha', quantity: 1.25, specialInstructions: 'Cortar em bifes' }],
  // The code the delivery code examples give (validateCode, the logistics confirmation).
  deliveryCode: '1234',
  customer: { name: 'Ana Souza', phone: { number: '+55 11 91234-5678' } },
  delivery: {
    deliveryAddress: {
      street: 'Rua Augusta',
      number: '1000',
      district: 'Consolação',
      city: 'São Paulo',
      state: 'SP',
      postalCode: '01310-100',
      country: 'BR',
    },
  },
};

/**
 * D43: the butcher counts the sample catalog's picanha in the case (12.5 kg), and pauses the
 * fraldinha until the evening of Christmas Eve. The picanha stays orderable, as the order
 * examples need it.
 */
const AVAILABILITY_EXAMPLE = {
  items: [
    { pdvId: 'picanha', available: true, stock: { quantity: 12.5 } },
    { pdvId: 'fraldinha', available: false, reason: 'NOT_TODAY', until: '2030-12-24T18:00:00-03:00' },
  ],
};

/** D41: the layout of the labels `2 010085 02504 9` (code 010085, 2.504 kg). */
const LAYOUT_EXAMPLE = { prefix: '2', codeDigits: 6, value: 'WEIGHT', valueDigits: 5, decimals: 3 };

const ONBOARDING_EXAMPLE = {
  ordersWebhookURL: 'https://pos.example.com',
  getMerchantURL: { baseURL: 'https://pos.example.com/cleaver', apiKey: 'pos-api-key-7d1c' },
};

const PRODUCT_EXAMPLE = {
  name: 'Picanha maturada',
  price: 89.9,
  unit: 'KG',
  description: 'Picanha bovina, peça inteira',
  status: 'AVAILABLE',
};

const ACKNOWLEDGED_EVENT = {
  id: eventIdOf('CREATED'),
  orderId: '0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
  eventType: 'CREATED',
};

function mediaSchemas(op: Json): Json[] {
  const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
  return Object.values(content).map((media) => media.schema as Json);
}

function setExample(op: Json, example: unknown): void {
  const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
  for (const media of Object.values(content)) {
    delete media.examples;
    media.example = example;
  }
}

/** The schema of a money field: a number, or `{value, currency}` (MoneyIn). */
function constrainMoney(schema: Json | undefined): void {
  if (!schema) return;
  for (const option of (schema.anyOf as Json[] | undefined) ?? [schema]) {
    if (option.type === 'number') Object.assign(option, MONEY);
    const value = (option.properties as Record<string, Json> | undefined)?.value;
    if (value?.type === 'number') Object.assign(value, MONEY);
  }
}

const propsOf = (schema: Json | undefined) => (schema?.properties ?? {}) as Record<string, Json>;
const itemsOf = (schema: Json | undefined) => (schema?.items ?? undefined) as Json | undefined;

/** POST /admin/v1/merchants/{merchantId}/orders: the checks of orders/order-intake.ts. */
function intakeRules(body: Json): void {
  const props = propsOf(body);
  const item = itemsOf(props.items);
  if (item) {
    item.anyOf = [{ required: ['productId'] }, { required: ['pdvId'] }];
    item.description = 'A product of the merchant, named by productId or pdvId (both: the same product).';
    Object.assign(propsOf(item).quantity ?? {}, QUANTITY);
    const option = itemsOf(propsOf(item).options);
    if (option) {
      Object.assign(propsOf(option).quantity ?? {}, QUANTITY);
      constrainMoney(propsOf(option).unitPrice);
    }
  }
  for (const fee of [itemsOf(props.otherFees)]) constrainMoney(propsOf(fee).price);
  const discount = itemsOf(props.discounts);
  constrainMoney(propsOf(discount).amount);
  constrainMoney(propsOf(itemsOf(propsOf(discount).sponsorshipValues)).amount);
  const method = itemsOf(propsOf(props.payments).methods);
  for (const name of ['value', 'changeFor']) Object.assign(propsOf(method)[name] ?? {}, MONEY);
  const schedule = propsOf(props.schedule);
  if (schedule.scheduledDateTimeEnd) {
    schedule.scheduledDateTimeEnd.description = 'After scheduledDateTimeStart.';
  }
}

/**
 * `delivery` belongs to DELIVERY orders and `takeout` to TAKEOUT ones: one variant per type, each
 * with every field, the other type's block excluded (the variants name all their fields, as
 * example checkers that close objects expect).
 */
function intakeVariants(body: Json): Json {
  const { properties, ...rest } = body;
  const props = properties as Record<string, Json>;
  const variant = (type: string, excluded: string): Json => ({
    ...rest,
    description: `A ${type} order.`,
    properties: {
      ...props,
      type: { ...props.type, const: type },
      // A schema nothing matches: the field must be left out.
      [excluded]: { not: {}, description: `Not for a ${type} order: leave it out.` },
    },
  });
  return { anyOf: [variant('DELIVERY', 'takeout'), variant('TAKEOUT', 'delivery')] };
}

/** Operator passwords (operators/password.ts) and emails (operators/operators-service.ts). */
function operatorRules(body: Json): void {
  const props = propsOf(body);
  if (props.email) Object.assign(props.email, { format: 'email' });
  if (props.password) Object.assign(props.password, { minLength: 12, maxLength: 256 });
}

const TIMINGS_NOTE =
  'Each from 1 to 600000 ms; pollMinIntervalMs must not exceed pollMaxIntervalMs (after defaults and the ' +
  'environment are applied).';

const RULES: Record<string, (op: Json) => void> = {
  postV1OrdersByOrderIdValidateCode: (op) => {
    // The code may come in the body or as ?deliveryCode=.
    (op.requestBody as Json).required = false;
  },
  postAdminV1MerchantsByMerchantIdOrders: (op) => {
    const content = (op.requestBody as Json).content as Record<string, Json>;
    for (const media of Object.values(content)) {
      intakeRules(media.schema as Json);
      media.schema = intakeVariants(media.schema as Json);
    }
    setExample(op, INTAKE_EXAMPLE);
  },
  postAdminV1Operators: (op) => {
    for (const body of mediaSchemas(op)) operatorRules(body);
  },
  postAdminV1OperatorsByIdPassword: (op) => {
    for (const body of mediaSchemas(op)) operatorRules(body);
  },
  // A fixed expiresAt in an example soon lies in the past: the example leaves it to the default.
  postAdminV1OperatorsByIdTokens: (op) => tokenRules(op),
  postAdminV1MeTokens: (op) => tokenRules(op),
  // An options.orderId must name an order of the merchant: the example places a new one.
  postV1SandboxScenarios: (op) => setExample(op, { scenario: 'delivery-instant' }),
  postAdminV1MerchantsByMerchantIdSandboxScenarios: (op) => setExample(op, { scenario: 'delivery-instant' }),
  // D41, D42: examples the service accepts (generated ones would break the layout rules).
  putV1MerchantScaleLabelLayouts: (op) => setExample(op, [LAYOUT_EXAMPLE]),
  putAdminV1MerchantsByMerchantIdScaleLabelLayouts: (op) => setExample(op, [LAYOUT_EXAMPLE]),
  postV1OrdersByOrderIdWeighing: (op) => setExample(op, { items: [{ index: 0, quantity: 1.2 }] }),
  // D43: a product of the sample catalog by its POS code, paused until a time to come.
  postV1MerchantAvailability: (op) => setExample(op, AVAILABILITY_EXAMPLE),
  postAdminV1MerchantsByMerchantIdAvailability: (op) => setExample(op, AVAILABILITY_EXAMPLE),
  postAdminV1OrdersByOrderIdWeighingsByWeighingIdDecision: (op) => setExample(op, { decision: 'ACCEPT' }),

  // The token names its merchant; an example merchantId would be another merchant's, and refused.
  putV1MerchantOnboarding: (op) => setExample(op, ONBOARDING_EXAMPLE),
  // An eventId is the event type's (D1), not any uuid; the service refuses an id of no type.
  postV1EventsAcknowledgment: (op) => setExample(op, [ACKNOWLEDGED_EVENT]),
  // A product of the sample catalog's kind; a categoryId would be another merchant's category (it
  // is optional: the product goes uncategorized until one is set).
  postAdminV1MerchantsByMerchantIdProducts: (op) => setExample(op, PRODUCT_EXAMPLE),
  postV1Homologations: (op) => homologationRules(op),
  postAdminV1MerchantsByMerchantIdIntegrationKeysByKeyIdHomologations: (op) => homologationRules(op),
};

function tokenRules(op: Json): void {
  for (const body of mediaSchemas(op)) {
    const expiresAt = propsOf(body).expiresAt;
    if (expiresAt) {
      expiresAt.description =
        'When the token stops working: in the future, at most 366 days ahead (default: 90 days from now).';
    }
  }
  setExample(op, { name: 'CI pipeline', role: 'viewer' });
}

function homologationRules(op: Json): void {
  for (const body of mediaSchemas(op)) {
    const timings = propsOf(body).timings;
    if (timings) timings.description = `${String(timings.description ?? 'Timings (milliseconds).')} ${TIMINGS_NOTE}`;
  }
  setExample(op, { timings: { durationMs: 300_000, confirmDeadlineMs: 30_000 } });
}

/**
 * Drops `additionalProperties: false` from a request schema: validation removes unknown fields
 * and goes on, so the document must not say they are refused (D34).
 */
function allowUnknownFields(node: unknown): void {
  forEachObject(node, (schema) => {
    if (schema.additionalProperties === false) delete schema.additionalProperties;
  });
}

/** Calls `visit` on every object inside `node` (arrays walked through), the outer ones first. */
export function forEachObject(node: unknown, visit: (object: Json) => void): void {
  if (Array.isArray(node)) {
    for (const n of node) forEachObject(n, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  visit(node as Json);
  for (const value of Object.values(node)) forEachObject(value, visit);
}

/** Completes one operation's request side (openapi-docs/complete.ts calls it first). */
export function applyRequestRules(op: Json): void {
  const id = op.operationId as string;
  // A copy: the generated document may share objects with the route schemas validation uses.
  if (op.requestBody) op.requestBody = JSON.parse(JSON.stringify(op.requestBody));
  if (op.parameters) op.parameters = JSON.parse(JSON.stringify(op.parameters));
  const oauth = OAUTH_BODIES[id];
  if (oauth) {
    // D13: JSON or form-encoded, client credentials in the body or as HTTP Basic.
    const media = { schema: oauth.schema, example: oauth.example };
    op.requestBody = {
      required: true,
      content: { 'application/json': media, [FORM]: structuredClone(media) },
    };
    op.security = [{}, { clientBasic: [] }];
  }
  RULES[id]?.(op);
  const requestBody = op.requestBody as Json | undefined;
  if (!requestBody) return;
  if (REFUSES_UNKNOWN_KEYS.has(id)) {
    // Unknown top-level keys are refused; the objects inside keep theirs (spec 4.3 drops and reports).
    for (const body of mediaSchemas(op)) {
      for (const variant of (body.oneOf as Json[] | undefined) ?? [body]) {
        for (const value of Object.values(propsOf(variant))) allowUnknownFields(value);
      }
    }
    return;
  }
  allowUnknownFields(requestBody);
  for (const parameter of (op.parameters as Json[] | undefined) ?? []) allowUnknownFields(parameter);
}
