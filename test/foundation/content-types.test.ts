// D35: every JSON answer says so. Walks every documented operation of /openapi.json, for a key of
// each profile (D27), once as a client that gets its way and once as one that does not, and
// checks each answer's Content-Type against the contract for that status: one of the documented
// media types when the contract has a body (application/problem+json for an opendelivery key's
// errors, D28), and neither a body nor a Content-Type when it has none (202 and 204 of the order
// actions, 200 of PATCH …/details). Two answers lacked it: an opendelivery key's GET
// /v1/orders/{id} and GET /v1/merchantStatus, serialised by hand (sendInDialect).
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractWorld, createContractWorld, type Json, type Operation } from '../support/contract-world.js';

const NOTHING = '00000000-0000-4000-8000-000000000000';

/** Path parameters the world's target does not set: records of the merchant, or ids of nothing. */
async function defaults(w: ContractWorld, op: Operation): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const name of op.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
    if (name === 'merchantId') params.merchantId = w.me.merchantId;
    else if (name === 'orderId') params.orderId = await w.orderAfter([]);
    else if (name === 'keyId' && op.method === 'GET') params.keyId = w.me.keyId;
    else params[name] = NOTHING;
  }
  return params;
}

/** The bearer routes of the POS, whose errors follow the key's profile (D28.4). */
const isPosRoute = (op: Operation) => op.path.startsWith('/v1/') && !op.path.startsWith('/v1/logistics/');

function contractProblems(op: Operation, res: LightMyRequestResponse, profile: string): string[] {
  const where = `${op.method} ${op.path} → ${res.statusCode}`;
  const documented = (op.op.responses as Record<string, Json>)[String(res.statusCode)];
  if (!documented) return [`${where}: status not documented (${res.body.slice(0, 200)})`];
  const contentType = String(res.headers['content-type'] ?? '');
  const mediaType = contentType.split(';')[0].trim();
  const media = documented.content as Json | undefined;
  if (!media || res.statusCode === 204) {
    const problems = [];
    if (res.body !== '') problems.push(`${where}: a body where the contract has none: ${res.body.slice(0, 100)}`);
    if (contentType) problems.push(`${where}: Content-Type "${contentType}" on an answer without a body`);
    return problems;
  }
  if (op.method === 'HEAD') return [];
  if (!Object.keys(media).includes(mediaType)) {
    return [`${where}: Content-Type "${contentType}", the contract has ${Object.keys(media).join(', ')}`];
  }
  if (res.statusCode >= 400 && isPosRoute(op) && op.op.security && (op.op.security as unknown[]).length > 0) {
    const expected = profile === 'opendelivery' ? 'application/problem+json' : 'application/json';
    // Refused before the token is read (a missing token, a rate limit): always application/json.
    if (res.statusCode !== 401 && mediaType !== expected) return [`${where}: ${mediaType} for a ${profile} key`];
  }
  return [];
}

for (const profile of ['cleaver', 'opendelivery'] as const) {
  describe(`Content-Type of every documented answer, ${profile} key (D35)`, () => {
    let w: ContractWorld;

    beforeAll(async () => {
      w = await createContractWorld(profile);
    }, 120_000);

    afterAll(async () => {
      await w?.close();
    });

    it('matches the contract for every operation, status by status, with a body or without', async () => {
      // Operations outside /v1 do not depend on the key's profile: walked once.
      const operations = w.ops.filter((op) => profile === 'cleaver' || isPosRoute(op));
      const problems: string[] = [];
      const seen = new Map<string, Set<number>>();
      const record = (op: Operation, res: LightMyRequestResponse) => {
        problems.push(...contractProblems(op, res, profile));
        seen.set(op.id, (seen.get(op.id) ?? new Set()).add(res.statusCode));
      };
      for (const op of operations) {
        const target = await w.targetOf(op.id);
        const params = { ...(await defaults(w, op)), ...target.params };
        const content = (op.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
        const mediaType = content ? Object.keys(content)[0] : undefined;
        const example = content && mediaType ? w.examplesOf(content[mediaType])[0] : undefined;
        // As a client that gets its way: the published example, in the world it stands for.
        record(op, await w.send(op, mediaType, w.bound(example, target.bind ?? {}), { ...target, params }));
        await target.after?.();
        // As one that does not: a body that is not JSON, or ids of nothing.
        const wrong = mediaType
          ? await w.send(op, 'application/json', undefined, { ...target, params, headers: undefined })
          : await w.send(op, undefined, undefined, {
              params: Object.fromEntries(Object.keys(params).map((k) => [k, NOTHING])),
            });
        record(op, wrong);
      }
      expect(problems).toEqual([]);
      // The walk reached every operation, and the POS routes got their way in both profiles.
      expect(seen.size).toBe(operations.length);
      const posFailures = operations
        .filter((op) => isPosRoute(op) && ![...(seen.get(op.id) ?? [])].some((s) => s < 300))
        .filter((op) => !['getV1HomologationsById'].includes(op.id))
        .map((op) => `${op.id}: ${[...(seen.get(op.id) ?? [])].join(', ')}`);
      expect(posFailures).toEqual([]);
    }, 300_000);
  });
}
