// Server-rendered HTML with escaping by default: every interpolated value is escaped unless it is
// itself the output of `html` (or `raw`, for text we produced and know to be markup).

export interface Html {
  readonly __html: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const isHtml = (value: unknown): value is Html =>
  typeof value === 'object' && value !== null && typeof (value as Html).__html === 'string';

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (isHtml(value)) return value.__html;
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` fragments pass as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  // A template has one string more than values (strings[i + 1] follows values[i]): no default applies.
  let out = strings[0] ?? '';
  for (const [i, value] of values.entries()) out += render(value) + (strings[i + 1] ?? '');
  return { __html: out };
}

/** Markup we built ourselves (never user input). */
export const raw = (markup: string): Html => ({ __html: markup });

/** A console path with every dynamic segment percent-encoded. */
export function path(strings: TemplateStringsArray, ...segments: Array<string | number>): string {
  let out = strings[0] ?? ''; // as in html(): one string more than segments
  for (const [i, segment] of segments.entries()) out += encodeURIComponent(String(segment)) + (strings[i + 1] ?? '');
  return out;
}

/** `?a=1&b=2` from the defined values only. */
export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** How the console writes a moment (`12 Mar 2025, 14:02:03`), in UTC here and in the operator's zone (time-zone.ts). */
export const DATE_TIME_PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { ...DATE_TIME_PARTS, timeZone: 'UTC' });

/**
 * A `<time>` element: exact ISO in `datetime`, UTC text that the console rewrites into the
 * operator's zone when it sends the page (time-zone.ts).
 */
export function time(value: Date | string | null | undefined, empty = '—'): Html {
  if (value === null || value === undefined) return html`<span class="muted">${empty}</span>`;
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return html`${String(value)}`;
  return html`<time datetime="${d.toISOString()}">${DATE_TIME.format(d)} UTC</time>`;
}

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'muted';

/**
 * A status word as a coloured badge; the colour comes from the class, the meaning from the text.
 * `code` is the status as the API spells it, kept in a tooltip when the text is a translation.
 */
export function badge(text: string, tone: Tone = 'info', code?: string): Html {
  return code && code !== text
    ? html`<span class="badge badge-${tone}" title="${code}" data-code="${code}">${text}</span>`
    : html`<span class="badge badge-${tone}">${text}</span>`;
}

/** The first 8 characters of an id, with the whole id in a tooltip. */
export function shortId(id: string): Html {
  return html`<code title="${id}">${id.slice(0, 8)}</code>`;
}
