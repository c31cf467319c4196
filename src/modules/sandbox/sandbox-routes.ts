import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses, Uuid } from '../../lib/schemas.js';
import { CustomerDeliveryCode, PlayScenarioBody, ScenarioPlayed, ScenarioSummary } from './sandbox-schemas.js';
import type { SandboxService } from './sandbox-service.js';

// Sandbox only (D25): app.ts registers these plugins only when CLEAVER_ENV=sandbox, so in
// production the paths answer 404 `{title, status}` like any unknown route.

const SANDBOX_NOTE =
  'Sandbox only (CLEAVER_ENV=sandbox); 404 in production. Products come from the merchant catalog; ' +
  'a merchant without one gets 400.';
const listSchema = { 200: Type.Array(ScenarioSummary) };
const playDescription =
  'Places an order shaped by the scenario from the catalog and plays what follows (customer cancellation, ' +
  'logistics partner updates, platform events) through the same paths as the operator API and the ' +
  `logistics partner, so events, polling and webhooks are exactly as in production. ${SANDBOX_NOTE}`;

/** GET/POST /v1/sandbox/scenarios: the POS plays scenarios on its own merchant, with its token. */
export const posSandboxRoutes: FastifyPluginAsyncTypebox<{ sandbox: SandboxService }> = async (app, { sandbox }) => {
  const tags = ['sandbox'];
  app.route(
    declareRoute({
      method: 'GET',
      url: '/sandbox/scenarios',
      access: MERCHANT_READ,
      summary: 'The sandbox scenarios, each with what it raises',
      description: SANDBOX_NOTE,
      schema: { tags, response: { ...listSchema, ...errorResponses(401, 429) } },
      handler: async () => sandbox.listScenarios(),
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/sandbox/scenarios',
      access: MERCHANT_WRITE,
      summary: "Play a sandbox scenario on the caller's merchant: an order and the events that follow",
      description: playDescription,
      schema: {
        tags,
        body: PlayScenarioBody,
        response: { 201: ScenarioPlayed, ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
      },
      handler: async (request, reply) =>
        reply
          .code(201)
          .send(await sandbox.play(request.principal.merchantId, request.body.scenario, request.body.options)),
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/sandbox/orders/:orderId/customerDeliveryCode',
      access: MERCHANT_READ,
      summary: 'The delivery code the sandbox customer tells the courier (what to send to validateCode)',
      description:
        'In production the code reaches the POS only from the customer at the door (spec 4.11); the sandbox has ' +
        'no customer, so a POS under test asks here, with its own token, for its own orders. ' +
        'Sandbox only (CLEAVER_ENV=sandbox); 404 in production.',
      schema: {
        tags,
        params: Type.Object({ orderId: Uuid() }),
        response: { 200: CustomerDeliveryCode, ...errorResponses(400, 401, 404, 429) },
      },
      handler: async (request) => sandbox.customerDeliveryCode(request.principal.merchantId, request.params.orderId),
    }),
  );
};

const MerchantParams = Type.Object({ merchantId: Uuid() });

/** GET/POST /admin/v1/merchants/{merchantId}/sandbox/scenarios: the same, for any merchant. */
export const operatorSandboxRoutes: FastifyPluginAsyncTypebox<{ sandbox: SandboxService }> = async (
  app,
  { sandbox },
) => {
  const tags = ['operator', 'sandbox'];
  // Operator roles (operator-api.md#operators-and-audit), where the operator API has them: a read
  // for any operator; playing acts on orders like the other customer-side actions (support).
  app.route(
    declareRoute({
      method: 'GET',
      url: '/merchants/:merchantId/sandbox/scenarios',
      access: { role: 'viewer' },
      summary: 'The sandbox scenarios, each with what it raises',
      description: SANDBOX_NOTE,
      schema: {
        tags,
        params: MerchantParams,
        response: { ...listSchema, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        await sandbox.requireMerchant(request.params.merchantId);
        return sandbox.listScenarios();
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/merchants/:merchantId/sandbox/scenarios',
      access: { role: 'support', auditAction: 'sandbox.playScenario' },
      summary: 'Play a sandbox scenario on a merchant: an order and the events that follow',
      description: playDescription,
      schema: {
        tags,
        params: MerchantParams,
        body: PlayScenarioBody,
        response: { 201: ScenarioPlayed, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
      handler: async (request, reply) => {
        const played = await sandbox.play(request.params.merchantId, request.body.scenario, request.body.options);
        return reply.code(201).send(played);
      },
    }),
  );
};
