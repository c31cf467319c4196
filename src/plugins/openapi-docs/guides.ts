// The guides for people, as HTML pages beside the reference at /docs: the event catalog
// (docs/events.md) and the getting-started guide in English and pt-BR (docs/guides/). The
// Markdown files are the one source, each rendered once on its first request. The production
// build copies them beside the bundle (scripts/build.mjs), so they are found in either layout.
// Also the landing page at `/`, which links the console, the reference and these guides.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';

export interface Guide {
  /** Where the service serves it. */
  path: string;
  /** Under docs/ in the repository, under dist/docs/ in the build. */
  file: string;
  title: string;
  lang: 'en' | 'pt-BR';
}

export const GUIDES: Guide[] = [
  { path: '/docs/getting-started', file: 'guides/getting-started.md', title: 'Getting started', lang: 'en' },
  {
    path: '/docs/getting-started/pt-BR',
    file: 'guides/getting-started.pt-BR.md',
    title: 'Primeiros passos',
    lang: 'pt-BR',
  },
  {
    path: '/docs/availability-and-encomendas',
    file: 'guides/availability-and-encomendas.md',
    title: 'What is in the case, and encomendas',
    lang: 'en',
  },
  {
    path: '/docs/availability-and-encomendas/pt-BR',
    file: 'guides/availability-and-encomendas.pt-BR.md',
    title: 'O que tem na vitrine, e encomendas',
    lang: 'pt-BR',
  },
  { path: '/docs/events', file: 'events.md', title: 'Event catalog', lang: 'en' },
  { path: '/docs/statements', file: 'guides/statements.md', title: 'Statements (for the bookkeeper)', lang: 'en' },
  {
    path: '/docs/statements/pt-BR',
    file: 'guides/statements.pt-BR.md',
    title: 'Extratos (para o contador)',
    lang: 'pt-BR',
  },
  // D41: the butcher's guide to scale labels.
  { path: '/docs/scale-labels', file: 'guides/scale-labels.md', title: 'Scale labels', lang: 'en' },
  {
    path: '/docs/scale-labels/pt-BR',
    file: 'guides/scale-labels.pt-BR.md',
    title: 'Etiquetas de balança',
    lang: 'pt-BR',
  },
];

function guideMarkdown(file: string): string {
  const candidates = [
    // dist/: every chunk sits at the top of dist/, the guides in dist/docs/.
    new URL(`./docs/${file}`, import.meta.url),
    // src/plugins/openapi-docs/ → the repository's docs/.
    new URL(`../../../docs/${file}`, import.meta.url),
  ];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found) throw new Error(`docs/${file} is missing beside the code`);
  return readFileSync(found, 'utf8');
}

function page(lang: string, title: string, body: string): string {
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title} — Cleaver</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}' +
      'pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}code{font-size:.95em}</style>',
    '</head>',
    '<body>',
    '<main>',
    body,
    '</main>',
    '<p><a href="/">Cleaver</a> · <a href="/docs">API reference</a> · <a href="/openapi.json">openapi.json</a></p>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A guide as a complete HTML document. Its text is ours (the repository's), not a user's. */
export function guideHtml(guide: Guide): string {
  // The snippet markers of the Markdown (<!-- snippet: NAME -->) are for tests, not readers.
  const markdown = guideMarkdown(guide.file).replace(/^<!-- snippet: [\w-]+ -->\n/gm, '');
  return page(guide.lang, guide.title, marked.parse(markdown, { async: false, gfm: true }));
}

/** `/`: where a person who opened the service's address goes next. */
export function landingHtml(): string {
  const guides = GUIDES.map((g) => `<li><a href="${g.path}" hreflang="${g.lang}">${g.title}</a></li>`).join('\n');
  return page(
    'en',
    'Cleaver',
    [
      '<h1>Cleaver</h1>',
      '<p>The marketplace side of the integration between a butcher shop’s POS and the marketplace.</p>',
      '<ul>',
      '<li><a href="/console">Console</a>: merchants, orders, keys and webhooks, for operators</li>',
      '<li><a href="/docs">API reference</a> (<a href="/openapi.json">openapi.json</a>)</li>',
      '</ul>',
      '<h2>Guides</h2>',
      '<ul>',
      guides,
      '</ul>',
    ].join('\n'),
  );
}
