// The filter of an operator list searched by a box and read a keyset page at a time by creation
// (operator-api.md#lists): merchants, logistics apps. One place says how the typed text and the
// page bounds become statement parameters, so every such list reads them the same way.

export interface SearchPageFilter {
  /** What the operator typed: a part of the name (any case) or an id. */
  q?: string;
  /** The last row of the previous page (its created_at and id). */
  after?: { at: Date; id: string };
  limit?: number;
}

export interface SearchPageParams {
  /** The typed text trimmed; null when nothing was typed. */
  q: string | null;
  /** The same text for `ILIKE '%' || $n || '%'`: LIKE wildcards typed by a person are literal characters. */
  qLiteral: string | null;
  afterAt: Date | null;
  afterId: string | null;
  limit: number;
}

export function searchPageParams(filter: SearchPageFilter): SearchPageParams {
  const q = filter.q?.trim() || null;
  return {
    q,
    qLiteral: q?.replace(/[\\%_]/g, (c) => `\\${c}`) ?? null,
    afterAt: filter.after?.at ?? null,
    afterId: filter.after?.id ?? null,
    limit: filter.limit ?? 100_000,
  };
}
