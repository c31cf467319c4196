import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { LazySchemas } from './lazy-schemas.js';

// ajv-formats ships CommonJS; its default export is the function under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, useDefaults: true, ...options });
  addFormats(ajv);
  return ajv;
}

// Bodies are JSON and typed: no coercion ("12" is not a number, null is not ""), and fields we
// do not know are kept out of handlers. Query strings and headers arrive as text and are coerced.
const bodyAjv = makeAjv({ coerceTypes: false, removeAdditional: true });
const textAjv = makeAjv({ coerceTypes: 'array', removeAdditional: true });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};

/** The same, each validator compiled on first use or at warm-up (plugins/lazy-schemas.ts). */
export function lazyValidatorCompiler(schemas: LazySchemas): FastifySchemaCompiler<unknown> {
  return (route) =>
    schemas.lazy(() => validatorCompiler(route) as unknown as (data: never) => unknown, true) as unknown as ReturnType<
      FastifySchemaCompiler<unknown>
    >;
}

/** JSON-pointer path of an Ajv error as a dotted field name: `/items/0/name` → `items[0].name`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'an ISO 8601 date-time',
  date: 'an ISO 8601 date',
  uri: 'a URL',
  url: 'a URL',
  email: 'an email address',
};

/** A title that names the offending field (D22), e.g. `getMerchantURL.apiKey is required`. */
export function validationTitle(errors: ErrorObject[], context: string | undefined): string {
  const error = errors[0];
  if (!error) return 'Invalid request';
  const base = fieldPath(error.instancePath);
  const join = (name: string) => (base ? `${base}.${name}` : name);
  const where = context && context !== 'body' ? ` (${context === 'querystring' ? 'query' : context})` : '';
  switch (error.keyword) {
    case 'required':
      return `${join(String(error.params.missingProperty))} is required${where}`;
    case 'additionalProperties':
      return `${join(String(error.params.additionalProperty))} is not allowed${where}`;
    case 'enum':
      return `${base || context || 'value'} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}${where}`;
    case 'format':
    case 'pattern': {
      const subject = base || context || 'value';
      const kind = error.keyword === 'format' ? String(error.params.format) : 'pattern';
      const uuid = kind === 'uuid' || String(error.params.pattern ?? '').startsWith('^[0-9a-fA-F]{8}-');
      if (uuid) return `${subject} must be a uuid${where}`;
      if (FORMAT_NAMES[kind]) return `${subject} must be ${FORMAT_NAMES[kind]}${where}`;
      return `${subject} ${error.message ?? 'is invalid'}${where}`;
    }
    default: {
      const subject = base || (context === 'body' ? 'body' : context || 'value');
      return `${subject} ${error.message ?? 'is invalid'}${where}`;
    }
  }
}
