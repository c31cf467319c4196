// One route, one declaration: its method and path, its TypeBox schemas (with the fields' own
// descriptions), the words of its OpenAPI operation, who may call it and the audit entry it
// leaves, and its handler, in one object in its module. The operator scope reads the rule from
// the route's config at start (src/plugins/auth-hooks.ts, requireAccessRules) and keeps every
// declared rule per app (ruledRoutesOf), which is where the role table of docs/security.md and
// the role tests come from (docs/design/operator-api.md#operators-and-audit).
//
// A new /admin/v1 route is one `app.route(declareRoute({ … }))` in its module's *-routes.ts (its
// schemas in *-schemas.ts when shared). Nothing else is written by hand: the role tests and the
// security suite find it in the app; docs/security.md's table and the OpenAPI shape snapshot are
// rewritten by their tests (UPDATE_SECURITY_DOC=1, UPDATE_OPENAPI_SNAPSHOT=1) and committed with it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';

/** The ladder of operator roles (modules/operators/roles.ts): each may do what the ones before it may. */
export type DeclaredRole = 'viewer' | 'support' | 'admin';

/** Who may call a route and what it leaves in the audit log. */
export interface RouteAccess {
  role: DeclaredRole;
  /** The `platform` role (the marketplace's service tokens) may call it too. */
  platform?: true;
  /** The audit action of a route that changes something (reads are not audited). */
  auditAction?: string;
}

/** Fastify's route options with TypeBox types, as `app.route` takes them. */
type DeclaredRouteOptions<S extends FastifySchema> = RouteOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider,
  FastifyBaseLogger
>;

type Handler<S extends FastifySchema> = DeclaredRouteOptions<S>['handler'];

export interface RouteDeclaration<S extends FastifySchema> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path inside its scope's prefix (`/merchants/:merchantId` under `/admin/v1`). */
  url: string;
  access: RouteAccess;
  /** The operation's one-line summary in /openapi.json. */
  summary: string;
  /** What the operation does, its rule and its errors, in plain words, for /openapi.json. */
  description?: string;
  /** TypeBox schemas of params, query, body and answers; their fields carry their own descriptions. */
  schema: S;
  /** A hook run before validation (e.g. an empty body read as `{}`). */
  preValidation?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  handler: Handler<S>;
}

/** What `config` of a declared route carries (read by requireAccessRules). */
export interface DeclaredRouteConfig {
  access: DeclaredRole;
  platform?: true;
  auditAction?: string;
}

/** The Fastify route options of a declaration: `app.route(declareRoute({ … }))`. */
export function declareRoute<S extends FastifySchema>(declaration: RouteDeclaration<S>): DeclaredRouteOptions<S> {
  const { method, url, access, summary, description, schema, preValidation, handler } = declaration;
  const config: DeclaredRouteConfig = {
    access: access.role,
    ...(access.platform ? { platform: true as const } : {}),
    ...(access.auditAction ? { auditAction: access.auditAction } : {}),
  };
  return {
    method,
    url,
    schema: { ...schema, summary, ...(description ? { description } : {}) },
    config: config as never,
    ...(preValidation ? { preValidation } : {}),
    handler,
  };
}
