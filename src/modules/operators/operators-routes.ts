// operator-api.md#operators-and-audit: operator accounts and personal tokens, plus what the
// fixed table leaves out (one operator, password reset, TOTP reset, revoke access, `me`). The
// role each route needs is in access-rules.ts; every change is audited by the operator scope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { setNextLink } from '../../lib/pagination.js';
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
import { type OperatorsService, selfOf } from './operators-service.js';

const tags = ['operators'];

const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`op:${createdAt.toISOString()}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const m = /^op:([^|]+)\|([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const createdAt = m ? new Date(m[1]) : undefined;
  if (!m || !createdAt || Number.isNaN(createdAt.getTime())) {
    throw badRequest('cursor is not valid: use the one from the Link header');
  }
  return { createdAt, id: m[2] };
}

export const operatorsRoutes: FastifyPluginAsyncTypebox<{ operators: OperatorsService; clock: Clock }> = async (
  app,
  { operators, clock },
) => {
  app.post(
    '/operators',
    {
      schema: {
        tags,
        summary: 'Create an operator (admin); without a password it can only use personal tokens',
        body: CreateOperatorBody,
        response: { 201: OperatorView, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(toOperatorView(await operators.createOperator(request.body))),
  );

  app.get(
    '/operators',
    {
      schema: {
        tags,
        summary: 'List operators, oldest first',
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(OperatorView), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const limit = request.query.limit ?? 100;
      const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
      const rows = await operators.listOperators({ limit: limit + 1, after });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      setNextLink(request, reply, rows.length > limit && last ? encodeCursor(last.created_at, last.id) : undefined);
      return page.map(toOperatorView);
    },
  );

  app.get(
    '/operators/:id',
    {
      schema: {
        tags,
        summary: 'One operator',
        params: OperatorIdParams,
        response: { 200: OperatorView, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => toOperatorView(await operators.requireOperator(request.params.id)),
  );

  app.patch(
    '/operators/:id',
    {
      schema: {
        tags,
        summary: "Change an operator's role, or disable it (its sessions and tokens end at once) or enable it",
        params: OperatorIdParams,
        body: UpdateOperatorBody,
        response: { 200: OperatorView, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      if (request.body.role === undefined && request.body.disabled === undefined) {
        throw badRequest('body must set role or disabled');
      }
      return toOperatorView(await operators.updateOperator(request.params.id, request.body));
    },
  );

  app.post(
    '/operators/:id/password',
    {
      schema: {
        tags,
        summary: "Set or reset an operator's password (at least 12 characters); its console sessions end",
        params: OperatorIdParams,
        body: SetPasswordBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await operators.setPassword(request.params.id, request.body.password);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/operators/:id/totp',
    {
      schema: {
        tags,
        summary: "Remove an operator's one-time-code device (a lost phone); it can enrol again",
        params: OperatorIdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await operators.resetTotp(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/operators/:id/revokeAccess',
    {
      schema: {
        tags,
        summary: 'End every console session and revoke every token of an operator, at once',
        params: OperatorIdParams,
        response: { 200: RevokedAccess, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => operators.revokeAccess(request.params.id),
  );

  app.get(
    '/operators/:id/tokens',
    {
      schema: {
        tags,
        summary: "An operator's personal tokens (never the tokens themselves)",
        params: OperatorIdParams,
        response: { 200: Type.Array(TokenView), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => (await operators.listTokens(request.params.id)).map((t) => toTokenView(t, clock.now())),
  );

  app.post(
    '/operators/:id/tokens',
    {
      schema: {
        tags,
        summary: 'Create a personal token of an operator, with a role no higher than its own; shown only here',
        params: OperatorIdParams,
        body: CreateTokenBody,
        response: { 201: CreatedToken, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const created = await operators.createToken(request.params.id, request.body, request.actor.role);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete(
    '/operators/:id/tokens/:tokenId',
    {
      schema: {
        tags,
        summary: 'Revoke a personal token; it stops working at once',
        params: TokenParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await operators.revokeToken(request.params.id, request.params.tokenId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags,
        summary: 'Who the credential of this request is, and its role',
        response: { 200: Me, ...errorResponses(401) },
      },
    },
    async (request) => {
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
  );

  app.post(
    '/me/tokens',
    {
      schema: {
        tags,
        summary: 'Create a personal token for yourself, with a role no higher than yours; shown only here',
        body: CreateTokenBody,
        response: { 201: CreatedToken, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const created = await operators.createToken(selfOf(request.actor), request.body, request.actor.role);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete(
    '/me/tokens/:tokenId',
    {
      schema: {
        tags,
        summary: 'Revoke one of your personal tokens',
        params: Type.Object({ tokenId: Uuid() }),
        response: { 204: NoContent, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await operators.revokeToken(selfOf(request.actor), request.params.tokenId);
      return reply.code(204).send(null);
    },
  );
};
