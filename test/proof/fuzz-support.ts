import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/db.js';
import { hmacSha256Hex } from '../../src/lib/crypto.js';
import { declaredRoutesOf } from '../../src/lib/route-declaration.js';
import { hookStatements } from '../support/statement-hook.js';

// Fuzzing (architecture.md#fuzzing): request generators driven by the service's own /openapi.json, so a new
// route is fuzzed without anyone listing it, and the checks every answer must pass.

type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/v1/orders/{orderId}`. */
  path: string;
  operationId: string;
  parameters: Array<{ in: string; name: string; required?: boolean; schema?: Schema }>;
  body: Schema | undefined;
  security: string;
  /**
   * What a rejected request may still have written, from the route's declaration
   * (src/lib/route-declaration.ts, rejectedMayWrite): tables whose existing rows it may update,
   * tables it may add rows to. Nothing, for every other route.
   */
  rejectedMayWrite: { update: string[]; append: string[] };
}

interface OpenApiDoc {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Every documented operation of the running app, with what its declaration lets a rejected request write. */
export function listOperations(app: FastifyInstance): { operations: Operation[]; components: Record<string, Schema> } {
  const doc = app.swagger() as unknown as OpenApiDoc;
  const allowances = new Map(declaredRoutesOf(app).map((r) => [`${r.method} ${r.path}`, r.rejectedMayWrite]));
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const requestBody = op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined;
      const security = (op.security as Array<Record<string, unknown>> | undefined)?.[0];
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        parameters: (op.parameters as Operation['parameters']) ?? [],
        body: requestBody?.content?.['application/json']?.schema,
        security: security ? (Object.keys(security)[0] ?? 'none') : 'none',
        rejectedMayWrite: allowances.get(`${method.toUpperCase()} ${path}`) ?? { update: [], append: [] },
      });
    }
  }
  return { operations, components: doc.components?.schemas ?? {} };
}

// ---------------------------------------------------------------------------------------------
// Values

const HUGE = 'x'.repeat(200_000);

function nest(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Values of the wrong shape: wrong types, huge strings and arrays, deep nesting, odd text. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, '', ' ', '0', 'null', '[]', '{}'),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // lone surrogates and control characters
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => HUGE.slice(0, n)),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => new Array(n).fill('a')),
  fc.integer({ min: 50, max: 3_000 }).chain((d) => fc.boolean().map((asArray) => nest(d, 1, asArray))),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.constantFrom('__proto__', 'constructor', "'; DROP TABLE orders; --", '\u0000', '%00', '../../etc/passwd'),
);

export interface FuzzContext {
  /** Real ids a path or body may refer to, by parameter name (orderId, merchantId, ...). */
  ids: Record<string, string[]>;
}

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = (s.$ref as string).split('/').pop() ?? '';
    s = components[name] ?? {};
  }
  return s;
}

const MUTATE = 0.15;

/**
 * Values that mostly follow the schema, each node replaced by a bad value now and then, objects
 * losing required fields and gaining unknown ones: the requests get past the first check and
 * into the deeper ones.
 */
export function fromSchema(
  schema: Schema | undefined,
  components: Record<string, Schema>,
  ctx: FuzzContext,
  depth = 0,
  key = '',
): fc.Arbitrary<unknown> {
  const valid = validish(schema ? resolve(schema, components) : {}, components, ctx, depth, key);
  return fc.oneof(
    { weight: Math.round((1 - MUTATE) * 100), arbitrary: valid },
    { weight: Math.round(MUTATE * 100), arbitrary: badValue },
  );
}

function validish(
  schema: Schema,
  components: Record<string, Schema>,
  ctx: FuzzContext,
  depth: number,
  key: string,
): fc.Arbitrary<unknown> {
  if (depth > 6) return badValue;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fromSchema(s, components, ctx, depth + 1, key)));
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return fromSchema(schema.allOf[0] as Schema, components, ctx, depth + 1, key);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectOf(schema, components, ctx, depth);
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      const min = Number(schema.minItems ?? 0);
      const max = Math.max(min, Math.min(Number(schema.maxItems ?? 4), min + 4));
      return fc.array(fromSchema(items, components, ctx, depth + 1, key), { minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? -1000), max: Number(schema.maximum ?? 100_000) });
    case 'number':
      return fc.oneof(
        fc.double({ min: Number(schema.minimum ?? -1e6), max: Number(schema.maximum ?? 1e6), noNaN: true }),
        fc.integer({ min: 0, max: 100 }),
      );
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringOf(schema, ctx, key);
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: Schema, components: Record<string, Schema>, ctx: FuzzContext, depth: number) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  const fields = names.map((name) =>
    fc.tuple(
      fc.constant(name),
      fromSchema(properties[name], components, ctx, depth + 1, name),
      // Required fields are usually there, optional ones half the time.
      fc.integer({ min: 0, max: 99 }).map((n) => n < (required.has(name) ? 93 : 50)),
    ),
  );
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), badValue, { maxKeys: 2 });
  return fc
    .tuple(fc.tuple(...fields), fc.oneof({ weight: 9, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra }))
    .map(([entries, more]) => {
      const out: Record<string, unknown> = {};
      for (const [name, value, present] of entries) if (present) out[name] = value;
      return { ...more, ...out };
    });
}

function stringOf(schema: Schema, ctx: FuzzContext, key: string): fc.Arbitrary<string> {
  const known = ctx.ids[key];
  const format = schema.format as string | undefined;
  const min = Number(schema.minLength ?? 0);
  const max = Math.max(min, Number(schema.maxLength ?? 30));
  if (known?.length) return fc.oneof(fc.constantFrom(...known), fc.uuid());
  if (format === 'uuid') return fc.uuid();
  if (format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (format === 'date') return fc.constantFrom('2026-01-01', '2026-02-30', '1999-12-31');
  if (format === 'uri' || format === 'url')
    return fc.constantFrom('http://127.0.0.1:9/hook', 'https://pos.example/x', 'ftp://x');
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
    } catch {
      // fall through: a pattern fast-check cannot read
    }
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 40) });
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface FuzzRequest {
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Sent to the app with the small body limit. */
  small?: boolean;
}

const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/jsonx',
  'image/png',
  '',
  ';;;',
];

const pathParam: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '%',
    '%zz',
    '%00',
    '%2F',
    'null',
    '-1',
    '0',
    '1e9',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
  fc.integer({ min: 150, max: 400 }).map((n) => 'a'.repeat(n)),
);

function encodeLoosely(value: string): string {
  // Mostly encoded, sometimes raw: the router must cope with both.
  return /^[\w.~%-]*$/.test(value) ? value : encodeURIComponent(value);
}

/** Invalid UTF-8 inside otherwise well-formed JSON, and plain random bytes. */
const invalidUtf8: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 10 }), fc.uint8Array({ minLength: 1, maxLength: 12 }))
    .map(([k, bytes]) =>
      Buffer.concat([
        Buffer.from(`{"${k.replace(/["\\]/g, '')}":"`),
        Buffer.from([0xff, 0xc3, ...bytes, 0x80]),
        Buffer.from('"}'),
      ]),
    ),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b)),
  fc.constantFrom(
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from('{"a":"\\ud800"}'),
  ),
);

export function requestsFor(
  op: Operation,
  components: Record<string, Schema>,
  ctx: FuzzContext,
  auth: (op: Operation, body: string | Buffer | undefined) => Record<string, string>,
): fc.Arbitrary<FuzzRequest> {
  const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header' && !p.name.startsWith('x-app-'));

  const pathValues = fc.tuple(
    ...pathNames.map((name) =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom(
            ...(ctx.ids[name]?.length ? ctx.ids[name] : ['00000000-0000-4000-8000-000000000000']),
          ),
        },
        { weight: 1, arbitrary: pathParam },
      ),
    ),
  );
  const query = fc.tuple(
    fc.tuple(
      ...queryParams.map((p) =>
        fc.tuple(
          fc.constant(p.name),
          fc.oneof(
            (p.schema ? validish(resolve(p.schema, components), components, ctx, 0, p.name) : fc.string()).map((v) =>
              typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
            ),
            fc.string({ maxLength: 30 }),
            fc.constant(''),
          ),
          fc.integer({ min: 0, max: 9 }).map((n) => n < (p.required ? 9 : 5)),
        ),
      ),
    ),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 10 }), { maxKeys: 2 }),
  );
  const headers = fc.tuple(
    ...headerParams.map((p) =>
      fc.tuple(
        fc.constant(p.name),
        fc.oneof(
          fc.constantFrom(...(ctx.ids.merchantId ?? ['x'])),
          fc
            .array(fc.constantFrom(...(ctx.ids.merchantId ?? ['x']), 'x', ''), { maxLength: 5 })
            .map((a) => a.join(',')),
          fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
        ),
        fc.boolean(),
      ),
    ),
  );

  const bodyArb: fc.Arbitrary<{ kind: string; payload?: string | Buffer; contentType?: string; small?: boolean }> =
    fc.oneof(
      {
        weight: 10,
        arbitrary: fromSchema(op.body ?? { type: 'object', properties: {} }, components, ctx).map((v) => ({
          kind: 'schema',
          payload: JSON.stringify(v) ?? 'null',
          contentType: 'application/json',
        })),
      },
      {
        weight: 2,
        arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => ({
          kind: 'json',
          payload: JSON.stringify(v) ?? 'null',
          contentType: 'application/json',
        })),
      },
      {
        weight: 2,
        arbitrary: invalidUtf8.map((b) => ({ kind: 'utf8', payload: b, contentType: 'application/json' })),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...CONTENT_TYPES), fc.oneof(fc.string({ maxLength: 80 }), fc.constant('{"a":1}')))
          .map(([contentType, text]) => ({ kind: 'content-type', payload: text, contentType })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('{}', 'not json', '{"a":', '[', '""', '\u0000'), fc.boolean())
          .map(([text, withType]) => ({
            kind: 'malformed',
            payload: text,
            contentType: withType ? 'application/json' : undefined,
          })),
      },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 5_000, max: 300_000 }).map((n) => ({
          kind: 'oversized',
          payload: JSON.stringify({ pad: 'y'.repeat(n) }),
          contentType: 'application/json',
          small: true,
        })),
      },
      { weight: op.body ? 1 : 6, arbitrary: fc.constant({ kind: 'no-body' }) },
    );

  return fc.tuple(pathValues, query, headers, bodyArb).map(([pv, [q, extraQ], hs, b]) => {
    let url = op.path;
    pathNames.forEach((name, i) => {
      url = url.replace(`{${name}}`, encodeLoosely(pv[i] as string));
    });
    const search = new URLSearchParams();
    for (const [name, value, present] of q) if (present) search.append(name, value);
    for (const [name, value] of Object.entries(extraQ)) search.append(name, value);
    const qs = search.toString();
    if (qs) url += `?${qs}`;
    const h: Record<string, string> = { ...auth(op, b.payload) };
    for (const [name, value, present] of hs) if (present) h[name] = value;
    if (b.contentType !== undefined) h['content-type'] = b.contentType;
    return { kind: b.kind, method: op.method, url, headers: h, payload: b.payload, small: b.small };
  });
}

// ---------------------------------------------------------------------------------------------
// Checks

/**
 * Every table's rows, hashed in one query: equal fingerprints mean nothing was written. The audit
 * log and the POS's request log are left out: both record refused requests too, by design
 * (docs/security.md; the request log is what a POS reads to learn why it was refused).
 */
export async function fingerprintQuery(db: Db): Promise<string> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('schema_migrations', 'audit_log', 'request_log_batches')
      ORDER BY table_name`,
  );
  // An order-free sum of row hashes: no sort, cheap enough to run after every rejected write.
  const parts = rows.map(
    (r) =>
      `SELECT '${r.table_name}' AS n, count(*) AS c, coalesce(sum(hashtext(t::text)::bigint), 0) AS h FROM "${r.table_name}" t`,
  );
  return `SELECT string_agg(n || ':' || c || ':' || h, ',' ORDER BY n) AS f FROM (${parts.join(' UNION ALL ')}) x`;
}

/**
 * A statement that may change a table. Generous on purpose (a SELECT … FOR UPDATE counts, every
 * script counts): a false alarm costs one fingerprint, a miss would hide a half-write.
 */
const WRITING = /\b(insert|update|delete|truncate|merge|create|drop|alter|copy|nextval|setval)\b/i;

export interface WriteWatch {
  /** Forget what was seen so far (before the next request). */
  reset(): void;
  /** Whether a writing statement was sent since the last reset. */
  wrote(): boolean;
  stop(): void;
}

/** Watches the statements sent through `db` for writes (test/support/statement-hook.ts). */
export function watchWrites(db: Db): WriteWatch {
  let wrote = false;
  const stop = hookStatements(db, (sql) => {
    if (WRITING.test(sql)) wrote = true;
  });
  return {
    reset: () => {
      wrote = false;
    },
    wrote: () => wrote,
    stop,
  };
}

export async function fingerprint(db: Db, sql: string): Promise<string> {
  const { rows } = await db.query<{ f: string }>(sql);
  return rows[0]?.f ?? '';
}

/**
 * The tables a rejected request of `op` may still have updated, because the spec makes that
 * operation non-atomic (POST /v1/events/acknowledgment: spec 4.13 rule 2, D4). Even there only
 * existing rows change: the row count must stay the same.
 */
export function partialWritesAllowed(op: Operation): string[] {
  return op.rejectedMayWrite.update;
}

/** The tables a rejected request of `op` may have added rows to (D36: a refusal the feed reports). */
export function recordedRefusals(op: Operation): string[] {
  return op.rejectedMayWrite.append;
}

function fingerprintByTable(f: string): Map<string, { count: string; hash: string }> {
  const tables = new Map<string, { count: string; hash: string }>();
  for (const part of f.split(',').filter(Boolean)) {
    const [name = '', count = '', hash = ''] = part.split(':');
    tables.set(name, { count, hash });
  }
  return tables;
}

/** How a rejected request's write breaks the rule "nothing written", or [] when it does not. */
export function rejectedWriteProblems(op: Operation, before: string, after: string): string[] {
  if (before === after) return [];
  const allowed = new Set(partialWritesAllowed(op));
  const appended = new Set(recordedRefusals(op));
  const was = fingerprintByTable(before);
  const now = fingerprintByTable(after);
  const problems: string[] = [];
  for (const name of new Set([...was.keys(), ...now.keys()])) {
    const a = was.get(name);
    const b = now.get(name);
    if (a?.count === b?.count && a?.hash === b?.hash) continue;
    if (allowed.has(name) && a?.count === b?.count) continue;
    if (appended.has(name) && Number(b?.count ?? 0) > Number(a?.count ?? 0)) continue;
    problems.push(`${name}: ${a?.count ?? 0} rows → ${b?.count ?? 0} rows${a?.count === b?.count ? ' (updated)' : ''}`);
  }
  return problems;
}

/** The answer's problems, or [] when it is a proper one. */
export function problemsWith(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`status ${res.statusCode}`);
  if (res.statusCode >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      problems.push('error body is not JSON');
    }
    const b = body as { title?: unknown; status?: unknown } | undefined;
    if (!b || typeof b.title !== 'string' || b.title === '') problems.push('error body has no title');
    if (!b || !Number.isInteger(b.status) || b.status !== res.statusCode) problems.push('error body status differs');
    if (!String(res.headers['content-type'] ?? '').includes('json')) problems.push('error is not application/json');
  }
  return problems;
}

/** X-App-* headers of a logistics partner, signed over the exact bytes sent. */
export function logisticsHeaders(
  partner: { appId: string; clientSecret: string },
  merchantId: string,
  body: string | Buffer | undefined,
): Record<string, string> {
  return {
    'x-app-id': partner.appId,
    'x-app-merchantid': merchantId,
    'x-app-signature': hmacSha256Hex(partner.clientSecret, body ?? ''),
  };
}
