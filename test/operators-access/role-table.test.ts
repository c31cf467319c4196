// Every role against every /admin/v1 and /console route the app registers, enumerated at test
// time (a route added later is covered without anyone listing it): the observed answer must be
// 403 exactly when the route's rule forbids the role (its declaration for /admin/v1,
// src/lib/route-declaration.ts; allow() on its registration for /console), for the
// operator API (personal tokens) and the console (sessions), and every call of a route with an
// audit action must leave that entry, with its status and caller. The bootstrap token passes
// every rule. The tables in docs/security.md must be those rules: both are written from the
// routes (UPDATE_SECURITY_DOC=1 rewrites them when a route is added or changed).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutesOf } from '../../src/lib/route-declaration.js';
import { allows, ROLES, type Role } from '../../src/modules/operators/index.js';
import { type RuledRoute, ruledRoutesOf } from '../../src/plugins/auth-hooks.js';
import { type ConsoleSession, login, loginAs } from '../console/console-session.js';
import { ADMIN_TOKEN, bearer, createTestApp, type TestApp } from '../support/test-app.js';
import { ADMIN_RULES_BEFORE_DECLARATIONS } from './admin-rules-before-declarations.js';
import { CONSOLE_RULES_BEFORE_DECLARATIONS } from './console-rules-before-declarations.js';
import { createOperator, type TestOperator } from './support.js';

const SECURITY_DOC = new URL('../../docs/security.md', import.meta.url);
const ADMIN_TABLE_START =
  '<!-- admin-routes: written from the route declarations by test/operators-access/role-table.test.ts -->';
const ADMIN_TABLE_END = '<!-- admin-routes end -->';
const CONSOLE_TABLE_START =
  "<!-- console-routes: written from the console routes' allow() by test/operators-access/role-table.test.ts -->";
const CONSOLE_TABLE_END = '<!-- console-routes end -->';

/** A role table of docs/security.md, in the order the app registers the routes. */
function routeTable(admin: RuledRoute[]): string {
  const rows = [
    ['route', 'role', 'audit action'],
    ...admin.map((r) => [
      `\`${r.method} ${r.url}\``,
      `${r.access}${r.platform ? ', platform' : ''}`,
      r.action ? `\`${r.action}\`` : '—',
    ]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n') + '\n';
}

let t: TestApp;
const operators = {} as Record<Role, TestOperator>;
let routes: RuledRoute[];

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_LOGIN: '100000', CLEAVER_RATE_LIMIT_WRITE: '100000' } });
  for (const role of ROLES) operators[role] = await createOperator(t.app, role);
  routes = ruledRoutesOf(t.app).filter((r) => r.method !== 'HEAD');
});
afterAll(() => t.close());

// Ids that exist nowhere: an allowed request is refused for that (404) or for its body (400),
// never carried out, so one request cannot change what the next one sees.
const NO_ID = '0f0e0d0c-0b0a-4908-8706-050403020100';
const urlOf = (pattern: string) => pattern.replace(/:\w+/g, NO_ID);

type Caller = Role | 'bootstrap';
const CALLERS: Caller[] = [...ROLES, 'bootstrap'];
const mayCall = (caller: Caller, route: RuledRoute) =>
  caller === 'bootstrap' || allows(caller, route.access, route.platform);

/** The newest audit entry: every call of a route with an action, allowed or not, must have left it. */
async function newestAudit(): Promise<string> {
  const { rows } = await t.database.db.query<{ action: string; status_code: number; actor: string }>(
    'SELECT action, status_code, actor FROM audit_log ORDER BY id DESC LIMIT 1',
  );
  return rows[0] ? `${rows[0].action} ${rows[0].status_code} ${rows[0].actor}` : 'none';
}
const actorName = (caller: Caller) => (caller === 'bootstrap' ? 'bootstrap-token' : operators[caller].email);

describe('the rules', () => {
  it('cover every registered /admin/v1 and /console route', () => {
    expect(routes.filter((r) => r.url.startsWith('/admin/v1')).length).toBeGreaterThan(30);
    expect(routes.filter((r) => r.url.startsWith('/console')).length).toBeGreaterThan(40);
    // Every rule is the route's own (declareRoute or allow()); the console's are the rows its
    // table had before they moved onto the routes.
    const consoleRules = Object.fromEntries(
      routes
        .filter((r) => r.url.startsWith('/console') && r.method !== 'HEAD')
        .map((r) => [
          `${r.method} ${r.url.length > 1 ? r.url.replace(/\/$/, '') : r.url}`,
          { access: r.access, ...(r.action ? { action: r.action } : {}) },
        ]),
    );
    const kept = Object.fromEntries(Object.keys(CONSOLE_RULES_BEFORE_DECLARATIONS).map((k) => [k, consoleRules[k]]));
    expect(kept).toEqual(CONSOLE_RULES_BEFORE_DECLARATIONS);
  });

  it('declared by the /admin/v1 routes are the rows the role table had for them before', () => {
    const declared = Object.fromEntries(
      routes
        .filter((r) => r.url.startsWith('/admin/v1'))
        .map((r) => [
          `${r.method} ${r.url}`,
          { access: r.access, ...(r.platform ? { platform: true } : {}), ...(r.action ? { action: r.action } : {}) },
        ]),
    );
    // Every row of the old table is declared as it was; a route added since may stand beside them.
    const kept = Object.fromEntries(Object.keys(ADMIN_RULES_BEFORE_DECLARATIONS).map((k) => [k, declared[k]]));
    expect(kept).toEqual(ADMIN_RULES_BEFORE_DECLARATIONS);
  });

  it('give every declared operation of /openapi.json the summary of its declaration', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { summary?: string }>> };
    const declared = declaredRoutesOf(t.app);
    expect(declared.filter((r) => r.url.startsWith('/admin/v1')).length).toBe(
      routes.filter((r) => r.url.startsWith('/admin/v1')).length,
    );
    const unworded = declared.filter((r) => !doc.paths[r.path]?.[r.method.toLowerCase()]?.summary);
    expect(unworded.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('give every change an audit action and no read one', () => {
    for (const r of routes) {
      if (r.access === 'public') continue;
      const changes = r.method !== 'GET';
      expect(r.action !== undefined, `${r.method} ${r.url}`).toBe(changes);
    }
  });

  it('are the tables in docs/security.md, written from the rules the routes declare', () => {
    const tables = [
      { start: ADMIN_TABLE_START, end: ADMIN_TABLE_END, prefix: '/admin/v1' },
      { start: CONSOLE_TABLE_START, end: CONSOLE_TABLE_END, prefix: '/console' },
    ];
    let doc = readFileSync(SECURITY_DOC, 'utf8');
    for (const table of tables) {
      const rows = routeTable(routes.filter((r) => r.url.startsWith(table.prefix) && r.method !== 'HEAD'));
      const start = doc.indexOf(table.start);
      const end = doc.indexOf(table.end);
      expect(start, `docs/security.md has ${table.start}`).toBeGreaterThan(0);
      expect(end).toBeGreaterThan(start);
      const from = start + table.start.length + 1;
      if (process.env.UPDATE_SECURITY_DOC === '1') doc = `${doc.slice(0, from)}${rows}${doc.slice(end)}`;
      else expect(doc.slice(from, end), 'refresh with UPDATE_SECURITY_DOC=1').toBe(rows);
    }
    if (process.env.UPDATE_SECURITY_DOC === '1') writeFileSync(SECURITY_DOC, doc);
  });

  // One hook guards both scopes: the operator API (no public route) and the console (public login).
  it.each([
    { prefix: '/admin/v1', allowPublic: false },
    { prefix: '/console', allowPublic: true },
  ])('refuses to start a $prefix route that does not say who may call it', async ({ prefix, allowPublic }) => {
    const { default: Fastify } = await import('fastify');
    const { requireAccessRules } = await import('../../src/plugins/auth-hooks.js');
    const app = Fastify();
    const start = async () => {
      await app.register(
        async (scope) => {
          requireAccessRules(scope, { allowPublic });
          scope.get('/nobody-decided', async () => 'x');
        },
        { prefix },
      );
      await app.ready();
    };
    await expect(start()).rejects.toThrow(`No role rule for GET ${prefix}/nobody-decided: declare it`);
    await app.close();
  });
});

describe('operator API: every role against every route', () => {
  const headersOf = (caller: Caller) =>
    caller === 'bootstrap' ? bearer(ADMIN_TOKEN) : operators[caller as Role].headers;

  it.each(CALLERS)('%s', async (caller) => {
    const mismatches: string[] = [];
    for (const r of routes.filter((x) => x.url.startsWith('/admin/v1'))) {
      const res = await t.app.inject({ method: r.method as 'GET', url: urlOf(r.url), headers: headersOf(caller) });
      const expected = mayCall(caller, r) ? 'allowed' : 'forbidden';
      const observed = res.statusCode === 403 ? 'forbidden' : 'allowed';
      if (res.statusCode === 403) {
        expect(res.json()).toEqual({
          title: `Forbidden: this needs the ${r.access} role (yours is ${caller})`,
          status: 403,
        });
      }
      if (res.statusCode === 401 || res.statusCode >= 500) mismatches.push(`${r.method} ${r.url}: ${res.statusCode}`);
      if (expected !== observed) mismatches.push(`${r.method} ${r.url}: ${r.access} rule, got ${res.statusCode}`);
      if (r.action) {
        const audited = await newestAudit();
        const wanted = `${r.action} ${res.statusCode} ${actorName(caller)}`;
        if (audited !== wanted) mismatches.push(`${r.method} ${r.url}: audit has ${audited}, not ${wanted}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('console: every role against every route', () => {
  // Routes that end the session they are called with: the caller logs in again after them.
  const ENDS_SESSION = new Set(['POST /console/logout', 'POST /console/account/sessions/revoke']);
  const sessionOf = (caller: Caller) =>
    caller === 'bootstrap' ? login(t.app) : loginAs(t.app, operators[caller].email, operators[caller].password);

  it.each(CALLERS)('%s', async (caller) => {
    let s: ConsoleSession = await sessionOf(caller);
    const mismatches: string[] = [];
    for (const r of routes.filter((x) => x.url.startsWith('/console') && x.access !== 'public')) {
      const url = urlOf(r.url);
      // `confirm=yes`: destructive actions skip their confirmation page (confirm-step.ts) and run.
      const res = r.method === 'GET' ? await s.get(url) : await s.post(url, { confirm: 'yes' });
      const expected = mayCall(caller, r) ? 'allowed' : 'forbidden';
      const observed = res.statusCode === 403 ? 'forbidden' : 'allowed';
      if (res.statusCode === 403) {
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain(`Forbidden: this needs the ${r.access} role (yours is ${caller})`);
      }
      // A redirect to the login page would mean the session was lost, not a decision on the role.
      if (
        res.statusCode === 303 &&
        String(res.headers.location).startsWith('/console/login') &&
        !ENDS_SESSION.has(`${r.method} ${r.url}`)
      ) {
        mismatches.push(`${r.method} ${r.url}: sent to login`);
      }
      if (res.statusCode >= 500) mismatches.push(`${r.method} ${r.url}: ${res.statusCode}`);
      if (expected !== observed) mismatches.push(`${r.method} ${r.url}: ${r.access} rule, got ${res.statusCode}`);
      if (r.action) {
        const audited = await newestAudit();
        const wanted = `${r.action} ${res.statusCode} ${actorName(caller)}`;
        if (audited !== wanted) mismatches.push(`${r.method} ${r.url}: audit has ${audited}, not ${wanted}`);
      }
      if (ENDS_SESSION.has(`${r.method} ${r.url}`)) s = await sessionOf(caller);
    }
    expect(mismatches).toEqual([]);
  });
});
