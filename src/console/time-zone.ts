// Times in the operator's time zone: pages render every instant as `<time datetime="ISO">` and
// the zone is applied when the page is sent, from `?tz=` (remembered in a cookie) or the cookie,
// else America/Sao_Paulo. The zone is always shown next to the time.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATE_TIME_PARTS } from './html.js';
import { type Lang, localeOf } from './i18n.js';

export const DEFAULT_ZONE = 'America/Sao_Paulo';
export const TZ_COOKIE = 'cleaver_tz';
/** Zones offered in the picker; any IANA zone typed in `?tz=` works too. */
export const COMMON_ZONES = [
  'America/Sao_Paulo',
  'America/Manaus',
  'America/Fortaleza',
  'America/Noronha',
  'America/Rio_Branco',
  'UTC',
];

const formats = new Map<string, Intl.DateTimeFormat>();

/** Dates as each language writes them: `12 Mar 2025, 14:02:03` / `12 de mar. de 2025, 14:02:03`. */
const DATE_LOCALE: Record<Lang, string> = { en: 'en-GB', 'pt-BR': 'pt-BR' };

function formatOf(zone: string, lang: Lang = 'en'): Intl.DateTimeFormat | undefined {
  const id = `${lang}|${zone}`;
  let f = formats.get(id);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat(DATE_LOCALE[lang] ?? localeOf(lang), {
      ...DATE_TIME_PARTS,
      timeZone: zone,
      timeZoneName: 'short',
    });
  } catch {
    return undefined;
  }
  if (formats.size < 200) formats.set(id, f);
  return f;
}

export const isTimeZone = (zone: string | undefined): zone is string =>
  typeof zone === 'string' && zone.length <= 64 && formatOf(zone) !== undefined;

function cookieZone(header: string | undefined): string | undefined {
  const cookie = header ? new RegExp(`(?:^|;\\s*)${TZ_COOKIE}=([^;]*)`).exec(header)?.[1] : undefined;
  return cookie === undefined ? undefined : decodeURIComponent(cookie);
}

/** The zone of this request: `?tz=` first, then the cookie, then the default. */
export function zoneOf(request: FastifyRequest): string {
  const q = (request.query as Record<string, unknown> | undefined)?.tz;
  if (typeof q === 'string' && isTimeZone(q)) return q;
  const c = cookieZone(request.headers.cookie);
  return isTimeZone(c) ? c : DEFAULT_ZONE;
}

/** A `?tz=` choice is remembered for the next pages (a plain preference, not a credential). */
export function rememberZone(request: FastifyRequest, reply: FastifyReply): void {
  const q = (request.query as Record<string, unknown> | undefined)?.tz;
  if (typeof q === 'string' && isTimeZone(q)) {
    reply.header('set-cookie', `${TZ_COOKIE}=${encodeURIComponent(q)}; Path=/console; Max-Age=31536000; SameSite=Lax`);
  }
}

const TIME = /<time datetime="([0-9T:.\-+Z]+)">[^<]*<\/time>/g;

/** Every `<time>` of the page written in `zone` and `lang` (the ISO instant stays in `datetime`). */
export function localizeTimes(markup: string, zone: string, lang: Lang): string {
  const f = formatOf(zone, lang) ?? (formatOf(DEFAULT_ZONE, lang) as Intl.DateTimeFormat);
  return markup.replace(TIME, (whole, iso: string) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? whole : `<time datetime="${iso}" title="${zone}">${f.format(d)}</time>`;
  });
}
