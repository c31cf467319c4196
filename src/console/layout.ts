// The page frame every console page shares: landmarks, navigation, the operator's menu (account,
// time zone, language, logout), the banner of webhook endpoints in trouble, assets (all local).
import type { CleaverEnv } from '../config.js';
import { type Html, html, path, query, time } from './html.js';
import { LANG_NAMES, LANGS, type Lang } from './i18n.js';
import type { Messages } from './messages/en.js';
import { COMMON_ZONES, DEFAULT_ZONE } from './time-zone.js';

export type Section =
  | 'merchants'
  | 'orders'
  | 'webhooks'
  | 'notices'
  | 'homologations'
  | 'sandbox'
  | 'operators'
  | 'audit'
  | 'account';

/** What even a page without a session (login, errors) knows: the language and where it is. */
export interface BaseContext {
  env: CleaverEnv;
  lang: Lang;
  /** The message catalog of `lang`. */
  t: Messages;
  /** The page to come back to after switching language (a console GET path). */
  here: string;
}

/** Webhook endpoints failing or disabled now: the banner on every page. */
export interface Attention {
  total: number;
  examples: Array<{ merchantId: string; name: string; state: 'failing' | 'disabled'; since: Date | null }>;
}

export interface PageContext extends BaseContext {
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
  attention?: Attention;
}

/** Which zone the page's times are in, and a GET form to pick another (no script needed). */
function zonePicker(t: Messages, zone: string, here: string): Html {
  const zones = COMMON_ZONES.includes(zone) ? COMMON_ZONES : [zone, ...COMMON_ZONES];
  const url = new URL(here, 'http://x');
  const keep = [...url.searchParams].filter(([k]) => k !== 'tz' && k !== 'cursor');
  return html`<form class="tz" method="get" action="${url.pathname}" aria-label="${t.frame.timeZone}">
      ${keep.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
      <label for="tz-pick">${t.frame.timesIn}</label>
      <select id="tz-pick" name="tz">${zones.map((z) => html`<option${z === zone ? html` selected` : ''}>${z}</option>`)}</select>
      <button type="submit" class="small">${t.frame.setZone}</button>
    </form>`;
}

/** Links to the other language (GET /console/language remembers the choice and comes back). */
export function langSwitch(base: BaseContext): Html {
  return html`<p class="langs" aria-label="${base.t.frame.language}">${LANGS.map((l, i) =>
    l === base.lang
      ? html`${i ? ' · ' : ''}<strong lang="${l}" aria-current="true">${LANG_NAMES[l]}</strong>`
      : html`${i ? ' · ' : ''}<a href="/console/language${query({ lang: l, next: base.here })}" lang="${l}" hreflang="${l}">${LANG_NAMES[l]}</a>`,
  )}</p>`;
}

/** The hidden CSRF field of every form (synchronizer token tied to the session). */
export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

function head(base: BaseContext, title: string): Html {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${base.t.frame.product}</title>
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>`;
}

/** The banner of endpoints in trouble: names the first few, links to them and to the webhooks page. */
function attentionBanner(ctx: PageContext): Html {
  const a = ctx.attention;
  if (!a || a.total === 0) return html``;
  const t = ctx.t.attention;
  const named = a.examples.map(
    (e, i) =>
      html`${i ? ', ' : ''}<a href="${path`/console/merchants/${e.merchantId}`}">${e.name}</a> (${e.state === 'disabled' ? t.disabled : html`${t.failingSince} ${time(e.since)}`})`,
  );
  // A landmark of its own, not a live region: it is the state of things when the page was made.
  return html`<aside class="attention" aria-label="${t.label}"><div class="attention-inner">
  <strong>${t.heading(a.total)}</strong> ${named}${a.total > a.examples.length ? ` ${t.more(a.total - a.examples.length)}` : ''}.
  <a href="/console/webhooks#endpoints">${t.see}</a>
</div></aside>`;
}

export function page(
  ctx: PageContext,
  opts: { title: string; active?: Section; notice?: Html | string; error?: Html | string },
  body: Html,
): Html {
  const t = ctx.t;
  return html`<!doctype html>
<html lang="${ctx.lang}">
${head(ctx, opts.title)}
<body data-msg-expired="${t.frame.sessionExpired}" data-msg-copied="${t.common.copied}">
<a class="skip-link" href="#main">${t.frame.skip}</a>
<header class="top">
  <nav class="nav" aria-label="${t.frame.mainNav}">
    <a class="brand" href="/console/merchants">Cleaver <span class="env env-${ctx.env}">${ctx.env}</span></a>
    <ul class="sections">
      ${ctx.sections
        .filter((s) => s !== 'account')
        .map(
          (s) =>
            html`<li><a href="/console/${s}"${opts.active === s ? html` aria-current="page"` : ''}>${t.sections[s]}</a></li>`,
        )}
    </ul>
    <details class="menu">
      <summary><span class="visually-hidden">${t.frame.menu}: </span><span class="who">${ctx.actor?.name ?? ''}</span>
        ${ctx.actor ? html`<span class="badge badge-muted">${t.roles[ctx.actor.role as keyof Messages['roles']] ?? ctx.actor.role}</span>` : ''}</summary>
      <div class="menu-panel">
        <a href="/console/account"${opts.active === 'account' ? html` aria-current="page"` : ''}>${t.sections.account}</a>
        ${zonePicker(t, ctx.timeZone ?? DEFAULT_ZONE, ctx.here)}
        ${langSwitch(ctx)}
        <form class="logout" method="post" action="/console/logout">
          ${csrfField(ctx.csrfToken)}
          <button type="submit" class="link-button">${t.frame.logout}</button>
        </form>
      </div>
    </details>
  </nav>
</header>
${attentionBanner(ctx)}
<main id="main" tabindex="-1">
  <h1>${opts.title}</h1>
  ${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
  ${opts.error ? html`<div class="alert" role="alert">${opts.error}</div>` : ''}
  ${body}
</main>
</body>
</html>`;
}

/**
 * The login page: the only page without a session. Operators sign in with email, password and
 * (when enrolled) a one-time code; the bootstrap token (CLEAVER_ADMIN_TOKEN) has its own form.
 * A refused login's message is shown inside the form that was used.
 */
export function loginPage(
  base: BaseContext,
  opts: {
    csrfToken: string;
    next: string;
    error?: string;
    /** Which form the error belongs to. */
    errorOn?: 'password' | 'token';
    email?: string;
  },
): Html {
  const t = base.t.login;
  const errorOn = opts.error ? (opts.errorOn ?? 'token') : undefined;
  const errorOf = (form: 'password' | 'token') =>
    errorOn === form ? html`<p class="alert" role="alert" id="login-error-${form}">${opts.error}</p>` : '';
  const invalid = (form: 'password' | 'token') =>
    errorOn === form ? html`aria-describedby="login-error-${form}" aria-invalid="true"` : '';
  const hidden = html`<input type="hidden" name="_csrf" value="${opts.csrfToken}">
    <input type="hidden" name="next" value="${opts.next}">`;
  return html`<!doctype html>
<html lang="${base.lang}">
${head(base, t.title)}
<body class="login-body">
<main id="main" class="login">
  <div class="login-top">${langSwitch(base)}</div>
  <h1>${base.t.frame.product} <span class="env env-${base.env}">${base.env}</span></h1>
  <form method="post" action="/console/login" class="stack" aria-labelledby="op-login-h">
    <h2 id="op-login-h" class="h3">${t.accountHeading}</h2>
    ${errorOf('password')}
    ${hidden}
    <label for="email">${t.email}</label>
    <input id="email" name="email" type="email" autocomplete="username" value="${opts.email ?? ''}" required ${invalid('password')}>
    <label for="password">${t.password}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required ${invalid('password')}>
    <label for="code">${t.code}</label>
    <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8">
    <button type="submit">${t.signIn}</button>
  </form>
  <form method="post" action="/console/login" class="stack" aria-labelledby="token-login-h">
    <h2 id="token-login-h" class="h3">${t.tokenHeading}</h2>
    ${errorOf('token')}
    <p class="muted small">${t.tokenHelp} <code>CLEAVER_ADMIN_TOKEN</code>.</p>
    ${hidden}
    <label for="token">${t.token}</label>
    <input id="token" name="token" type="password" autocomplete="off" required ${invalid('token')}>
    <button type="submit">${t.logIn}</button>
  </form>
</main>
</body>
</html>`;
}

/**
 * An error as a page (console routes never answer JSON): a translated explanation of the status,
 * the message (the console's own in the operator's language; a service's refusal as the API
 * words it, which the spec fixes in English), and what to do next.
 */
export function errorPage(
  base: BaseContext,
  ctx: PageContext | undefined,
  status: number,
  message: { text?: string; apiTitle?: string },
  extra?: Html,
): Html {
  const t = base.t.errors;
  const heading = t.headings[String(status) as keyof Messages['errors']['headings']] ?? t.headings.other;
  const explain = t.explain[String(status) as keyof Messages['errors']['explain']] ?? t.explain.other;
  const body = html`<div class="alert" role="alert"><p>${message.text ?? explain}</p>${
    message.apiTitle ? html`<p class="small">${t.serviceSaid} <q lang="en">${message.apiTitle}</q></p>` : ''
  }</div>
${extra ?? ''}
<p><a href="/console/merchants">${t.back}</a></p>`;
  if (ctx) return page(ctx, { title: heading }, body);
  return html`<!doctype html>
<html lang="${base.lang}">
${head(base, heading)}
<body class="login-body"><main id="main" class="login"><div class="login-top">${langSwitch(base)}</div><h1>${heading}</h1>${body}</main></body>
</html>`;
}
