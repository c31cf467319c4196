// The console's link from an event or a webhook delivery to its trace (docs/operations.md,
// "Tracing"): the trace id as text, and a link into the operator's trace viewer when
// CLEAVER_TRACE_URL_TEMPLATE says where ({traceId} replaced). Nothing for rows recorded while
// tracing was off.
import { type Html, html } from './html.js';

/** The trace id of a W3C `traceparent` (version-traceid-spanid-flags), or null. */
export function traceIdOf(traceparent: string | null | undefined): string | null {
  const id = traceparent?.split('-')[1];
  return id && /^[0-9a-f]{32}$/.test(id) ? id : null;
}

export function traceLink(label: string, traceparent: string | null | undefined, template: string | undefined): Html {
  const id = traceIdOf(traceparent);
  if (!id) return html``;
  const code = html`<code class="trace-id">${id}</code>`;
  return html`<p class="muted small">${label} ${template ? html`<a href="${template.replaceAll('{traceId}', id)}" rel="noopener">${code}</a>` : code}</p>`;
}
