// The API reference people learn from (/openapi.json, /docs): every operation and field is
// described in plain words with no decision numbers a reader cannot open, every request and
// response body has an example, every error status says what it means, the catalog upload is
// typed per entityType, the outgoing webhooks are documented with their headers and signature,
// and the event catalog covers every event type.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_EVENT_TYPES } from '../../src/modules/events/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
const DECISION = /\bD\d+\b/;

let t: TestApp;
let doc: Json & { paths: Record<string, Record<string, Json>>; webhooks: Record<string, Record<string, Json>> };
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

/** Every property of every schema under `node`, with where it is. */
function properties(node: unknown, at: string): Array<{ at: string; schema: Json }> {
  if (Array.isArray(node)) return node.flatMap((n, i) => properties(n, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const out: Array<{ at: string; schema: Json }> = [];
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, schema] of Object.entries(value as Json)) {
        out.push({ at: `${at}/${name}`, schema: schema as Json });
        out.push(...properties(schema, `${at}/${name}`));
      }
    } else if (key !== 'example' && key !== 'examples') out.push(...properties(value, `${at}/${key}`));
  }
  return out;
}

/** Every summary and description in the document (examples excluded). */
function texts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(texts);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Json).flatMap(([key, value]) => {
    if (key === 'example' || key === 'examples') return [];
    if ((key === 'description' || key === 'summary') && typeof value === 'string') return [value];
    return texts(value);
  });
}

describe('/openapi.json as a reference', () => {
  it('every operation has a summary and a description', () => {
    const missing = operations()
      .filter(({ op }) => !(String(op.summary ?? '').length > 10 && String(op.description ?? '').length > 30))
      .map((o) => o.name);
    expect(missing).toEqual([]);
  });

  it('no text cites a decision number a reader cannot open', () => {
    expect(texts(doc).filter((text) => DECISION.test(text))).toEqual([]);
  });

  it('every field and every parameter has a description', () => {
    const fields = properties({ paths: doc.paths, webhooks: doc.webhooks, components: doc.components }, '');
    expect(fields.filter((f) => !f.schema.description).map((f) => f.at)).toEqual([]);
    const parameters = operations().flatMap(({ name, op }) =>
      ((op.parameters as Json[] | undefined) ?? []).filter((p) => !p.description).map((p) => `${name} ${p.name}`),
    );
    expect(parameters).toEqual([]);
  });

  it('every request and response body has an example, and every response a description', () => {
    const missing: string[] = [];
    for (const { name, op } of operations()) {
      const bodies: Array<[string, Json | undefined]> = [
        ['request', (op.requestBody as Json | undefined)?.content as Json | undefined],
        ...Object.entries(op.responses as Record<string, Json>).map(
          ([code, r]) => [code, r.content as Json | undefined] as [string, Json | undefined],
        ),
      ];
      for (const [what, content] of bodies) {
        for (const [type, media] of Object.entries(content ?? {}) as Array<[string, Json]>) {
          if (media.example === undefined && media.examples === undefined) missing.push(`${name} ${what} ${type}`);
        }
      }
      for (const [code, r] of Object.entries(op.responses as Record<string, Json>)) {
        if (!r.description || r.description === 'Default Response') missing.push(`${name} ${code} description`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every operation lists the errors any route can give, each saying what it means', () => {
    for (const { name, op } of operations()) {
      const responses = op.responses as Record<string, Json>;
      for (const code of ['400', '429', '500', '503']) expect(responses[code], `${name} ${code}`).toBeDefined();
      expect(responses['400'].description, name).toMatch(/invalid/i);
    }
  });

  it('the catalog upload body is typed per entityType, each with an example', () => {
    const media = ((doc.paths['/v1/merchantUpdate'].put.requestBody as Json).content as Json)[
      'application/json'
    ] as Json;
    const variants = (media.schema as { oneOf: Array<{ properties: { entityType: { const: string } } }> }).oneOf;
    expect(variants.map((v) => v.properties.entityType.const)).toEqual(['MERCHANT', 'ITEM', 'ITEM_OFFER']);
    expect(Object.keys(media.examples as Json)).toEqual(['MERCHANT', 'ITEM', 'ITEM_OFFER']);
  });

  it('documents the outgoing webhooks with their headers, signature scheme and an example per event type', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const name of ['orderUpdate', 'newEvent']) {
      const post = doc.webhooks[name].post;
      const headers = (post.parameters as Json[]).map((p) => p.name);
      expect(headers).toEqual(
        expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-app-signature']),
      );
      const signature = (post.parameters as Json[]).find((p) => p.name === 'webhook-signature') as Json;
      expect(signature.description).toContain('HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`');
      const examples = ((post.requestBody as Json).content as Record<string, Json>)['application/json']
        .examples as Json;
      expect(Object.keys(examples)).toEqual([...ORDER_EVENT_TYPES]);
    }
  });

  it('the event catalog says for each event type when it comes, what the POS should do, with an example', async () => {
    const catalog = doc['x-event-catalog'] as Array<{
      eventType: string;
      when: string;
      posShould: string;
      example: Json;
    }>;
    expect(catalog.map((e) => e.eventType)).toEqual([...ORDER_EVENT_TYPES]);
    for (const entry of catalog) {
      expect(entry.when, entry.eventType).toMatch(/\w{3}/);
      expect(entry.posShould, entry.eventType).toMatch(/\w{3}/);
      expect(entry.example).toMatchObject({ eventType: entry.eventType });
    }
    // The guide (docs/events.md) is served as HTML, rendered from the Markdown file itself.
    const served = await t.app.inject({ method: 'GET', url: '/docs/events' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(served.body).toMatch(/^<!doctype html>/);
    const written = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
    for (const type of ORDER_EVENT_TYPES) {
      expect(written, `docs/events.md ${type}`).toContain(`### ${type}\n`);
      expect(served.body, `/docs/events ${type}`).toContain(`<h3>${type}</h3>`);
    }
    // What a POS reads there must not lose orders: never de-duplicate on eventId alone (D1), and
    // the helper it names exists (packages/pos-client).
    expect(served.body).not.toMatch(/createDedupe\b/);
    expect(served.body).toContain('createEventDeduplicator()');
    expect(written).not.toMatch(/[Dd]e-duplicate on `eventId`/);
  });

  it('/docs renders the reference', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});
