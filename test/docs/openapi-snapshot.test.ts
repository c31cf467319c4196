// The published /openapi.json keeps its shape while the routes move to one declaration each:
// its paths, operations, status codes, request bodies, parameters and response
// schemas, with every description, summary and example taken out, are compared with the
// snapshot committed beside this file. Words may change; a path, a status or a schema may not,
// unless on purpose.
//
// A branch that adds, removes or changes a route on purpose refreshes the snapshot with the
// same code and commits it with the change:
//   UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run --project pglite test/docs/openapi-snapshot.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SNAPSHOT = new URL('./openapi-shape.snapshot.json', import.meta.url);
const WORDS = new Set(['description', 'summary', 'example', 'examples', 'externalDocs']);

type Json = Record<string, unknown>;

/** A schema without its words; `properties` maps are walked by name (a field may be called `description`). */
function shapeOf(value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((v) => shapeOf(v));
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort()) {
    if (!names && WORDS.has(key)) continue;
    const inner = (value as Json)[key];
    out[key] = names ? shapeOf(inner) : shapeOf(inner, key === 'properties' || key === 'patternProperties');
  }
  return out;
}

const contentShape = (content: unknown) =>
  Object.fromEntries(
    Object.entries((content as Record<string, Json> | undefined) ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, media]) => [type, shapeOf(media.schema ?? null)]),
  );

/** paths → methods → {parameters, request body, status codes → response schemas}; component schemas. */
function openApiShape(doc: Json): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const methods: Json = {};
    for (const [method, op] of Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) {
      if (method === 'parameters') continue;
      const body = op.requestBody as Json | undefined;
      methods[method] = {
        operationId: op.operationId,
        parameters: ((op.parameters as Json[] | undefined) ?? [])
          .map((p) => ({ in: p.in, name: p.name, required: p.required ?? false, schema: shapeOf(p.schema ?? null) }))
          .sort((a, b) => `${a.in} ${a.name}`.localeCompare(`${b.in} ${b.name}`)),
        requestBody: body ? { required: body.required ?? false, content: contentShape(body.content) } : null,
        responses: Object.fromEntries(
          Object.entries((op.responses as Record<string, Json>) ?? {})
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([code, response]) => [code, contentShape(response.content)]),
        ),
      };
    }
    paths[path] = methods;
  }
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
  return { paths, componentSchemas: shapeOf(schemas, true) };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the published OpenAPI document', () => {
  it('has the paths, operations, status codes and schemas of the committed snapshot', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const shape = openApiShape(res.json() as Json);
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1') writeFileSync(SNAPSHOT, `${JSON.stringify(shape, null, 2)}\n`);
    expect(existsSync(SNAPSHOT), 'no snapshot: write it with UPDATE_OPENAPI_SNAPSHOT=1').toBe(true);
    const committed = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Json;
    expect(Object.keys(shape.paths as Json)).toEqual(Object.keys(committed.paths as Json));
    expect(shape).toEqual(committed);
  });
});
