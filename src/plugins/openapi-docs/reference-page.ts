// `/docs`: the API reference as one HTML page built from the published OpenAPI document when it is
// first asked for (docs/adr/0015-api-reference-page.md says why not a client-side renderer):
// operations grouped by tag, each with its description, parameters, request fields and the
// request and response examples, plus the webhooks the service sends. Nothing runs in the browser
// but a small local script that filters the page by what is typed in its search box, so the page
// shows as soon as it arrives; no CDN, no inline script or style (the console's CSP).
import { marked } from 'marked';

type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/** The reference page's CSP: every asset is ours and local, nothing inline. */
export const REFERENCE_CSP =
  "default-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'; object-src 'none'";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Descriptions are ours (route schemas), written in Markdown: backticks, links, lists. */
const prose = (text: unknown) => (typeof text === 'string' && text ? marked.parse(text, { async: false }) : '');

const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-');

const example = (value: unknown) => `<pre><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre>`;

/** `#/components/schemas/X` (or the bare `X` our resolver writes) → the schema it names. */
function resolve(doc: Json, value: unknown): Json | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const ref = (value as Json).$ref;
  if (typeof ref !== 'string') return value as Json;
  const name = ref.split('/').pop() ?? ref;
  return ((doc.components as Json | undefined)?.schemas as Record<string, Json> | undefined)?.[name];
}

function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (typeof schema.type === 'string') return schema.format ? `${schema.type} (${schema.format})` : schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema.anyOf || schema.oneOf) return 'one of several';
  return '';
}

function fieldsTable(doc: Json, schema: Json | undefined): string {
  const properties = schema?.properties as Record<string, Json> | undefined;
  if (!properties || Object.keys(properties).length === 0) return '';
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const rows = Object.entries(properties).map(([name, raw]) => {
    const field = resolve(doc, raw);
    const values = Array.isArray(field?.enum)
      ? ` One of: ${field.enum.map((v) => `\`${String(v)}\``).join(', ')}.`
      : '';
    return (
      `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td>` +
      `<td>${escapeHtml(typeOf(field))}</td><td>${prose(`${(field?.description as string | undefined) ?? ''}${values}`)}</td></tr>`
    );
  });
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function parametersTable(parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(String(p.name))}</code>${p.required ? ' <span class="req">required</span>' : ''}</td>` +
      `<td>${escapeHtml(String(p.in))}</td><td>${escapeHtml(typeOf(p.schema as Json | undefined))}</td>` +
      `<td>${prose(p.description)}${p.example === undefined ? '' : `<p>Example: <code>${escapeHtml(String(p.example))}</code></p>`}</td></tr>`,
  );
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The first JSON-ish content of a request or response: its schema and its example, if any. */
function jsonContent(doc: Json, holder: Json | undefined): { schema?: Json; example?: unknown } {
  const content = holder?.content as Record<string, Json> | undefined;
  if (!content) return {};
  const media = content['application/json'] ?? Object.values(content)[0];
  if (!media) return {};
  const examples = media.examples as Record<string, Json> | undefined;
  const firstExample = examples ? Object.values(examples)[0]?.value : undefined;
  return { schema: resolve(doc, media.schema), example: media.example ?? firstExample };
}

function responsesList(doc: Json, responses: Record<string, unknown>): string {
  const items = Object.entries(responses).map(([code, raw]) => {
    const response = resolve(doc, raw) ?? {};
    const { example: shown } = jsonContent(doc, response);
    const summary = `<code class="status s${code[0]}">${escapeHtml(code)}</code> ${escapeHtml(String(response.description ?? ''))}`;
    return shown === undefined
      ? `<li>${summary}</li>`
      : `<li><details><summary>${summary}</summary>${example(shown)}</details></li>`;
  });
  return `<h4>Responses</h4><ul class="responses">${items.join('')}</ul>`;
}

function operationHtml(doc: Json, method: string, path: string, op: Json, sharedParameters: Json[]): string {
  const id = anchor(String(op.operationId ?? `${method}${path}`));
  const parameters = [...sharedParameters, ...((op.parameters as Json[] | undefined) ?? [])];
  const body = resolve(doc, op.requestBody);
  const request = jsonContent(doc, body);
  const security = ((op.security as Array<Record<string, unknown>> | undefined) ?? []).flatMap(Object.keys);
  const searchText = [method, path, op.summary, op.operationId, ...((op.tags as string[] | undefined) ?? [])]
    .join(' ')
    .toLowerCase();
  return [
    `<section class="op" id="${id}" data-search="${escapeHtml(searchText)}">`,
    `<h3><a href="#${id}"><span class="method m-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></a></h3>`,
    op.summary ? `<p class="summary">${escapeHtml(String(op.summary))}</p>` : '',
    op.deprecated ? '<p class="deprecated">Deprecated.</p>' : '',
    security.length > 0 ? `<p class="auth">Authorization: ${security.map(escapeHtml).join(' or ')}</p>` : '',
    prose(op.description),
    parametersTable(parameters),
    body ? `<h4>Request body</h4>${prose(body.description === 'The request body.' ? '' : body.description)}` : '',
    body ? fieldsTable(doc, request.schema) : '',
    request.example === undefined ? '' : `<h4>Request example</h4>${example(request.example)}`,
    responsesList(doc, (op.responses as Record<string, unknown> | undefined) ?? {}),
    '</section>',
  ].join('\n');
}

interface Operation {
  method: string;
  path: string;
  op: Json;
  shared: Json[];
}

function operationsOf(paths: Record<string, Json> | undefined): Operation[] {
  return Object.entries(paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      method,
      path,
      op: item[method] as Json,
      shared: (item.parameters as Json[] | undefined) ?? [],
    })),
  );
}

/** The whole page for one OpenAPI document, with links to the guides beside it. */
export function referenceHtml(doc: Json, guides: Array<{ path: string; title: string; lang: string }>): string {
  const info = (doc.info as Json | undefined) ?? {};
  const byTag = new Map<string, Operation[]>();
  for (const operation of operationsOf(doc.paths as Record<string, Json> | undefined)) {
    const tag = ((operation.op.tags as string[] | undefined) ?? [])[0] ?? 'other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
  }
  const tagDescriptions = new Map(
    ((doc.tags as Json[] | undefined) ?? []).map((t) => [String(t.name), t.description as string | undefined]),
  );
  const webhooks = operationsOf(doc.webhooks as Record<string, Json> | undefined);
  const groups = [...byTag.entries()].map(
    ([tag, operations]) =>
      `<section class="tag" id="tag-${anchor(tag)}"><h2>${escapeHtml(tag)}</h2>${prose(tagDescriptions.get(tag))}` +
      `${operations.map((o) => operationHtml(doc, o.method, o.path, o.op, o.shared)).join('\n')}</section>`,
  );
  if (webhooks.length > 0) {
    groups.push(
      '<section class="tag" id="tag-webhooks"><h2>Webhooks the service sends</h2>' +
        '<p>Requests the service makes to the POS’s webhook receiver; the events are described in the <a href="/docs/events">event catalog</a>.</p>' +
        `${webhooks.map((o) => operationHtml(doc, o.method, `webhook ${o.path}`, o.op, o.shared)).join('\n')}</section>`,
    );
  }
  const nav = [...byTag.entries()]
    .map(([tag, ops]) => `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a> <small>${ops.length}</small></li>`)
    .concat(
      webhooks.length > 0 ? [`<li><a href="#tag-webhooks">webhooks</a> <small>${webhooks.length}</small></li>`] : [],
    )
    .join('');
  const guideLinks = guides
    .map((g) => `<li><a href="${g.path}" hreflang="${g.lang}">${escapeHtml(g.title)}</a></li>`)
    .join('');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(String(info.title ?? 'API'))} — API reference</title>`,
    '<link rel="stylesheet" href="/docs/reference.css">',
    '<script src="/docs/reference.js" defer></script>',
    '</head>',
    '<body>',
    '<nav>',
    '<p><a href="/">Cleaver</a> · <a href="/openapi.json">openapi.json</a></p>',
    '<label for="search">Search</label>',
    '<input id="search" type="search" placeholder="path, method, words…" autocomplete="off">',
    '<p id="search-count" aria-live="polite"></p>',
    `<ul>${nav}</ul>`,
    `<h2>Guides</h2><ul>${guideLinks}</ul>`,
    '</nav>',
    '<main>',
    `<h1>${escapeHtml(String(info.title ?? 'API'))} <small>${escapeHtml(String(info.version ?? ''))}</small></h1>`,
    prose(info.description),
    `<p>Server: <code>${escapeHtml(String(((doc.servers as Json[] | undefined) ?? [])[0]?.url ?? ''))}</code>. The examples are accepted as written by a sandbox that has the sample catalog (<code>cleaver sandbox sample-catalog</code>); put your own key, merchant and order ids where they stand.</p>`,
    groups.join('\n'),
    '<p id="no-match" hidden>No operation matches.</p>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The search box: hides every operation whose method, path, summary and tag lack a typed word. */
export const REFERENCE_SCRIPT = `'use strict';
(function () {
  var input = document.getElementById('search');
  var count = document.getElementById('search-count');
  var none = document.getElementById('no-match');
  var ops = Array.prototype.slice.call(document.querySelectorAll('section.op'));
  var tags = Array.prototype.slice.call(document.querySelectorAll('section.tag'));
  function filter() {
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    ops.forEach(function (op) {
      var text = op.getAttribute('data-search');
      var match = words.every(function (w) { return text.indexOf(w) !== -1; });
      op.hidden = !match;
      if (match) shown++;
    });
    tags.forEach(function (tag) { tag.hidden = !tag.querySelector('section.op:not([hidden])'); });
    count.textContent = words.length ? shown + ' of ' + ops.length + ' operations' : '';
    none.hidden = shown > 0;
  }
  input.addEventListener('input', filter);
  document.addEventListener('keydown', function (e) {
    if (e.key === '/' && document.activeElement !== input) { e.preventDefault(); input.focus(); }
  });
})();
`;

export const REFERENCE_STYLE = `body{margin:0;font-family:system-ui,sans-serif;line-height:1.45;color:#1d1d1f;display:flex}
nav{position:sticky;top:0;height:100vh;overflow-y:auto;width:15rem;flex:none;padding:1rem;background:#f6f6f8;box-sizing:border-box}
nav ul{list-style:none;padding:0}nav li{margin:.2rem 0}nav h2{font-size:1rem}
#search{width:100%;padding:.4rem;font-size:1rem;box-sizing:border-box}
main{padding:1rem 2rem;max-width:60rem;min-width:0}
section.op{border-top:1px solid #ddd;padding:.5rem 0 1rem;content-visibility:auto;contain-intrinsic-size:auto 500px}
section.op h3 a{color:inherit;text-decoration:none}
.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;color:#fff;font-size:.85rem;padding:.1rem .3rem;background:#555}
.m-get{background:#1f6feb}.m-post{background:#1a7f37}.m-put{background:#9a6700}.m-patch{background:#8250df}.m-delete{background:#cf222e}
.summary{font-weight:600}.req{color:#cf222e;font-size:.8rem}.auth{color:#555;font-size:.9rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border:1px solid #ddd;padding:.3rem;vertical-align:top;text-align:left}td p{margin:0}
pre{background:#f4f4f4;padding:.6rem;overflow-x:auto;font-size:.85rem}
.responses{list-style:none;padding:0}.status{font-weight:700}.s2{color:#1a7f37}.s4{color:#9a6700}.s5{color:#cf222e}
`;
