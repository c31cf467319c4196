// operator-api.md#operators-and-audit: operator accounts and personal tokens, plus what the
// fixed table leaves out (one operator, password reset, TOTP reset, revoke access, `me`). The
// role and audit action of each route are in its declaration; the operator scope audits changes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TSchema, Type } from 'typebox';
import { answerNoContent, type CreatedReply, sendCreatedSecret } from '../../lib/answers.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { sendTimePage } from '../../lib/pagination.js';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import { toOperatorView, toTokenView } from './operator-views.js';
import {
  CreatedToken,
  CreateOperatorBody,
  CreateTokenBody,
  Me,
  OperatorIdParams,
  OperatorView,
  PageQuery,
  RevokedAccess,
  SetPasswordBody,
  TokenParams,
  TokenView,
  UpdateOperatorBody,
} from './operators-schemas.js';
import { type Actor, type OperatorsService, selfOf } from './operators-service.js';

const tags = ['operators'];

/**
 * The schema of a route on one operator (or one of its tokens) named by the path: its answers,
 * and the errors every such route has: 400 (an id that is not a UUID), 401, 403 (a role too low)
 * and 404.
 */
function onOperator<P extends TSchema, A extends Record<number, TSchema>>(params: P, answers: A) {
  return { tags, params, response: { ...answers, ...errorResponses(400, 401, 403, 404) } };
}

const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`op:${createdAt.toISOString()}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [, at, id] = /^op:([^|]+)\|([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8')) ?? [];
  const createdAt = at ? new Date(at) : undefined;
  if (!id || !createdAt || Number.isNaN(createdAt.getTime())) {
    throw badRequest('cursor is not valid: use the one from the Link header');
  }
  return { createdAt, id };
}

export const operatorsRoutes: FastifyPluginAsyncTypebox<{ operators: OperatorsService; clock: Clock }> = async (
  app,
  { operators, clock },
) => {
  /**
   * Both token creations (an operator's, the caller's own): a personal token of `owner`, with a
   * role no higher than the caller's, answered 201 and shown only in this answer.
   */
  async function sendNewToken<Sent>(
    reply: CreatedReply<Sent>,
    owner: string,
    request: { body: Static<typeof CreateTokenBody>; actor: Actor },
  ): Promise<Sent> {
    return sendCreatedSecret(reply, await operators.createToken(owner, request.body, request.actor.role));
  }

  app.route(
    declareRoute({
      method: 'POST',
      url: '/operators',
      access: { role: 'admin', auditAction: 'operator.create' },
      summary: 'Create an operator (admin); without a password it can only use personal tokens',
      description:
        'Creates an operator account with a role (viewer, support, admin). Admin only; audited. Errors: 400 ' +
        '(a password shorter than 12 characters); 409 when the email is taken.',
      schema: {
        tags,
        body: CreateOperatorBody,
        response: { 201: OperatorView, ...errorResponses(400, 401, 403, 409) },
      },
      handler: async (request, reply) =>
        reply.code(201).send(toOperatorView(await operators.createOperator(request.body))),
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/operators',
      access: { role: 'viewer' },
      summary: 'List operators, oldest first',
      description:
        'Every operator account with role, status and whether a password and a one-time-code device are set.',
      schema: {
        tags,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(OperatorView), ...errorResponses(400, 401, 403) },
      },
      handler: async (request, reply) => {
        const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
        const page = await sendTimePage(
          request,
          reply,
          request.query.limit,
          (limit) => operators.listOperators({ limit, after }),
          encodeCursor,
        );
        return page.map(toOperatorView);
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/operators/:id',
      access: { role: 'viewer' },
      summary: 'One operator',
      description: 'One operator account. Errors: 404.',
      schema: onOperator(OperatorIdParams, { 200: OperatorView }),
      handler: async (request) => toOperatorView(await operators.requireOperator(request.params.id)),
    }),
  );

  app.route(
    declareRoute({
      method: 'PATCH',
      url: '/operators/:id',
      access: { role: 'admin', auditAction: 'operator.update' },
      summary: "Change an operator's role, or disable it (its sessions and tokens end at once) or enable it",
      description:
        'Changes an operator’s role, or disables it (its console sessions and tokens end at once) or enables ' +
        'it. Admin only; audited. Errors: 400 for an unknown role or an empty change; 404.',
      schema: { ...onOperator(OperatorIdParams, { 200: OperatorView }), body: UpdateOperatorBody },
      handler: async (request) => {
        if (request.body.role === undefined && request.body.disabled === undefined) {
          throw badRequest('body must set role or disabled');
        }
        return toOperatorView(await operators.updateOperator(request.params.id, request.body));
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/operators/:id/password',
      access: { role: 'admin', auditAction: 'operator.setPassword' },
      summary: "Set or reset an operator's password (at least 12 characters); its console sessions end",
      description:
        'Sets or resets an operator’s password; its console sessions end. Audited. Errors: 400 (too short); ' + '404.',
      schema: { ...onOperator(OperatorIdParams, { 204: NoContent }), body: SetPasswordBody },
      handler: answerNoContent((request) => operators.setPassword(request.params.id, request.body.password)),
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/operators/:id/totp',
      access: { role: 'admin', auditAction: 'operator.resetTotp' },
      summary: "Remove an operator's one-time-code device (a lost phone); it can enrol again",
      description:
        'Removes an operator’s one-time-code device so it can enrol again at next login. Audited. Errors: ' + '404.',
      schema: onOperator(OperatorIdParams, { 204: NoContent }),
      handler: answerNoContent((request) => operators.resetTotp(request.params.id)),
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/operators/:id/revokeAccess',
      access: { role: 'admin', auditAction: 'operator.revokeAccess' },
      summary: 'End every console session and revoke every token of an operator, at once',
      description:
        'Ends every console session and revokes every personal token of the operator at once; answers how ' +
        'many. Audited. Errors: 404.',
      schema: onOperator(OperatorIdParams, { 200: RevokedAccess }),
      handler: async (request) => operators.revokeAccess(request.params.id),
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/operators/:id/tokens',
      access: { role: 'viewer' },
      summary: "An operator's personal tokens (never the tokens themselves)",
      description:
        'An operator’s personal tokens: name, role, created, last used, expiry, revoked; never the token ' +
        'itself. Errors: 404.',
      schema: onOperator(OperatorIdParams, { 200: Type.Array(TokenView) }),
      handler: async (request) =>
        (await operators.listTokens(request.params.id)).map((t) => toTokenView(t, clock.now())),
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/operators/:id/tokens',
      access: { role: 'admin', auditAction: 'operatorToken.create' },
      summary: 'Create a personal token of an operator, with a role no higher than its own; shown only here',
      description:
        'A personal API token (`cop_…`) for an operator, with a role no higher than its own and an optional ' +
        'expiry; the token is shown only in this answer. Audited. Errors: 400 (a role above the operator’s, a ' +
        'bad expiry); 404; 409 when the operator is disabled.',
      schema: {
        tags,
        params: OperatorIdParams,
        body: CreateTokenBody,
        response: { 201: CreatedToken, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (request, reply) => sendNewToken(reply, request.params.id, request),
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/operators/:id/tokens/:tokenId',
      access: { role: 'admin', auditAction: 'operatorToken.revoke' },
      summary: 'Revoke a personal token; it stops working at once',
      description: 'Revokes a personal token: it stops working at once. Audited. Errors: 404.',
      schema: onOperator(TokenParams, { 204: NoContent }),
      handler: answerNoContent((request) => operators.revokeToken(request.params.id, request.params.tokenId)),
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/me',
      access: { role: 'viewer' },
      summary: 'Who the credential of this request is, and its role',
      description:
        'Who the credential of this request is (the bootstrap admin token, or an operator and its token) and ' +
        'its role.',
      schema: {
        tags,
        response: { 200: Me, ...errorResponses(401) },
      },
      handler: async (request) => {
        const actor = request.actor;
        const row = actor.operatorId ? await operators.requireOperator(actor.operatorId) : undefined;
        return {
          actor: actor.actor,
          actorType: actor.kind,
          role: actor.role,
          operator: row ? toOperatorView(row) : null,
          tokenId: actor.tokenId,
        };
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/me/tokens',
      access: { role: 'viewer', auditAction: 'operatorToken.create' },
      summary: 'Create a personal token for yourself, with a role no higher than yours; shown only here',
      description:
        'A personal token for the calling operator, shown only in this answer. Audited. Errors: 400 (a role ' +
        'above yours, a bad expiry); 409 for the bootstrap token, which is not an operator account.',
      schema: {
        tags,
        body: CreateTokenBody,
        response: { 201: CreatedToken, ...errorResponses(400, 401, 409) },
      },
      handler: async (request, reply) => sendNewToken(reply, selfOf(request.actor), request),
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/me/tokens/:tokenId',
      access: { role: 'viewer', auditAction: 'operatorToken.revoke' },
      summary: 'Revoke one of your personal tokens',
      description: 'Revokes one of your own tokens. Audited. Errors: 404; 409 for the bootstrap token.',
      schema: {
        tags,
        params: Type.Object({ tokenId: Uuid() }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 409) },
      },
      handler: answerNoContent((request) => operators.revokeToken(selfOf(request.actor), request.params.tokenId)),
    }),
  );
};
