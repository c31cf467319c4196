// A NUL character or a lone UTF-16 surrogate is valid JSON but PostgreSQL text and jsonb cannot
// hold it: such input must be refused with a 400 naming the field, not fail as a 500 at insert.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The path of the first string (or key) that jsonb cannot hold, e.g. `event.message`. */
export function unstorableTextPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return unstorable(value) ? path || 'body' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (unstorable(key)) return childPath;
      const found = unstorableTextPath(child, childPath);
      if (found) return found;
    }
  }
  return undefined;
}
