// The audit log: who did what, when, from where, with which result. Writers hand over ids and a
// few plain fields; `auditDetails` and `auditTarget` keep an allow-list, so that a password, a
// token, a client secret or an apiKey cannot reach the log even when it is in the request.
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import * as repo from './audit-repository.js';
import type { Actor } from './operators-service.js';

export interface AuditContext {
  actor: Actor | undefined;
  channel: repo.Channel;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditRecord {
  action: string;
  statusCode: number;
  reason?: string | null;
  target?: Record<string, string>;
  details?: Record<string, unknown>;
  /** For failed logins: who it was meant to be, when that is known. */
  anonymous?: { email?: string; operatorId?: string };
}

/** Plain, non-secret request fields that say what was asked (never credentials). */
const DETAIL_FIELDS = new Set([
  'name',
  'status',
  'role',
  'disabled',
  'decision',
  'eventType',
  'pickupArea',
  'email',
  'expiresAt',
  'type',
  'profile',
  'merchantIds',
  'reason',
  'unit',
  'price',
]);
const MAX_TEXT = 200;

function plain(value: unknown): unknown {
  if (typeof value === 'string') return value.slice(0, MAX_TEXT);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value))
    return value
      .filter((v) => typeof v === 'string')
      .slice(0, 50)
      .map((v) => plain(v));
  return undefined;
}

/** The allow-listed fields of a request body (or form), truncated; anything else is dropped. */
export function auditDetails(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (!DETAIL_FIELDS.has(k)) continue;
    const p = plain(v);
    if (p !== undefined) out[k] = p;
  }
  return out;
}

const ID_RE = /^[0-9A-Za-z-]{1,64}$/;

/** Ids only: route parameters named `…Id`/`id`, and the ids a creation answered with. */
export function auditTarget(
  action: string,
  params: unknown,
  created: Record<string, unknown> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  const family = action.split('.')[0];
  // `id` in a path is the operator of /operators/:id (also for its tokens); in an answer, the
  // thing created (an operator token's `id` is the token).
  const named = (k: string, created: boolean) => {
    if (k !== 'id') return k;
    if (family === 'operatorToken') return created ? 'tokenId' : 'operatorId';
    return `${family}Id`;
  };
  for (const [source, isCreated] of [
    [params, false],
    [created, true],
  ] as const) {
    if (!source || typeof source !== 'object') continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      if ((k === 'id' || k.endsWith('Id')) && typeof v === 'string' && ID_RE.test(v)) out[named(k, isCreated)] ??= v;
    }
  }
  return out;
}

export interface AuditView {
  id: string;
  at: string;
  actor: string;
  actorType: repo.ActorKind;
  operatorId: string | null;
  tokenId: string | null;
  role: string | null;
  channel: repo.Channel;
  action: string;
  target: Record<string, string>;
  details: Record<string, unknown>;
  result: { status: number; outcome: 'success' | 'failure'; reason: string | null };
  ip: string | null;
  userAgent: string | null;
}

export function toAuditView(r: repo.AuditRow): AuditView {
  return {
    id: String(r.id),
    at: r.at.toISOString(),
    actor: r.actor,
    actorType: r.actor_kind,
    operatorId: r.operator_id,
    tokenId: r.token_id,
    role: r.role,
    channel: r.channel,
    action: r.action,
    target: r.target,
    details: r.details,
    result: { status: r.status_code, outcome: r.outcome, reason: r.reason },
    ip: r.ip,
    userAgent: r.user_agent,
  };
}

export interface AuditQuery {
  actor?: string;
  action?: string;
  since?: string;
  until?: string;
  limit?: number;
  cursor?: string;
}

/** Opaque cursors: the id of the last entry of a page. */
const encodeCursor = (id: number) => Buffer.from(`audit:${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const m = /^audit:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badRequest('cursor is not valid: use the one from the Link header');
  return Number(m[1]);
}

function filterOf(q: AuditQuery): repo.AuditFilter {
  const date = (value: string | undefined, field: string) => {
    if (value === undefined) return undefined;
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) throw badRequest(`${field} must be a date-time`);
    return d;
  };
  return {
    actor: q.actor?.trim() || undefined,
    action: q.action?.trim() || undefined,
    since: date(q.since, 'since'),
    until: date(q.until, 'until'),
  };
}

const EXPORT_PAGE = 500;

export function createAuditService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async record(ctx: AuditContext, r: AuditRecord): Promise<void> {
      const a = ctx.actor;
      await repo.insertAudit(db, {
        at: clock.now(),
        actorKind: a?.kind ?? 'anonymous',
        actor: a?.actor ?? r.anonymous?.email ?? 'anonymous',
        operatorId: a?.operatorId ?? r.anonymous?.operatorId ?? null,
        tokenId: a?.tokenId ?? null,
        role: a?.role ?? null,
        channel: ctx.channel,
        action: r.action,
        target: r.target ?? {},
        details: r.details ?? {},
        statusCode: r.statusCode,
        outcome: r.statusCode < 400 ? 'success' : 'failure',
        reason: r.reason ? r.reason.slice(0, 500) : null,
        ip: ctx.ip,
        userAgent: ctx.userAgent ? ctx.userAgent.slice(0, 300) : null,
      });
    },

    /** One page, newest first, and the cursor of the next page when there is one. */
    async list(q: AuditQuery): Promise<{ entries: AuditView[]; next?: string }> {
      const limit = q.limit ?? 100;
      const rows = await repo.listAudit(db, filterOf(q), {
        limit: limit + 1,
        after: q.cursor ? decodeCursor(q.cursor) : undefined,
        order: 'desc',
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { entries: page.map(toAuditView), next: rows.length > limit && last ? encodeCursor(last.id) : undefined };
    },

    /** Every matching entry, oldest first, read a page at a time (constant memory). */
    async *export(q: AuditQuery): AsyncGenerator<AuditView> {
      const filter = filterOf(q);
      let after: number | undefined;
      for (;;) {
        const rows = await repo.listAudit(db, filter, { limit: EXPORT_PAGE, after, order: 'asc' });
        for (const r of rows) yield toAuditView(r);
        const last = rows.at(-1);
        if (rows.length < EXPORT_PAGE || last === undefined) return;
        after = last.id;
      }
    },

    /** Validates a query before a stream starts (a bad filter is a 400, not a broken stream). */
    checkQuery: (q: AuditQuery) => {
      filterOf(q);
      if (q.cursor) decodeCursor(q.cursor);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
