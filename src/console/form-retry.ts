// A form refused with 400 keeps what the operator typed: the error page carries the same form,
// filled in, with the field the error names marked invalid and focused, so fixing one value
// is one edit and one click (no script; secrets are never echoed and must be typed again).
import type { FastifyRequest } from 'fastify';
import { formOf } from './console-kit.js';
import { type Html, html } from './html.js';
import { csrfField } from './layout.js';

/** Fields never written back into a page: credentials, one-time codes, the CSRF token. */
const SECRET = /password|token|secret|code$|^_csrf$|^confirm$/i;

export function retryForm(request: FastifyRequest, title: string, csrfToken: string): Html {
  if (request.method !== 'POST' || !csrfToken) return html``;
  const fields = Object.entries(formOf(request)).filter(([name]) => !SECRET.test(name));
  if (fields.length === 0) return html``;
  // The error names its field first ("price must be …"): that one is marked.
  const named = /^([A-Za-z_][\w.]*)\b/.exec(title)?.[1];
  return html`<section class="panel" aria-labelledby="retry-h">
  <h2 id="retry-h" class="h3">Your input</h2>
  <form method="post" action="${request.url}" class="inline-form">
    ${csrfField(csrfToken)}
    ${fields.map(([name, value]) => {
      const invalid = name === named;
      return html`<div class="field"><label for="retry-${name}">${name}</label>
      <input id="retry-${name}" name="${name}" value="${value}"${invalid ? html` aria-invalid="true" aria-describedby="retry-error" autofocus` : ''}></div>`;
    })}
    <button type="submit">Try again</button>
  </form>
  <p id="retry-error" class="visually-hidden">${title}</p>
</section>`;
}
