// The page frame every console page shares: landmarks, navigation, logout form, assets (all local).
import type { CleaverEnv } from '../config.js';
import { type Html, html } from './html.js';
import { COMMON_ZONES, DEFAULT_ZONE } from './time-zone.js';

export type Section = 'merchants' | 'orders' | 'webhooks' | 'sandbox' | 'operators' | 'audit' | 'account';

export interface PageContext {
  env: CleaverEnv;
  csrfToken: string;
  /** Which navigation entries exist (a section whose service is missing is left out). */
  sections: Section[];
  /** Who is logged in (email or `bootstrap-token`) and with which role. */
  actor?: { name: string; role: string };
  /**
   * Whether the logged-in role may use a console route (`POST /console/merchants`): forms the
   * role cannot submit are left out of the page (the route would answer 403 anyway).
   */
  can(route: string): boolean;
  /** The zone every time on the page is written in (time-zone.ts). */
  timeZone?: string;
}

const LABELS: Record<Section, string> = {
  merchants: 'Merchants',
  orders: 'Orders',
  webhooks: 'Webhooks',
  sandbox: 'Sandbox',
  operators: 'Operators',
  audit: 'Audit',
  account: 'Account',
};

/** Which zone the page's times are in, and a GET form to pick another (no script needed). */
function zonePicker(zone: string): Html {
  const zones = COMMON_ZONES.includes(zone) ? COMMON_ZONES : [zone, ...COMMON_ZONES];
  return html`<form class="tz" method="get" aria-label="Time zone">
      <label for="tz-pick" class="small">Times in</label>
      <select id="tz-pick" name="tz">${zones.map((z) => html`<option${z === zone ? html` selected` : ''}>${z}</option>`)}</select>
      <button type="submit" class="link-button">Set</button>
    </form>`;
}

/** The hidden CSRF field of every form (synchronizer token tied to the session). */
export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

function head(title: string): Html {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Cleaver console</title>
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>`;
}

export function page(
  ctx: PageContext,
  opts: { title: string; active?: Section; notice?: Html | string; error?: string },
  body: Html,
): Html {
  return html`<!doctype html>
<html lang="en">
${head(opts.title)}
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="top">
  <nav class="nav" aria-label="Main">
    <a class="brand" href="/console/merchants">Cleaver <span class="env env-${ctx.env}">${ctx.env}</span></a>
    <ul>
      ${ctx.sections.map(
        (s) =>
          html`<li><a href="/console/${s}"${opts.active === s ? html` aria-current="page"` : ''}>${LABELS[s]}</a></li>`,
      )}
    </ul>
    ${ctx.actor ? html`<span class="whoami">${ctx.actor.name} <span class="badge badge-muted">${ctx.actor.role}</span></span>` : ''}
    ${zonePicker(ctx.timeZone ?? DEFAULT_ZONE)}
    <form class="logout" method="post" action="/console/logout">
      ${csrfField(ctx.csrfToken)}
      <button type="submit" class="link-button">Log out</button>
    </form>
  </nav>
</header>
<main id="main" tabindex="-1">
  <h1>${opts.title}</h1>
  ${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
  ${opts.error ? html`<p class="alert" role="alert">${opts.error}</p>` : ''}
  ${body}
</main>
</body>
</html>`;
}

/**
 * The login page: the only page without a session. Operators sign in with email, password and
 * (when enrolled) a one-time code; the bootstrap token (CLEAVER_ADMIN_TOKEN) has its own form.
 */
export function loginPage(opts: {
  csrfToken: string;
  next: string;
  error?: string;
  /** Which form the error belongs to. */
  errorOn?: 'password' | 'token';
  email?: string;
  env: CleaverEnv;
}): Html {
  const errorOn = opts.error ? (opts.errorOn ?? 'token') : undefined;
  const invalid = (form: 'password' | 'token') =>
    errorOn === form ? html`aria-describedby="login-error" aria-invalid="true"` : '';
  const hidden = html`<input type="hidden" name="_csrf" value="${opts.csrfToken}">
    <input type="hidden" name="next" value="${opts.next}">`;
  return html`<!doctype html>
<html lang="en">
${head('Log in')}
<body class="login-body">
<main id="main" class="login">
  <h1>Cleaver console <span class="env env-${opts.env}">${opts.env}</span></h1>
  ${opts.error ? html`<p class="alert" role="alert" id="login-error">${opts.error}</p>` : ''}
  <form method="post" action="/console/login" class="stack" aria-labelledby="op-login-h">
    <h2 id="op-login-h" class="h3">Operator account</h2>
    ${hidden}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" value="${opts.email ?? ''}" required ${invalid('password')}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required ${invalid('password')}>
    <label for="code">One-time code (if enabled)</label>
    <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8">
    <button type="submit">Sign in</button>
  </form>
  <form method="post" action="/console/login" class="stack" aria-labelledby="token-login-h">
    <h2 id="token-login-h" class="h3">Bootstrap token</h2>
    <p class="muted small">For the first login and for automation: <code>CLEAVER_ADMIN_TOKEN</code>.</p>
    ${hidden}
    <label for="token">Operator token</label>
    <input id="token" name="token" type="password" autocomplete="off" required ${invalid('token')}>
    <button type="submit">Log in</button>
  </form>
</main>
</body>
</html>`;
}

/** An error as a page (console routes never answer JSON). */
export function errorPage(ctx: PageContext | undefined, status: number, title: string, extra?: Html): Html {
  const body = html`<p class="alert" role="alert">${title}</p>
${extra ?? ''}
<p><a href="/console/merchants">Back to the console</a></p>`;
  if (ctx) return page(ctx, { title: `Error ${status}` }, body);
  return html`<!doctype html>
<html lang="en">
${head(`Error ${status}`)}
<body class="login-body"><main id="main" class="login"><h1>Error ${status}</h1>${body}</main></body>
</html>`;
}
