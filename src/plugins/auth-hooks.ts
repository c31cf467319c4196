import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { reportDatabaseOutage } from '../db/failover.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { requireDeclaredRoutes } from '../lib/route-declaration.js';
import { type AuthService, bearerToken, type Principal } from '../modules/auth/index.js';
import {
  type Access,
  type Actor,
  type AuditService,
  allows,
  auditDetails,
  auditTarget,
  type Channel,
  type OperatorsService,
} from '../modules/operators/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant integration behind the bearer token; set by merchantAuth. */
    principal: Principal;
    /** The operator behind an /admin/v1 bearer token or a console session; set by their auth hooks. */
    actor: Actor;
    /** Why a console action failed, for its audit entry (the console answers HTML, not JSON). */
    auditReason?: string;
    /** The console answered with a confirmation step: nothing was done, nothing to audit. */
    awaitingConfirmation?: boolean;
  }
}

/**
 * What the last request of a connection authenticated with. A POS sends every request of a
 * keep-alive connection with the same header, and comparing two strings costs a fraction of
 * what hashing a 330-character token for the cache costs (docs/benchmarks.md, "Figures of
 * 2026-11-27, eighth session").
 * Equality of the whole header is what makes it safe: another token, even on the same
 * connection (a proxy's), misses and takes the usual path.
 */
interface BearerMemo {
  header: string;
  principal: Principal;
  epoch: number;
}
const BEARER_MEMO = Symbol('cleaver.bearerMemo');
type MemoSocket = { [BEARER_MEMO]?: BearerMemo };

type HookDone = (error?: Error) => void;
type OnRequest = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void;
const passOn: OnRequest = (_request, _reply, done) => done();

/**
 * onRequest hook for every /v1 merchant route (spec 5.1). Callback style so that a cached token
 * costs no promise at all: this runs on every merchant request. `afterAuth` runs once the
 * request is authenticated, within this hook (one hook fewer for Fastify to run).
 */
export function merchantAuth(auth: AuthService, afterAuth: OnRequest = passOn): OnRequest {
  return (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    const header = request.headers.authorization;
    const socket = request.raw.socket as (typeof request.raw.socket & MemoSocket) | null;
    const memo = socket?.[BEARER_MEMO];
    if (memo !== undefined && memo.header === header) {
      // Expiry, revocations and the key's profile are checked again on every request.
      const principal = auth.recheckPrincipal(memo.principal, memo.epoch);
      if (principal) {
        request.principal = principal;
        return afterAuth(request, reply, done);
      }
    }
    let token: string;
    try {
      token = bearerToken(request);
    } catch (error) {
      return done(error as Error);
    }
    const remember = (principal: Principal, epoch: number) => {
      request.principal = principal;
      if (socket) socket[BEARER_MEMO] = { header: header as string, principal, epoch };
    };
    const epoch = auth.principalEpoch();
    const cached = auth.cachedPrincipal(token);
    if (cached) {
      remember(cached, epoch);
      return afterAuth(request, reply, done);
    }
    auth.verifyAccessToken(token).then(
      (principal) => {
        remember(principal, epoch);
        afterAuth(request, reply, done);
      },
      (error: Error) => done(error),
    );
  };
}

// ---------------------------------------------------------------------------------------------
// Operators: authentication, role rules, audit (operator-api.md#authentication,
// operator-api.md#operators-and-audit; docs/security.md).

interface OperatorRouteConfig {
  access?: Access;
  /** D36: the platform role may call it. */
  platform?: boolean;
  /** Audit action of a route that changes something; from its declaration or the rules table. */
  auditAction?: string;
  public?: boolean;
}

const routeConfig = (request: FastifyRequest) => request.routeOptions.config as OperatorRouteConfig;

export interface RuledRoute {
  method: string;
  url: string;
  access: Access;
  action: string | undefined;
  platform: boolean;
}

// Every route that got a rule, per app (keyed by its HTTP server, which all scopes share): the
// role test enumerates them at test time, so a new route is tested without anyone listing it.
const ruledRoutes = new WeakMap<object, RuledRoute[]>();

/** The routes of an app that went through requireAccessRules, with their rules. */
export function ruledRoutesOf(app: FastifyInstance): RuledRoute[] {
  return [...(ruledRoutes.get(app.server) ?? [])];
}

/**
 * onRoute hook: every route of the scope gets its role rule from its own `config.access`: an
 * /admin/v1 route from its declaration (src/lib/route-declaration.ts), a console route from
 * `allow(…)` in its page (src/console/console-access.ts). A route without one stops the start: a
 * new route cannot be added without deciding who may call it.
 */
export function requireAccessRules(scope: FastifyInstance, options: { allowPublic: boolean }): void {
  const seen = ruledRoutes.get(scope.server) ?? [];
  ruledRoutes.set(scope.server, seen);
  scope.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as OperatorRouteConfig;
    const access = config.access;
    for (const method of methods) {
      if (!access) {
        throw new Error(
          `No role rule for ${method} ${route.url}: declare it (declareRoute in src/lib/route-declaration.ts, ` +
            'or allow() in src/console/console-access.ts for a console page)',
        );
      }
      if (access === 'public' && !options.allowPublic) {
        throw new Error(`${method} ${route.url} cannot be public: operator API routes need a role`);
      }
      route.config = { ...config, platform: config.platform === true, public: access === 'public' } as never;
      seen.push({ method, url: route.url, access, action: config.auditAction, platform: config.platform === true });
    }
  });
}

/** 403 when the caller's role is below the route's rule. */
export function checkAccess(request: FastifyRequest): void {
  const { access: needed, platform } = routeConfig(request);
  if (!needed || needed === 'public') return;
  if (!allows(request.actor.role, needed, platform === true)) {
    throw forbidden(`Forbidden: this needs the ${needed} role (yours is ${request.actor.role})`);
  }
}

/** onRequest hook of every /admin/v1 route: CLEAVER_ADMIN_TOKEN or a personal token, then the role rule. */
export function operatorAuth(operators: OperatorsService) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const actor = await operators.authenticateBearer(token);
    if (!actor) throw unauthorized('Invalid operator token');
    request.actor = actor;
    checkAccess(request);
  };
}

/** Fields a viewer never sees, whichever answer carries them (docs/security.md). */
const VIEWER_HIDDEN = new Set(['deliveryCode', 'clientSecret', 'token', 'apiKey', 'password', 'secret']);

function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = VIEWER_HIDDEN.has(k) && typeof v === 'string' ? '****' : maskSecrets(v);
  }
  return out;
}

/**
 * onSend hook of /admin/v1: what a viewer reads loses every secret-named field. (The one thing a
 * viewer may create, its own personal token, is answered whole: it is the viewer's own secret.)
 */
export function hideSecretsFromViewers() {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method !== 'GET' || request.actor?.role !== 'viewer') return payload;
    if (typeof payload !== 'string' || payload === '') return payload;
    if (!String(reply.getHeader('content-type') ?? '').includes('application/json')) return payload;
    return JSON.stringify(maskSecrets(JSON.parse(payload)));
  };
}

const clientIp = (request: FastifyRequest) => request.ip ?? null;
const userAgent = (request: FastifyRequest) => {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua : null;
};

function jsonOf(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return undefined;
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Ids in the path a console action redirects to (`/console/merchants/<id>` → merchantId). */
function idsOfLocation(location: unknown): Record<string, string> {
  const m = typeof location === 'string' ? /^\/console\/(\w+?)s?\/([0-9a-f-]{36})/.exec(location) : null;
  const [, kind, id] = m ?? [];
  return kind && id ? { [`${kind}Id`]: id } : {};
}

/**
 * onSend hook: every request to a route with an audit action, by a known actor, leaves one audit
 * entry with its result, before the answer leaves (so a caller that saw the answer finds the
 * entry). If the entry cannot be written the answer still goes out (the action already happened;
 * a 500 would invite a retry of it) and the failure is logged as an error.
 */
export function auditOperatorActions(audit: AuditService, channel: Channel) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const action = routeConfig(request).auditAction;
    if (!action || !request.actor || request.awaitingConfirmation) return payload;
    const status = reply.statusCode;
    const body = channel === 'api' ? jsonOf(payload) : undefined;
    const created = status < 300 ? body : undefined;
    const reason = status >= 400 ? (request.auditReason ?? (body?.title as string | undefined) ?? null) : null;
    try {
      await audit.record(
        { actor: request.actor, channel, ip: clientIp(request), userAgent: userAgent(request) },
        {
          action,
          statusCode: status,
          reason,
          target: {
            ...auditTarget(action, request.params, created),
            ...(channel === 'console' && status < 400 ? idsOfLocation(reply.getHeader('location')) : {}),
          },
          details: auditDetails(request.body),
        },
      );
    } catch (error) {
      // D46: during a failover this is one warning line for the outage, not a stack per request.
      if (!reportDatabaseOutage(error, `the audit log (${action} not recorded)`)) {
        request.log.error({ err: error, action }, 'audit entry could not be written');
      }
    }
    return payload;
  };
}

/** The audit context of a request (for entries written by hand: logins, logouts). */
export const auditContextOf = (request: FastifyRequest, channel: Channel, actor?: Actor) => ({
  actor,
  channel,
  ip: clientIp(request),
  userAgent: userAgent(request),
});

/** The whole /admin/v1 scope: rules at start; per request auth, role, audit and viewer masking. */
export function useOperatorApiAuth(
  scope: FastifyInstance,
  deps: { operators: OperatorsService; audit: AuditService },
): void {
  requireAccessRules(scope, { allowPublic: false });
  requireDeclaredRoutes(scope, 'operator');
  scope.addHook('onRequest', operatorAuth(deps.operators));
  scope.addHook('onSend', hideSecretsFromViewers());
  scope.addHook('onSend', auditOperatorActions(deps.audit, 'api'));
}
