import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { KeyParams, RunParams, RunView, SigningKeyView, StartBody } from './homologation-schemas.js';
import type { HomologationService } from './homologation-service.js';

// Sandbox only (D25): app.ts registers these plugins only when CLEAVER_ENV=sandbox, so in
// production the paths answer 404 `{title, status}` like any unknown route.
const NOTE = 'Sandbox only (CLEAVER_ENV=sandbox); 404 in production. operator-api.md#homologation.';

/** POST /v1/homologations, GET /v1/homologations/{id}, GET /v1/homologations/signingKey: the POS's own runs. */
export const posHomologationRoutes: FastifyPluginAsyncTypebox<{ homologation: HomologationService }> = async (
  app,
  { homologation },
) => {
  const tags = ['homologation'];
  app.route(
    declareRoute({
      method: 'POST',
      url: '/homologations',
      access: MERCHANT_WRITE,
      summary: "Start a homologation run of the caller's integration key",
      description: NOTE,
      schema: {
        tags,
        body: Type.Optional(StartBody),
        response: { 201: RunView, ...errorResponses(400, 401, 404, 409, 415, 429) },
      },
      handler: async (request, reply) => {
        const { merchantId, keyId } = request.principal;
        return reply.code(201).send(await homologation.start(merchantId, keyId, request.body?.timings));
      },
    }),
  );
  app.route(
    declareRoute({
      method: 'GET',
      url: '/homologations/signingKey',
      access: MERCHANT_READ,
      summary: 'The public key that verifies homologation reports',
      description: NOTE,
      schema: { tags, response: { 200: SigningKeyView, ...errorResponses(401, 429) } },
      handler: async () => homologation.signingKey(),
    }),
  );
  app.route(
    declareRoute({
      method: 'GET',
      url: '/homologations/:id',
      access: MERCHANT_READ,
      summary: 'A homologation run of the caller’s key, with its graded criteria',
      description: `${NOTE} Another key's run answers 404.`,
      schema: { tags, params: RunParams, response: { 200: RunView, ...errorResponses(400, 401, 404, 429) } },
      handler: async (request) => homologation.getForKey(request.params.id, request.principal.keyId),
    }),
  );
};

/** The operator's side: start and read the runs of any key. */
export const operatorHomologationRoutes: FastifyPluginAsyncTypebox<{ homologation: HomologationService }> = async (
  app,
  { homologation },
) => {
  const tags = ['operator', 'homologation'];
  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/integrationKeys/:keyId/homologations',
      access: { role: 'support', auditAction: 'homologation.start' },
      summary: 'Start a homologation run of an integration key',
      description: NOTE,
      schema: {
        tags,
        params: KeyParams,
        body: Type.Optional(StartBody),
        response: { 201: RunView, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
      handler: async (request, reply) => {
        const run = await homologation.start(request.params.merchantId, request.params.keyId, request.body?.timings);
        return reply.code(201).send(run);
      },
    }),
  );
  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/integrationKeys/:keyId/homologations',
      access: { role: 'viewer' },
      summary: 'The homologation runs of an integration key, newest first',
      description: NOTE,
      schema: {
        tags,
        params: KeyParams,
        response: { 200: Type.Array(RunView), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => homologation.listForKey(request.params.merchantId, request.params.keyId),
    }),
  );
  app.route(
    declareRoute({
      method: 'GET',
      url: '/homologations/:id',
      access: { role: 'viewer' },
      summary: 'A homologation run with its graded criteria',
      description: NOTE,
      schema: {
        tags,
        params: RunParams,
        response: { 200: RunView, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => homologation.get(request.params.id),
    }),
  );
};
