// Finds the citations in comments (decisions, spec sections, design documents) and checks that
// each one resolves to an anchor inside the repository. The conventions are described in
// docs/design/README.md; the test beside this file runs the check over the whole tree.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

export type Citation =
  | { kind: 'decision'; text: string; index: number; id: number }
  | { kind: 'spec'; text: string; index: number; section: string; rules: number[] }
  | { kind: 'document'; text: string; index: number; file: string; anchor?: string; heading?: string }
  | { kind: 'issue'; text: string; index: number };

export interface Problem {
  file: string;
  line: number;
  citation: string;
  reason: string;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped (hyphens kept), each space a hyphen. */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/<[^>]*>/g, '') // inline HTML (an explicit anchor inside the heading) is not text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/`/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: heading slugs (duplicates numbered as GitHub does) and explicit ids. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s{0,3}(```|~~~)/.exec(line)?.[1];
    if (fenceMark) {
      if (fence === undefined) fence = fenceMark;
      else if (fence === fenceMark) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = githubSlug(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    const outsideCode = line.replace(/`[^`]*`/g, '');
    for (const explicit of outsideCode.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(explicit[1]);
  }
  return anchors;
}

const NOT_COMMENT = '\u0000';

/**
 * Keeps what each comment says, with its markers (`//`, `--`, a block's opener, closer and the
 * `*` that starts its later lines) blanked; every other character becomes NUL, newlines stay.
 */
function maskOutside(text: string, comments: Array<[number, number]>): string {
  // By UTF-16 unit, like the offsets the parsers report (Array.from would split by code point).
  const out: string[] = text.split('').map((ch) => (ch === '\n' ? '\n' : NOT_COMMENT));
  for (const [start, end] of comments) {
    const body = text.slice(start, end);
    const blanked = body.startsWith('/*')
      ? body
          .replace(/^\/\*+/, (m) => ' '.repeat(m.length))
          .replace(/\*+\/$/, (m) => ' '.repeat(m.length))
          .replace(/(\n[ \t]*)\*/g, '$1 ')
      : body.replace(/^(\/\/+|--+)/, (m) => ' '.repeat(m.length));
    for (let i = 0; i < blanked.length; i++) out[start + i] = blanked[i];
  }
  return out.join('');
}

/** Comment ranges of TypeScript or JavaScript, found by the compiler's own parser (strings, templates, regexes excluded). */
function scriptComments(path: string, text: string): Array<[number, number]> {
  const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const ranges = new Map<number, number>();
  const add = (found: ts.CommentRange[] | undefined) => {
    for (const range of found ?? []) ranges.set(range.pos, range.end);
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...ranges.entries()];
}

/** Comment ranges of SQL: `--` to the end of the line and block comments, outside quoted text. */
function sqlComments(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let i = 0;
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    if (two === '--') {
      const end = text.indexOf('\n', i);
      ranges.push([i, end === -1 ? text.length : end]);
      i = end === -1 ? text.length : end;
    } else if (two === '/*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      ranges.push([i, stop]);
      i = stop;
    } else if (text[i] === "'" || text[i] === '"') {
      const quote = text[i];
      i++;
      while (i < text.length) {
        if (text[i] === quote && text[i + 1] === quote) i += 2;
        else if (text[i] === quote) break;
        else i++;
      }
      i++;
    } else if (text[i] === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i))?.[0];
      if (tag) {
        const end = text.indexOf(tag, i + tag.length);
        i = end === -1 ? text.length : end + tag.length;
      } else i++;
    } else i++;
  }
  return ranges;
}

/**
 * The comment text of a file, aligned with the file (same offsets and lines): everything outside
 * comments is NUL, so a citation can run across consecutive comment lines but never into code.
 * Markdown is prose throughout.
 */
export function commentText(path: string, text: string): string {
  if (path.endsWith('.md')) return text;
  if (path.endsWith('.sql')) return maskOutside(text, sqlComments(text));
  return maskOutside(text, scriptComments(path, text));
}

const SECTION = /^\d+(?:\.\d+)*/;
const LIST_SEPARATOR = /^\s*(?:,|\/|\+|–|—|-|and|or|to)\s*/;
const RULES = /^\s+rules?\s+(\d+)((?:\s*(?:,|and)\s*\d+)*)/;

/** Spec sections after the word "spec" at `from`: "4.13", "2.3–2.5", "4.11 / 4.15", "4.13 rules 1 and 5". */
function specSections(text: string, from: number): Array<{ section: string; rules: number[] }> {
  const found: Array<{ section: string; rules: number[] }> = [];
  let at = from;
  for (;;) {
    const section = SECTION.exec(text.slice(at))?.[0];
    if (!section || /^[\p{L}\d]/u.test(text.slice(at + section.length))) break;
    at += section.length;
    const rules: number[] = [];
    const rulesMatch = RULES.exec(text.slice(at));
    if (rulesMatch) {
      rules.push(...`${rulesMatch[1]}${rulesMatch[2]}`.split(/\s*(?:,|and)\s*/).map(Number));
      at += rulesMatch[0].length;
    }
    found.push({ section, rules });
    const separator = LIST_SEPARATOR.exec(text.slice(at));
    if (!separator || !/^\d/.test(text.slice(at + separator[0].length))) break;
    at += separator[0].length;
  }
  return found;
}

/** Every citation in a piece of comment text, in order. `index` is the offset where its text starts. */
export function findCitations(text: string): Citation[] {
  const citations: Citation[] = [];
  for (const m of text.matchAll(/\bD([1-9]\d?)\b/g)) {
    citations.push({ kind: 'decision', text: m[0], index: m.index, id: Number(m[1]) });
  }
  for (const m of text.matchAll(/\bspec(?:ification)?(?:'s)?(?:\s+sections?)?\s+(?=\d)/gi)) {
    for (const { section, rules } of specSections(text, m.index + m[0].length)) {
      const cited = `spec ${section}${rules.length ? ` rule ${rules.join(', ')}` : ''}`;
      citations.push({ kind: 'spec', text: cited, index: m.index, section, rules });
    }
  }
  for (const m of text.matchAll(/(?<![\w./-])((?:[\w.-]+\/)*[\w.-]*\w\.md)\b(?:#([\w-]+)|\s+"([^"\n]+)")?/g)) {
    citations.push({ kind: 'document', text: m[0], index: m.index, file: m[1], anchor: m[2], heading: m[3] });
  }
  for (const m of text.matchAll(/\bissues?\s+#?\d+/gi)) {
    citations.push({ kind: 'issue', text: m[0], index: m.index });
  }
  return citations.sort((a, b) => a.index - b.index);
}

/** The anchor of a spec section in docs/design/spec.md: "4.13" → "spec-4-13", rule 2 → "spec-4-13-rule-2". */
export function specAnchor(section: string, rule?: number): string {
  return `spec-${section.replace(/\./g, '-')}${rule === undefined ? '' : `-rule-${rule}`}`;
}

export const DESIGN_DIR = 'docs/design';

/** Resolves citations against the files of one repository, reading each Markdown file once. */
export function createResolver(root: string) {
  const anchorsByFile = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let anchors = anchorsByFile.get(file);
    if (!anchors) {
      anchors = isFile(file) ? markdownAnchors(readFileSync(join(root, file), 'utf8')) : new Set<string>();
      anchorsByFile.set(file, anchors);
    }
    return anchors;
  };
  const isFile = (file: string) => existsSync(join(root, file)) && statSync(join(root, file)).isFile();

  /** A document named alone is looked for in docs/design, then beside the citing file, then at the root. */
  const locate = (name: string, citingFile: string): string | undefined => {
    const candidates = name.includes('/')
      ? [name, join(dirname(citingFile), name)]
      : [join(DESIGN_DIR, name), join(dirname(citingFile), name), name];
    return candidates.find(isFile);
  };

  /** Why a citation does not resolve, or undefined when it does. */
  return function unresolved(citation: Citation, citingFile: string): string | undefined {
    switch (citation.kind) {
      case 'decision': {
        const anchor = `d${citation.id}`;
        return anchorsOf(join(DESIGN_DIR, 'decisions.md')).has(anchor)
          ? undefined
          : `no anchor "${anchor}" in ${DESIGN_DIR}/decisions.md`;
      }
      case 'spec': {
        const anchors = anchorsOf(join(DESIGN_DIR, 'spec.md'));
        const wanted = [specAnchor(citation.section), ...citation.rules.map((r) => specAnchor(citation.section, r))];
        const missing = wanted.filter((a) => !anchors.has(a));
        return missing.length
          ? `no anchor ${missing.map((a) => `"${a}"`).join(', ')} in ${DESIGN_DIR}/spec.md`
          : undefined;
      }
      case 'document': {
        const file = locate(citation.file, citingFile);
        if (!file) return `no file ${citation.file} in ${DESIGN_DIR}, beside ${citingFile} or at the root`;
        const anchor = citation.anchor ?? (citation.heading === undefined ? undefined : githubSlug(citation.heading));
        if (anchor === undefined || anchorsOf(file).has(anchor)) return undefined;
        return `no heading or anchor "${anchor}" in ${file}`;
      }
      case 'issue':
        return `issues are not in the repository: cite the section of ${DESIGN_DIR} that holds the rule`;
    }
  };
}

/** Files whose comments are checked: sources, tests and benchmarks, never dependencies. */
export function filesToCheck(root: string, folders: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (/\.(ts|js|mjs|cjs|sql|md)$/.test(entry.name)) files.push(path);
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) walk(folder);
  return files.sort();
}

/** Checks every citation in the comments of `files`: how many were found, and each that does not resolve. */
export function checkCitations(root: string, files: string[]): { citations: number; problems: Problem[] } {
  const unresolved = createResolver(root);
  const problems: Problem[] = [];
  let citations = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const citation of findCitations(commentText(file, text))) {
      citations++;
      const reason = unresolved(citation, file);
      if (reason === undefined) continue;
      const line = text.slice(0, citation.index).split('\n').length;
      problems.push({ file, line, citation: citation.text, reason });
    }
  }
  return { citations, problems };
}

/** Relative links between the design pages (Markdown links to a page and anchor) that point nowhere. */
export function checkDesignLinks(root: string): Problem[] {
  const anchorsOf = (file: string) => markdownAnchors(readFileSync(join(root, file), 'utf8'));
  const problems: Problem[] = [];
  for (const page of readdirSync(join(root, DESIGN_DIR)).filter((name) => name.endsWith('.md'))) {
    const file = join(DESIGN_DIR, page);
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const linked = path === '' ? file : join(DESIGN_DIR, path);
      const line = text.slice(0, m.index).split('\n').length;
      if (!existsSync(join(root, linked))) {
        problems.push({ file, line, citation: target, reason: `no file ${linked}` });
      } else if (anchor !== undefined && !anchorsOf(linked).has(anchor)) {
        problems.push({ file, line, citation: target, reason: `no heading or anchor "${anchor}" in ${linked}` });
      }
    }
  }
  return problems;
}
