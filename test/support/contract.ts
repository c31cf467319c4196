import { createHash } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// Contract (architecture.md#contract): every response the suite sees is checked against the service's own
// /openapi.json. createTestApp installs this on every test app; test/support/contract-setup.ts
// fails the test that produced a violation.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
  components?: { schemas?: Record<string, object> };
}

const violations: string[] = [];

export function takeContractViolations(): string[] {
  return violations.splice(0);
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      out[k] =
        k === '$ref' && typeof v === 'string' ? v.replace(/^#\/components/, 'openapi#/components') : rewriteRefs(v);
    }
    return out;
  }
  return node;
}

/**
 * The validators of one document, compiled when first needed and shared by every app of this
 * worker that serves the same document: compiling all of them took about a second per test app.
 */
interface CompiledContract {
  validator(key: string, schema: object): ValidateFunction;
}
const contracts = new Map<string, CompiledContract>();

function contractFor(doc: OpenApiDoc): CompiledContract {
  const key = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
  let contract = contracts.get(key);
  if (!contract) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: rewriteRefs(doc.components ?? {}) });
    const validators = new Map<string, ValidateFunction>();
    contract = {
      validator(k, schema) {
        let validate = validators.get(k);
        if (!validate) {
          validate = ajv.compile(rewriteRefs(schema) as object);
          validators.set(k, validate);
        }
        return validate;
      },
    };
    contracts.set(key, contract);
  }
  return contract;
}

/** Call after every route is registered and before ready(). */
export function installContractCheck(app: FastifyInstance): void {
  let contract: CompiledContract | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route || request.routeOptions.schema?.hide) return payload;
    const path = route.replace(/:(\w+)/g, '{$1}').replace(/::/g, ':');
    const doc = app.swagger() as unknown as OpenApiDoc;
    const documented = doc.paths[path]?.[request.method.toLowerCase()];
    if (!documented) return payload; // undocumented on purpose (hidden routes)
    const status = String(reply.statusCode);
    const contentType = String(reply.getHeader('content-type') ?? '');
    const where = `${request.method} ${path} → ${status}`;
    if (!documented.responses?.[status]) {
      violations.push(`${where}: status not documented`);
      return payload;
    }
    // 204 and 304 carry no body on the wire (Fastify drops whatever the handler passed).
    if (status === '204' || status === '304') return payload;
    // D35: the answer's Content-Type is one the contract lists for this status, and an answer
    // documented without a body has none (no JSON `null`, no Content-Type).
    const media = documented.responses[status]?.content;
    const empty = payload === undefined || payload === null || payload === '';
    if (!media) {
      if (!empty) violations.push(`${where}: a body (${contentType || 'no Content-Type'}) where the contract has none`);
      return payload;
    }
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (empty) {
      if (request.method !== 'HEAD') violations.push(`${where}: no body where the contract has one`);
      return payload;
    }
    if (!Object.keys(media).includes(mediaType)) {
      violations.push(`${where}: Content-Type "${contentType}" is not one of ${Object.keys(media).join(', ')}`);
      return payload;
    }
    if (!contentType.includes('application/json') || typeof payload !== 'string') return payload;
    const schema = media['application/json']?.schema;
    if (!schema) {
      violations.push(`${where}: JSON body but no documented schema`);
      return payload;
    }
    contract ??= contractFor(doc);
    const validate = contract.validator(`${request.method} ${path} ${status}`, schema);
    if (!validate(JSON.parse(payload))) {
      violations.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))} body ${payload.slice(0, 300)}`);
    }
    return payload;
  });
}
