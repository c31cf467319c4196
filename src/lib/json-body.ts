// One JSON body parser for the whole service, strict where a careless parser would silently keep
// bad data or fall over (D22, docs/security.md "Limits"):
// - a charset other than UTF-8 is 415, invalid UTF-8 bytes are 400 naming the field (the default
//   parser would store them as U+FFFD);
// - nesting deeper than MAX_JSON_DEPTH is 400 before JSON.parse runs (10,000 levels used to
//   end in a 500);
// - text PostgreSQL cannot store (NUL, a lone surrogate) is 400 naming the field. Both can only
//   reach the parsed value through a `\u` escape, so a native regex over the text decides whether
//   the (bounded) walk of the parsed value is needed at all: the common body costs no walk.
// The body arrives as bytes, so nothing here runs before the route's authentication hooks
// (onRequest) have passed. Registered for the whole app by src/plugins/json-body.ts.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.js';
import { unstorableTextPath } from './storable-text.js';

export const MAX_JSON_DEPTH = 64;

const ESCAPED_UNSTORABLE = /\\u(?:0000|[dD][89abAB][0-9a-fA-F]{2}|[dD][c-fC-F][0-9a-fA-F]{2})/;

/** True when arrays/objects nest deeper than `max` (strings are skipped with native indexOf). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip to the closing quote: one not preceded by an odd number of backslashes.
      for (let q = text.indexOf('"', i + 1); ; q = text.indexOf('"', q + 1)) {
        if (q < 0) return false; // unterminated: JSON.parse reports it
        let slashes = 0;
        while (text.charCodeAt(q - 1 - slashes) === 92) slashes++;
        if (slashes % 2 === 0) {
          i = q;
          break;
        }
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return false;
}

/** Byte offset of the first invalid UTF-8 sequence (RFC 3629: no overlongs, no surrogates). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  // Reads until past the end (bytes[i] undefined); every path below moves i forward.
  for (let b = bytes[i]; b !== undefined; b = bytes[i]) {
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (next & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * The field being written at the end of `prefix` (a JSON text cut short), in the dotted form
 * validation titles use: `event.message`, `items[2].name`, `body` at the top.
 */
export function jsonPathAtEnd(prefix: string): string {
  const stack: Array<{ array: boolean; index: number; key: string | null; expectKey: boolean }> = [];
  let inString = false;
  let stringStart = 0;
  let stringIsKey = false;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    const top = stack.at(-1);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) {
        inString = false;
        if (stringIsKey && top) top.key = JSON.parse(prefix.slice(stringStart, i + 1)) as string;
      }
      continue;
    }
    if (c === 34) {
      inString = true;
      stringStart = i;
      stringIsKey = top !== undefined && !top.array && top.expectKey;
    } else if (c === 123) stack.push({ array: false, index: 0, key: null, expectKey: true });
    else if (c === 91) stack.push({ array: true, index: 0, key: null, expectKey: false });
    else if (c === 125 || c === 93) stack.pop();
    else if (c === 58 && top && !top.array) top.expectKey = false;
    else if (c === 44 && top) {
      if (top.array) top.index++;
      else {
        top.expectKey = true;
        top.key = null;
      }
    }
  }
  let path = '';
  for (const frame of stack) {
    if (frame.array) path += `[${frame.index}]`;
    else if (frame.key !== null && !(inString && stringIsKey && frame === stack.at(-1))) {
      path += path ? `.${frame.key}` : frame.key;
    }
  }
  if (inString && stringIsKey) return path ? `a key of ${path}` : 'a key of body';
  return path || 'body';
}

/** `application/json; charset=…`: only UTF-8 (RFC 8259 8.1) or no charset at all. */
function checkCharset(contentType: string | undefined): void {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  if (!match) return;
  const [, named = ''] = match;
  const charset = named.toLowerCase();
  if (charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError(415, `Unsupported charset "${named}": send UTF-8 JSON`);
  }
}

export type JsonTextParser = (text: string) => unknown;

/**
 * Bytes → value, with every check above. `parse` is Fastify's own JSON.parse wrapper (it refuses
 * `__proto__` and `constructor` keys), so prototype poisoning stays closed.
 */
export function parseJsonBytes(
  raw: Buffer,
  contentType: string | undefined,
  parse: JsonTextParser,
  options: { checkStorable?: boolean } = {},
): unknown {
  checkCharset(contentType);
  if (raw.length === 0) throw badRequest('Body is empty: send a JSON document');
  if (!isUtf8(raw)) {
    const offset = firstInvalidUtf8(raw);
    const field = jsonPathAtEnd(raw.subarray(0, Math.max(0, offset)).toString('utf8'));
    throw badRequest(field === 'body' ? 'Body is not valid UTF-8' : `${field} is not valid UTF-8`);
  }
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw badRequest(`Body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const value = parse(text);
  if (options.checkStorable !== false && ESCAPED_UNSTORABLE.test(text)) {
    const bad = unstorableTextPath(value);
    if (bad) throw badRequest(`${bad} contains characters that cannot be stored (NUL or unpaired surrogate)`);
  }
  return value;
}

/** Fastify's JSON.parse with prototype-poisoning protection, as a throwing function. */
export function fastifyJsonText(app: FastifyInstance): JsonTextParser {
  const parser = app.getDefaultJsonParser('error', 'error');
  return (text) => {
    let result: unknown;
    let failure: Error | null = null;
    // The default parser calls back synchronously.
    parser({} as FastifyRequest, text, (error, value) => {
      failure = error;
      result = value;
    });
    if (failure) throw badRequest('Body is not valid JSON');
    return result;
  };
}
