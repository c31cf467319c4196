// Every citation in a comment (a decision, a spec section, a design page and its heading) must
// resolve inside the repository, in docs/design (conventions: docs/design/README.md). The checker
// itself is tested first, table by table, so that a green run means something.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkCitations,
  checkDesignLinks,
  commentText,
  createResolver,
  DESIGN_DIR,
  filesToCheck,
  findCitations,
  githubSlug,
  markdownAnchors,
  type Problem,
  specAnchor,
} from './citations.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHECKED_FOLDERS = ['src', 'packages', 'examples', 'bench', 'test'];
const show = (p: Problem) => `${p.file}:${p.line}  ${p.citation}  (${p.reason})`;

describe('githubSlug', () => {
  it.each([
    ['Data flow', 'data-flow'],
    ['Operators and audit', 'operators-and-audit'],
    ['D11 Delivery rules', 'd11-delivery-rules'],
    ['4.13 POST /v1/events/acknowledgment', '413-post-v1eventsacknowledgment'],
    ['D18 The flat upload shapes (ITEM and ITEM_OFFER)', 'd18-the-flat-upload-shapes-item-and-item_offer'],
    ["D26 Order fields the spec's table leaves out", 'd26-order-fields-the-specs-table-leaves-out'],
    ['`webhooks/` module', 'webhooks-module'],
    ['See [the spec](spec.md#spec-1) here', 'see-the-spec-here'],
    ['Two  spaces', 'two--spaces'],
    ['Ações e preço', 'ações-e-preço'],
    ['Already-hyphenated name', 'already-hyphenated-name'],
    ['<a id="x"></a>Health', 'health'],
  ])('%j → %j', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});

describe('markdownAnchors', () => {
  it.each([
    ['headings of every level', '# Top\n## Data flow\n#### Deep one', ['top', 'data-flow', 'deep-one']],
    ['a repeated heading is numbered', '## Tests\n## Tests\n## Tests', ['tests', 'tests-1', 'tests-2']],
    ['explicit anchors', '<a id="d11"></a>\n### D11 Delivery rules', ['d11', 'd11-delivery-rules']],
    ['name= anchors too', '<a name="old"></a>', ['old']],
    ['no heading inside a fenced block', '```\n# not a heading\n```\n## Real', ['real']],
    ['no anchor written as code', 'Write `<a id="d99"></a>` before it.', []],
    ['closing hashes are not text', '## Health ##', ['health']],
    ['a hash without a space is not a heading', '#hashtag', []],
  ])('%s', (_name, markdown, anchors) => {
    expect([...markdownAnchors(markdown)]).toEqual(anchors);
  });
});

describe('commentText and findCitations', () => {
  const cited = (file: string, source: string) => findCitations(commentText(file, source)).map((c) => c.text);

  it.each([
    ['a line comment', 'a.ts', 'const x = 1; // D11 retry', ['D11']],
    ['not in a string', 'a.ts', "const s = 'D11 and spec 4.13';", []],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, for the parser
    ['not in a template, but in the comment after it', 'a.ts', 'const t = `D3 ${x} spec 4.2`; // D4', ['D4']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, for the parser
    ['a comment inside a template placeholder', 'a.ts', 'const t = `D3 ${/* D8 */ x} D5`;', ['D8']],
    ['not in a regular expression', 'a.ts', 'const r = /D7 spec 4.1/; // spec 4.13 rule 2', ['spec 4.13 rule 2']],
    ['a block comment across lines', 'a.ts', '/**\n * spec 4.13\n * rule 2, D4\n */\nf();', ['spec 4.13 rule 2', 'D4']],
    ['not in identifiers, hex or larger numbers', 'a.ts', '// fooD3 0xD1 2D D800 D100 UUIDv5', []],
    ['both ends of a range of decisions', 'a.ts', '// D10–D12', ['D10', 'D12']],
    ['a range of sections', 'a.ts', '// (spec 2.3–2.5, D24)', ['spec 2.3', 'spec 2.5', 'D24']],
    ['a list of sections', 'a.ts', '// spec 2.1, 8: fixed', ['spec 2.1', 'spec 8']],
    [
      'sections joined by slash, plus, and',
      'a.ts',
      '// Spec 4.11 / 4.15 + 4.4 and 5.2.',
      ['spec 4.11', 'spec 4.15', 'spec 4.4', 'spec 5.2'],
    ],
    ['a count after a section is not a section', 'a.ts', '// spec 4.3, 10k items', ['spec 4.3']],
    ['several rules', 'a.ts', '// Spec 4.13 rules 1 and 5', ['spec 4.13 rule 1, 5']],
    ['a step of a section', 'a.ts', '// (spec 5.1.4)', ['spec 5.1.4']],
    ["the spec's and specification", 'a.ts', "// the spec's 4.2; specification section 7", ['spec 4.2', 'spec 7']],
    ['not a word that ends in spec', 'a.ts', '// respec 4.1', []],
    ['a design page with an anchor', 'a.ts', '// (architecture.md#data-flow)', ['architecture.md#data-flow']],
    [
      'a design page and a quoted heading over two lines',
      'a.ts',
      '// see operator-api.md\n// "Health" for it',
      ['operator-api.md\n   "Health"'],
    ],
    ['a path with folders', 'a.ts', '// docs/adr/0001-own-rate-limiter.md', ['docs/adr/0001-own-rate-limiter.md']],
    ['not a page inside a URL', 'a.ts', '// https://github.com/x/y/blob/main/README.md', []],
    ['an issue', 'a.ts', '// issue 9 "Contract", Issue 2', ['issue 9', 'Issue 2']],
    ['JavaScript', 'a.js', "const a = 'D1'; /* D2 */", ['D2']],
    [
      'SQL line and block comments, not strings',
      'a.sql',
      "SELECT 'D1 -- spec 4.1' AS x; -- D2\n/* spec 4.13 */",
      ['D2', 'spec 4.13'],
    ],
    ['SQL quoted identifiers and dollar-quoted bodies', 'a.sql', 'SELECT "D3", $$ D5 $$, $f$ D6 $f$; -- D7', ['D7']],
    [
      'Markdown is prose throughout',
      'a.md',
      'D7 and `spec 4.2` (style.md#tests)',
      ['D7', 'spec 4.2', 'style.md#tests'],
    ],
  ])('%s', (_name, file, source, expected) => {
    expect(cited(file, source)).toEqual(expected);
  });

  it('keeps offsets, so a citation knows its line', () => {
    const source = "const a = '😀 x';\n\n// 😀 D9 here\n";
    const [citation] = findCitations(commentText('a.ts', source));
    expect(source.slice(0, citation.index).split('\n').length).toBe(3);
    expect(source.slice(citation.index, citation.index + 2)).toBe('D9');
  });
});

describe('resolving citations', () => {
  let root: string;
  let unresolved: ReturnType<typeof createResolver>;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cleaver-citations-'));
    write(`${DESIGN_DIR}/decisions.md`, '<a id="d1"></a>\n### D1 Event identity\n');
    write(`${DESIGN_DIR}/spec.md`, `<a id="${specAnchor('4.13')}"></a>\n<a id="${specAnchor('4.13', 2)}"></a>\n`);
    write(`${DESIGN_DIR}/architecture.md`, '## Data flow\n');
    write('docs/adr/0001-x.md', '# One\n');
    write('src/README.md', '## Here\n');
    write('src/a.ts', '');
    unresolved = createResolver(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const resolve = (source: string) =>
    findCitations(commentText('src/a.ts', source)).map((c) => unresolved(c, 'src/a.ts') ?? 'ok');

  it.each([
    ['a decision with an anchor', '// D1', ['ok']],
    ['a decision without one', '// D2', ['no anchor "d2" in docs/design/decisions.md']],
    ['a spec section and its rule', '// spec 4.13 rule 2', ['ok']],
    ['a rule without an anchor', '// spec 4.13 rule 3', ['no anchor "spec-4-13-rule-3" in docs/design/spec.md']],
    ['a section without an anchor', '// spec 4.14', ['no anchor "spec-4-14" in docs/design/spec.md']],
    ['a design page by anchor', '// architecture.md#data-flow', ['ok']],
    ['a design page by quoted heading', '// architecture.md "Data flow"', ['ok']],
    [
      'a missing heading',
      '// architecture.md#layout',
      ['no heading or anchor "layout" in docs/design/architecture.md'],
    ],
    [
      'the old upper-case name',
      '// ARCHITECTURE.md',
      ['no file ARCHITECTURE.md in docs/design, beside src/a.ts or at the root'],
    ],
    ['a page beside the citing file', '// README.md#here', ['ok']],
    ['a path from the root', '// docs/adr/0001-x.md#one', ['ok']],
    ['an issue never resolves', '// issue 9', [expect.stringContaining('issues are not in the repository')]],
  ])('%s', (_name, source, expected) => {
    expect(resolve(source)).toEqual(expected);
  });
});

describe('the design record', () => {
  it('has an anchor for every decision, D1 to D31', () => {
    const anchors = markdownAnchors(readFileSync(join(ROOT, DESIGN_DIR, 'decisions.md'), 'utf8'));
    const missing = Array.from({ length: 31 }, (_, i) => `d${i + 1}`).filter((anchor) => !anchors.has(anchor));
    expect(missing).toEqual([]);
  });

  it('links only to pages and headings that exist', () => {
    expect(checkDesignLinks(ROOT).map(show)).toEqual([]);
  });
});

describe('citations in comments', () => {
  it('every citation in src, packages, examples, bench and test resolves inside the repository', () => {
    const files = filesToCheck(ROOT, CHECKED_FOLDERS);
    const { citations, problems } = checkCitations(ROOT, files);
    expect(problems.map(show)).toEqual([]);
    // Not vacuous: the tree has hundreds of citations in well over a hundred files.
    expect(files.length).toBeGreaterThan(100);
    expect(citations).toBeGreaterThan(300);
  });
});
