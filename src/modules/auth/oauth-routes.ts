import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../lib/errors.js';
import { declareRoute, PER_IP } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import type { AuthService } from './auth-service.js';
import { bearerToken } from './bearer-token.js';

// Spec 4.1 and 4.16, D13 (token), D15 (revoke, refresh). All three share the auth rate limit,
// registered by app.ts on this plugin's scope.

const TokenResponse = Type.Object({
  access_token: Type.String({
    description: 'The bearer token to send as `Authorization: Bearer …` on every /v1 call.',
  }),
  token_type: Type.Enum(['Bearer', 'bearer'], {
    description:
      '`Bearer` (spec 2.1); `bearer`, Open Delivery’s spelling, for a key with the opendelivery profile (D28)',
  }),
  expires_in: Type.Integer({
    description: 'Seconds the token stays valid from now; ask for a new one shortly before.',
  }),
});

const ClientCredentialsBody = Type.Object({
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
  grant_type: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  token_type_hint: Type.Optional(Type.String()),
});

const invalidRequest = (title: string) => new AppError(400, title, { body: { error: 'invalid_request' } });

/** D13: credentials in the body (JSON or form) or as HTTP Basic client authentication. */
function clientCredentials(request: FastifyRequest): { clientId: string; clientSecret: string } {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const header = request.headers.authorization;
  if (header && /^Basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidRequest('Authorization: malformed Basic credentials');
    // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        throw invalidRequest('Authorization: malformed Basic credentials');
      }
    };
    const basic = { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
    // RFC 6749 2.3: one authentication method per request. A secret in the body as well, or a
    // body client_id naming another client, is refused rather than silently preferring one.
    if (body.client_secret !== undefined) {
      throw invalidRequest('client credentials given both in the Authorization header and in the body');
    }
    if (body.client_id !== undefined && body.client_id !== basic.clientId) {
      throw invalidRequest('client_id in the body does not match the Authorization header');
    }
    return basic;
  }
  if (typeof body.client_id !== 'string' || body.client_id === '') throw invalidRequest('client_id is required');
  if (typeof body.client_secret !== 'string' || body.client_secret === '') {
    throw invalidRequest('client_secret is required');
  }
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

function rejectInvalidBody(request: FastifyRequest & { validationError?: Error }) {
  if (request.validationError) {
    const field = /(\w+)/.exec(request.validationError.message.replace(/^body\/?/, ''))?.[1];
    throw invalidRequest(field ? `${field} must be a string` : 'Invalid request body');
  }
}

const tags = ['auth'];

export const oauthRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.route(
    declareRoute({
      method: 'POST',
      url: '/token',
      access: PER_IP,
      summary: 'Issue an access token (client credentials grant)',
      description:
        'Exchanges an integration key (client_id = the merchant id, client_secret) for a bearer access token ' +
        '(client credentials grant, spec 4.1). Reuse the token until shortly before `expires_in` runs out: asking for a ' +
        'new one on every call is rate limited per IP. Errors: 400 for a missing field or a grant_type other than ' +
        'client_credentials; 401 for an unknown client or a wrong secret.',
      attachValidation: true,
      schema: {
        tags,
        body: ClientCredentialsBody,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 415, 429) },
      },
      handler: async (request, reply) => {
        rejectInvalidBody(request);
        const grantType = request.body?.grant_type;
        if (grantType === undefined || grantType === '') throw invalidRequest('grant_type is required');
        const { clientId, clientSecret } = clientCredentials(request);
        if (grantType !== 'client_credentials') {
          throw new AppError(400, 'grant_type must be client_credentials', {
            body: { error: 'unsupported_grant_type' },
          });
        }
        const token = await auth.issueTokenForClient(clientId, clientSecret);
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        return token;
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/revoke',
      access: PER_IP,
      summary: 'Revoke an access token (RFC 7009)',
      description:
        'Revokes an access token at once (RFC 7009), authenticated with the client credentials that own it. Answers ' +
        '200 even when the token was unknown or already revoked, as RFC 7009 requires. Errors: 400 for a missing ' +
        'field; 401 for wrong client credentials.',
      attachValidation: true,
      schema: {
        tags,
        body: ClientCredentialsBody,
        response: { 200: Type.Object({}), ...errorResponses(400, 401, 415, 429) },
      },
      handler: async (request, reply) => {
        rejectInvalidBody(request);
        const token = request.body?.token;
        const { clientId, clientSecret } = clientCredentials(request);
        const client = await auth.authenticateClient(clientId, clientSecret);
        if (typeof token !== 'string' || token === '') throw invalidRequest('token is required');
        await auth.revokeTokenOfClient(token, client);
        reply.header('cache-control', 'no-store');
        return {};
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/refresh',
      access: { ...PER_IP, bearer: true },
      summary: 'Exchange a still valid access token for a new one; the old one is revoked',
      description:
        'Gives a new access token for a token that is still valid (sent as the bearer token) and revokes the old one, so ' +
        'a long-running POS never has to handle its secret again. Errors: 401 when the token is expired, revoked or ' +
        'invalid: ask /oauth/token then.',
      schema: { tags, response: { 200: TokenResponse, ...errorResponses(401, 429) } },
      handler: async (request, reply) => {
        const principal = await auth.verifyAccessToken(bearerToken(request));
        const token = await auth.refresh(principal);
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        return token;
      },
    }),
  );
};
