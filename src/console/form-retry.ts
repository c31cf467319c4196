// A form refused with 400 keeps what the operator typed: the error page carries the same form,
// filled in, with the field at fault marked invalid and focused, so fixing one value is one edit
// and one click (no script). Each field is labelled in the operator's words (messages: `fields`);
// a value the operator did not type (a hidden field, a choice) goes back as it came, unseen.
// Secrets are never echoed and must be typed again.
import type { FastifyRequest } from 'fastify';
import { formOf } from './console-kit.js';
import { type Html, html } from './html.js';
import { csrfField, type PageContext } from './layout.js';

/** Fields never written back into a page: credentials, one-time codes, the CSRF token. */
const SECRET = /password|token|secret|code$|^_csrf$|^confirm$/i;

export function retryForm(request: FastifyRequest, ctx: PageContext, message: string, field?: string): Html {
  if (request.method !== 'POST' || !ctx.csrfToken) return html``;
  const labels = ctx.t.fields as Record<string, string>;
  const fields = Object.entries(formOf(request)).filter(([name]) => !SECRET.test(name));
  const shown = fields.filter(([name]) => Object.hasOwn(labels, name));
  if (shown.length === 0) return html``;
  return html`<section class="panel" aria-labelledby="retry-h">
  <h2 id="retry-h" class="h3">${ctx.t.errors.yourInput}</h2>
  <form method="post" action="${request.url}" class="inline-form">
    ${csrfField(ctx.csrfToken)}
    ${fields.map(([name, value]) => {
      if (!Object.hasOwn(labels, name)) return html`<input type="hidden" name="${name}" value="${value}">`;
      const invalid = name === field;
      return html`<div class="field"><label for="retry-${name}">${labels[name]}</label>
      <input id="retry-${name}" name="${name}" value="${value}"${invalid ? html` aria-invalid="true" aria-describedby="retry-error" autofocus` : ''}></div>`;
    })}
    <button type="submit">${ctx.t.errors.tryAgain}</button>
  </form>
  <p id="retry-error" class="visually-hidden">${message}</p>
</section>`;
}
