// What a request log may keep of a request body (the integrator's request log, src/modules/usage/request-log.ts): the
// body as JSON text with every secret-named field's value replaced by "[redacted]", cut at a byte
// budget. The walk stops as soon as the budget is spent, so a rejected 12 MB catalog upload costs
// the same few kilobytes of work as a small body.

/** Field names whose values are secrets: credentials, tokens, passwords, signatures, codes. */
export const SECRET_FIELD =
  /secret|token|passw|signature|authorization|api[-_]?key|credential|private[-_]?key|delivery[-_]?code|^cookie$/i;

export const REDACTED = '[redacted]';

export interface RedactedText {
  text: string;
  /** The body was longer than the budget: `text` is its start. */
  truncated: boolean;
}

class Full extends Error {}

/**
 * `value` serialised as JSON with secret-named fields redacted, at most `maxBytes` UTF-8 bytes
 * (a truncated text is not valid JSON; `truncated` says so).
 */
export function redactedJson(value: unknown, maxBytes: number): RedactedText {
  let out = '';
  let bytes = 0;
  const put = (s: string) => {
    const size = Buffer.byteLength(s, 'utf8');
    if (bytes + size > maxBytes) {
      // The part of `s` that still fits, never splitting a character.
      let room = maxBytes - bytes;
      for (const ch of s) {
        const n = Buffer.byteLength(ch, 'utf8');
        if (n > room) break;
        out += ch;
        room -= n;
      }
      throw new Full();
    }
    out += s;
    bytes += size;
  };
  const walk = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object') {
      const s = JSON.stringify(v);
      put(s === undefined ? 'null' : s);
      return;
    }
    if (depth > 32) {
      put('"…"');
      return;
    }
    if (Array.isArray(v)) {
      put('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) put(',');
        walk(v[i], depth + 1);
      }
      put(']');
      return;
    }
    put('{');
    let first = true;
    for (const key in v as Record<string, unknown>) {
      if (!Object.hasOwn(v, key)) continue;
      const field = (v as Record<string, unknown>)[key];
      if (field === undefined) continue;
      put(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      if (SECRET_FIELD.test(key) && field !== null) put(JSON.stringify(REDACTED));
      else walk(field, depth + 1);
    }
    put('}');
  };
  try {
    walk(value, 0);
    return { text: out, truncated: false };
  } catch (error) {
    if (error instanceof Full) return { text: out, truncated: true };
    throw error;
  }
}
