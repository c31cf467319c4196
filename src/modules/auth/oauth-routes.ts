import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../lib/schemas.js';
import type { AuthService } from './auth-service.js';
import { bearerToken } from './bearer-token.js';

// Spec 4.1 and 4.16, D13 (token), D15 (revoke, refresh). All three share the auth rate limit,
// registered by app.ts on this plugin's scope.

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Enum(['Bearer', 'bearer'], {
    description:
      '`Bearer` (spec 2.1); `bearer`, Open Delivery’s spelling, for a key with the opendelivery profile (D28)',
  }),
  expires_in: Type.Integer(),
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

export const oauthRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/token',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'Issue an access token (client credentials grant)',
        body: ClientCredentialsBody,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      const grantType = request.body?.grant_type;
      if (grantType === undefined || grantType === '') throw invalidRequest('grant_type is required');
      const { clientId, clientSecret } = clientCredentials(request);
      if (grantType !== 'client_credentials') {
        throw new AppError(400, 'grant_type must be client_credentials', { body: { error: 'unsupported_grant_type' } });
      }
      const token = await auth.issueTokenForClient(clientId, clientSecret);
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return token;
    },
  );

  app.post(
    '/revoke',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'Revoke an access token (RFC 7009)',
        body: ClientCredentialsBody,
        response: { 200: Type.Object({}), ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      const token = request.body?.token;
      const { clientId, clientSecret } = clientCredentials(request);
      const client = await auth.authenticateClient(clientId, clientSecret);
      if (typeof token !== 'string' || token === '') throw invalidRequest('token is required');
      await auth.revokeTokenOfClient(token, client);
      reply.header('cache-control', 'no-store');
      return {};
    },
  );

  app.post(
    '/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a still valid access token for a new one; the old one is revoked',
        security: [{ bearer: [] }],
        response: { 200: TokenResponse, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      const principal = await auth.verifyAccessToken(bearerToken(request));
      const token = await auth.refresh(principal);
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return token;
    },
  );
};
