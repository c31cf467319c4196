// The page frame every console page shares: landmarks, navigation, logout form, assets (all local).
import type { CleaverEnv } from '../config.js';
import { type Html, html } from './html.js';

export type Section = 'merchants' | 'orders' | 'webhooks' | 'sandbox';

export interface PageContext {
  env: CleaverEnv;
  csrfToken: string;
  /** Which navigation entries exist (a section whose service is missing is left out). */
  sections: Section[];
}

const LABELS: Record<Section, string> = {
  merchants: 'Merchants',
  orders: 'Orders',
  webhooks: 'Webhooks',
  sandbox: 'Sandbox',
};

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

/** The login page: the only page without a session. */
export function loginPage(opts: { csrfToken: string; next: string; error?: string; env: CleaverEnv }): Html {
  return html`<!doctype html>
<html lang="en">
${head('Log in')}
<body class="login-body">
<main id="main" class="login">
  <h1>Cleaver console <span class="env env-${opts.env}">${opts.env}</span></h1>
  <p>Operators sign in with the operator token (<code>CLEAVER_ADMIN_TOKEN</code>).</p>
  ${opts.error ? html`<p class="alert" role="alert" id="login-error">${opts.error}</p>` : ''}
  <form method="post" action="/console/login" class="stack">
    <input type="hidden" name="_csrf" value="${opts.csrfToken}">
    <input type="hidden" name="next" value="${opts.next}">
    <label for="token">Operator token</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required
      ${opts.error ? html`aria-describedby="login-error" aria-invalid="true"` : ''}>
    <button type="submit">Log in</button>
  </form>
</main>
</body>
</html>`;
}

/** An error as a page (console routes never answer JSON). */
export function errorPage(ctx: PageContext | undefined, status: number, title: string): Html {
  const body = html`<p class="alert" role="alert">${title}</p>
<p><a href="/console/merchants">Back to the console</a></p>`;
  if (ctx) return page(ctx, { title: `Error ${status}` }, body);
  return html`<!doctype html>
<html lang="en">
${head(`Error ${status}`)}
<body class="login-body"><main id="main" class="login"><h1>Error ${status}</h1>${body}</main></body>
</html>`;
}
