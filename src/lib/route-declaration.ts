// One route, one declaration: its method and path, its TypeBox schemas (with the fields' own
// descriptions), the words of its OpenAPI operation, who may call it (an operator role, the
// merchant's bearer token, anyone within a per-IP budget, a signed logistics partner), its
// rate-limit group, how an `opendelivery` key is answered where it differs, what a refused
// request may still write, the audit entry it leaves, and its handler, in one object in its module.
//
// The profile mapping lives here, at the edge: the domain raises one outcome whoever asked (a
// Refusal, lib/errors.ts), and the error handler asks answerRefusal how this route answers it for
// the caller's profile (D7, D28.3), so a route's dialect never reaches into its module's service.
//
// Each scope of app.ts says which kind of caller its routes are for (requireDeclaredRoutes): a
// route that is not declared, or declared for another kind, stops the start. Every declaration is
// kept per app (declaredRoutesOf): the security suite (test/security) takes the protected routes
// from it and the fuzz suite (test/proof) what a refused request may write; the operator scope
// also reads the role rule from the route's config (src/plugins/auth-hooks.ts, requireAccessRules,
// ruledRoutesOf), which is where docs/security.md's role table and the role tests come from
// (docs/design/operator-api.md#operators-and-audit).
//
// A new route is one `app.route(declareRoute({ … }))` in its module's *-routes.ts (its schemas in
// *-schemas.ts when shared). Nothing else is written by hand, except a request fixture in
// test/security/protected-routes.ts when a merchant route needs a body to get past validation:
// the OpenAPI shape snapshot and docs/security.md's table are rewritten by their tests
// (UPDATE_OPENAPI_SNAPSHOT=1, UPDATE_SECURITY_DOC=1) and committed with it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { TSchema } from 'typebox';
import { AppError, type Refusal } from './errors.js';
import { ErrorRef } from './schemas.js';

/** The ladder of operator roles (modules/operators/roles.ts): each may do what the ones before it may. */
export type DeclaredRole = 'viewer' | 'support' | 'admin';

/** /admin/v1: an operator token whose role is at least `role`; what it leaves in the audit log. */
export interface OperatorAccess {
  role: DeclaredRole;
  /** The `platform` role (the marketplace's service tokens) may call it too. */
  platform?: true;
  /** The audit action of a route that changes something (reads are not audited). */
  auditAction?: string;
}

/** A read the marketplace's own systems make too (D36): viewers and the `platform` role. */
export const READ_WITH_PLATFORM: OperatorAccess = { role: 'viewer', platform: true };

/**
 * /v1: the merchant integration's bearer token (spec 5.1), checked by the /v1 scope before the
 * route; the request counts against the key's `read` or `write` budget (D23).
 */
export interface MerchantAccess {
  caller: 'merchant';
  rateLimit: 'read' | 'write';
}

/** The merchant's token, on the key's read budget (a GET, or a long poll that only reads). */
export const MERCHANT_READ: MerchantAccess = { caller: 'merchant', rateLimit: 'read' };
/** The merchant's token, on the key's write budget (everything that may change something). */
export const MERCHANT_WRITE: MerchantAccess = { caller: 'merchant', rateLimit: 'write' };

/**
 * /oauth and Open Delivery's version discovery: nothing is checked before the handler (which
 * checks the client's credentials, or with `bearer` the token it refreshes); one budget per IP
 * (spec 8, D23).
 */
export interface PublicAccess {
  caller: 'public';
  rateLimit: 'perIp';
  bearer?: true;
}

/** /v1/logistics: the partner's X-App-* headers and the HMAC-SHA256 signature of the body (spec 5.2). */
export interface LogisticsAccess {
  caller: 'logistics';
}

/** No credentials before the handler, within the per-IP budget. */
export const PER_IP: PublicAccess = { caller: 'public', rateLimit: 'perIp' };
/** Signed by a logistics partner. */
export const SIGNED_BY_PARTNER: LogisticsAccess = { caller: 'logistics' };

export type RouteAccess = OperatorAccess | MerchantAccess | PublicAccess | LogisticsAccess;
/** The kind of caller a scope of app.ts serves. */
export type Caller = 'operator' | MerchantAccess['caller'] | PublicAccess['caller'] | LogisticsAccess['caller'];

export const callerOf = (access: RouteAccess): Caller => ('role' in access ? 'operator' : access.caller);

/**
 * D27, D28: how a key with the `opendelivery` profile is answered where it differs from a
 * `cleaver` key.
 */
export interface ProfileMapping {
  /**
   * Answers in Open Delivery's shape, by status: documented beside `response` (anyOf), and sent by
   * the handler with sendInDialect (lib/schemas.ts), so `response` keeps its fast serializer.
   */
  answers?: Record<number, TSchema>;
  /**
   * D28.3: an action the order already has, or one its state does not allow (a Refusal the domain
   * raises, lib/errors.ts), is 400 for a `cleaver` key (D7) and 422 for an `opendelivery` key
   * (answerRefusal below). Adds both answers and says so in the description; `body422` when the
   * 422 says more than {title, status} (the refusal's `detail`, sent only when it is declared).
   */
  refusedAction?: { body422?: TSchema };
}

/**
 * What a request this route refuses may still have written (by default nothing: the fuzz suite
 * checks every table after each refused request). Table names, each with its reason beside it.
 */
export interface RejectedMayWrite {
  /** Existing rows it may have updated (the number of rows stays). */
  update?: string[];
  /** Rows it may have added. */
  append?: string[];
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
  opendelivery?: ProfileMapping;
  rejectedMayWrite?: RejectedMayWrite;
  /** A body limit of its own (a catalog upload is larger than other bodies). */
  bodyLimit?: number;
  /** The handler reads `request.validationError` and answers in its own words (OAuth's `error`). */
  attachValidation?: true;
  /** A hook run before validation (e.g. an empty body read as `{}`). */
  preValidation?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  handler: Handler<S>;
}

/** What `config` of a declared route carries (read by requireAccessRules, app.ts's rate limits and declaredRoutesOf). */
export interface DeclaredRouteConfig {
  /** Operator routes: the role rule and audit action (requireAccessRules). */
  access?: DeclaredRole;
  platform?: true;
  auditAction?: string;
  /** Merchant routes: the key's budget (app.ts). */
  rateLimit?: MerchantAccess['rateLimit'];
  declaration: {
    access: RouteAccess;
    rejectedMayWrite?: RejectedMayWrite;
    /** The declaration's `opendelivery.refusedAction`, read by answerRefusal. */
    refusedAction?: ProfileMapping['refusedAction'];
  };
}

/** D28.3 in the reader's words; decision numbers are taken out of the published text. */
const REFUSED_NOTE =
  'An action the order’s state does not allow is refused with 400 `{title, status}` for a `cleaver` key and 422 ' +
  'for an `opendelivery` key (application/problem+json); 404 when the order is not one of the merchant’s; 409 when ' +
  'another action on the same order is being applied at that moment (retry).';
const REFUSED_400 = { ...ErrorRef, description: 'Invalid body; for a cleaver key also a refused action (D7)' };
const REFUSED_422 = 'opendelivery key (D28): the order already has this event, or its state does not allow it';

/** The security scheme of /openapi.json the caller uses (operator routes get theirs by prefix, plugins/openapi.ts). */
function securityOf(access: RouteAccess): Array<Record<string, string[]>> | undefined {
  if ('role' in access) return undefined;
  if (access.caller === 'merchant') return [{ bearer: [] }];
  if (access.caller === 'logistics') return [{ xAppSignature: [] }];
  return access.bearer ? [{ bearer: [] }] : [];
}

/** The schema as published: the words, the security scheme and the answers of the profile mapping. */
function publishedSchema<S extends FastifySchema>(declaration: RouteDeclaration<S>): S {
  const { access, summary, opendelivery, schema } = declaration;
  const refused = opendelivery?.refusedAction;
  const description = refused
    ? [declaration.description, REFUSED_NOTE].filter(Boolean).join(' ')
    : declaration.description;
  const response = refused
    ? {
        ...(schema.response as object),
        400: REFUSED_400,
        422: { ...(refused.body422 ?? ErrorRef), description: REFUSED_422 },
      }
    : schema.response;
  const security = securityOf(access);
  return {
    ...schema,
    summary,
    ...(description ? { description } : {}),
    ...(security ? { security } : {}),
    ...(response ? { response } : {}),
    ...(opendelivery?.answers ? { dialectResponses: opendelivery.answers } : {}),
  } as S;
}

/** The Fastify route options of a declaration: `app.route(declareRoute({ … }))`. */
export function declareRoute<S extends FastifySchema>(declaration: RouteDeclaration<S>): DeclaredRouteOptions<S> {
  const { method, url, access, rejectedMayWrite, bodyLimit, attachValidation, preValidation, handler } = declaration;
  const refusedAction = declaration.opendelivery?.refusedAction;
  const config: DeclaredRouteConfig = {
    ...('role' in access
      ? {
          access: access.role,
          ...(access.platform ? { platform: true as const } : {}),
          ...(access.auditAction ? { auditAction: access.auditAction } : {}),
        }
      : {}),
    ...('rateLimit' in access && access.rateLimit !== 'perIp' ? { rateLimit: access.rateLimit } : {}),
    declaration: {
      access,
      ...(rejectedMayWrite ? { rejectedMayWrite } : {}),
      ...(refusedAction ? { refusedAction } : {}),
    },
  };
  return {
    method,
    url,
    schema: publishedSchema(declaration),
    config: config as never,
    ...(bodyLimit ? { bodyLimit } : {}),
    ...(attachValidation ? { attachValidation } : {}),
    ...(preValidation ? { preValidation } : {}),
    handler,
  };
}

/**
 * D28.3, the one place a refused action gets its dialect: an `opendelivery` key on a route that
 * declares `opendelivery.refusedAction` is answered 422, with the refusal's `detail` when the route
 * declares `body422`; every other caller (a `cleaver` key, the operator API and the console, which
 * have no principal, a route without it) gets the refusal as it is, 400 `{title, status}` (D7).
 * Called by the error handler (plugins/error-handler.ts), so only a refused request pays for it.
 */
export function answerRefusal(refusal: Refusal, request: FastifyRequest): AppError {
  const principal = (request as { principal?: { profile?: string } }).principal;
  if (principal?.profile !== 'opendelivery') return refusal;
  const config = request.routeOptions.config as Partial<DeclaredRouteConfig> | undefined;
  const declared = config?.declaration?.refusedAction;
  if (!declared) return refusal;
  return new AppError(422, refusal.title, declared.body422 && refusal.detail ? { body: refusal.detail } : {});
}

export interface DeclaredRoute {
  method: string;
  /** As registered, with its scope's prefix (`/v1/orders/:orderId`, `/v1/events::polling`). */
  url: string;
  /** The same path as /openapi.json writes it (`/v1/orders/{orderId}`, `/v1/events:polling`). */
  path: string;
  access: RouteAccess;
  rejectedMayWrite: Required<RejectedMayWrite>;
}

// Every declared route, per app (keyed by its HTTP server, which all scopes share): the suites
// enumerate them at test time, so a new route is tested without anyone listing it.
const declaredRoutes = new WeakMap<object, DeclaredRoute[]>();

/** The declared routes of an app, as its scopes registered them (HEAD routes left out). */
export function declaredRoutesOf(app: FastifyInstance): DeclaredRoute[] {
  return [...(declaredRoutes.get(app.server) ?? [])];
}

/** `/v1/orders/:orderId` → `/v1/orders/{orderId}`; `/v1/events::polling` → `/v1/events:polling`. */
export const openApiPath = (url: string) =>
  url
    .split('::')
    .map((part) => part.replace(/:(\w+)/g, '{$1}'))
    .join(':');

/**
 * onRoute hook of a scope of app.ts: every route in it is declared (declareRoute) for `caller`;
 * any other stops the start, so a route cannot be added without saying who may call it.
 */
export function requireDeclaredRoutes(scope: FastifyInstance, caller: Caller): void {
  const seen = declaredRoutes.get(scope.server) ?? [];
  declaredRoutes.set(scope.server, seen);
  scope.addHook('onRoute', (route: RouteOptions) => {
    const declaration = (route.config as Partial<DeclaredRouteConfig> | undefined)?.declaration;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!declaration || callerOf(declaration.access) !== caller) {
      throw new Error(
        `${methods.join(',')} ${route.url} is not declared for ${caller} callers: declare it with declareRoute (src/lib/route-declaration.ts)`,
      );
    }
    for (const method of methods) {
      if (method === 'HEAD') continue;
      seen.push({
        method,
        url: route.url,
        path: openApiPath(route.url),
        access: declaration.access,
        rejectedMayWrite: {
          update: declaration.rejectedMayWrite?.update ?? [],
          append: declaration.rejectedMayWrite?.append ?? [],
        },
      });
    }
  });
}
