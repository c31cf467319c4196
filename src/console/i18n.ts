// The console's languages: English and Brazilian Portuguese, the operator's choice. The choice is
// a cookie set by GET /console/language (a link in every page's menu and on the login page);
// without it the browser's Accept-Language decides, and English when it names neither. Strings
// live in one catalog per language (messages/en.ts, messages/pt-BR.ts; how to add one is at the
// top of messages/en.ts). Money, numbers and quantities are formatted here, per language; times
// in time-zone.ts. API error titles are not translated (the spec fixes them): the console shows
// them as they are, under a translated explanation (layout.ts errorPage).
import type { FastifyRequest } from 'fastify';
import { en, type Messages } from './messages/en.js';
import { ptBR } from './messages/pt-BR.js';

export const LANGS = ['pt-BR', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';
export const LANG_COOKIE = 'cleaver_lang';

export const isLang = (value: unknown): value is Lang => (LANGS as readonly unknown[]).includes(value);

const CATALOGS: Record<Lang, Messages> = { en, 'pt-BR': ptBR };

export const messagesOf = (lang: Lang): Messages => CATALOGS[lang];

/** The name of each language in itself (the switch shows them so). */
export const LANG_NAMES: Record<Lang, string> = { 'pt-BR': 'Português', en: 'English' };

/**
 * The best of our languages for an Accept-Language header (RFC 9110 12.5.4): by q-value, then by
 * order; `pt`, `pt-PT` and `pt-BR` all get pt-BR, any `en-*` English; none of them, English.
 */
export function negotiateLang(header: string | undefined): Lang {
  if (!header) return DEFAULT_LANG;
  let best: { lang: Lang; q: number } | undefined;
  for (const part of header.split(',').slice(0, 20)) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';'); // split always gives a first part
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang: Lang | undefined =
      tag === 'pt' || tag.startsWith('pt-') ? 'pt-BR' : tag === 'en' || tag.startsWith('en-') ? 'en' : undefined;
    if (lang && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? DEFAULT_LANG;
}

function cookieLang(header: string | undefined): Lang | undefined {
  const cookie = header ? new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`).exec(header)?.[1] : undefined;
  const value = cookie === undefined ? undefined : decodeURIComponent(cookie);
  return isLang(value) ? value : undefined;
}

/** The language of this request: the operator's choice (cookie), else Accept-Language. */
export function langOf(request: FastifyRequest): Lang {
  return cookieLang(request.headers.cookie) ?? negotiateLang(request.headers['accept-language']);
}

/** The Set-Cookie value that remembers a choice for a year (a preference, not a credential). */
export const langCookie = (lang: Lang) =>
  `${LANG_COOKIE}=${encodeURIComponent(lang)}; Path=/console; Max-Age=31536000; SameSite=Lax`;

// ---- numbers ---------------------------------------------------------------------------------

/** Intl's locale for each language: English numbers as en-US writes them (1,234.56). */
const LOCALE: Record<Lang, string> = { en: 'en-US', 'pt-BR': 'pt-BR' };
export const localeOf = (lang: Lang) => LOCALE[lang];

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: Lang, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${lang}|${key}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lang], options);
    formats.set(id, f);
  }
  return f;
}

/** Intl separates a currency symbol with a no-break space; a plain one copies and searches as typed. */
const plainSpaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

/**
 * Money in reais, always with two decimals: `R$ 1.234,56` in Portuguese, `R$1,234.56` in English.
 * Amounts arrive as numbers or as PostgreSQL numeric strings.
 */
export function money(value: number | string, lang: Lang): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (!Number.isFinite(n)) return String(value);
  return plainSpaces(
    numberFormat(lang, 'brl', {
      style: 'currency',
      currency: 'BRL',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(n),
  );
}

/** A count or measure: grouping, and at most `maxDecimals` decimals (`1.250` kg stays `1,25`). */
export function number(value: number, lang: Lang, maxDecimals = 0): string {
  return numberFormat(lang, `n${maxDecimals}`, { maximumFractionDigits: maxDecimals }).format(value);
}

/** An item's quantity with its unit: `1,25 KG`, `2 UN` (kilograms to the gram, D38). */
export function quantity(value: number | string, unit: string, lang: Lang): string {
  const n = typeof value === 'string' ? Number(value) : value;
  return `${Number.isFinite(n) ? number(n, lang, 3) : String(value)} ${unit}`;
}

/** A share as a percentage with one decimal: `97,5%` / `97.5%`. */
export function percent(part: number, whole: number, lang: Lang): string {
  return plainSpaces(
    numberFormat(lang, 'pct', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
      whole ? part / whole : 0,
    ),
  );
}
