// The events guide (docs/events.md) as an HTML page, for people reading the reference at /docs:
// the Markdown file is the one source, rendered once on the first request. The production build
// copies it beside the bundle (scripts/build.mjs), so it is found in either layout.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';

const CANDIDATES = [
  // dist/: every chunk sits at the top of dist/, the guide in dist/docs/.
  new URL('./docs/events.md', import.meta.url),
  // src/plugins/openapi-docs/ → the repository's docs/.
  new URL('../../../docs/events.md', import.meta.url),
];

function guideMarkdown(): string {
  const found = CANDIDATES.find((url) => existsSync(fileURLToPath(url)));
  if (!found) throw new Error('docs/events.md is missing beside the code');
  return readFileSync(found, 'utf8');
}

/** The guide as a complete HTML document. Its text is ours (the repository's), not a user's. */
export function eventsGuideHtml(): string {
  const body = marked.parse(guideMarkdown(), { async: false, gfm: true });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Event catalog — Cleaver</title>',
    '</head>',
    '<body>',
    '<main>',
    body,
    '</main>',
    '<p><a href="/docs">API reference</a> · <a href="/openapi.json">openapi.json</a></p>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
