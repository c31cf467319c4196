// Debian's chromium driven by playwright-core (never a browser download): headless, no network
// beyond the app under test, a fresh empty profile per launch (playwright makes a temporary one).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'console');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A full-page screenshot kept as a test artifact (test-artifacts/ is gitignored). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${process.env.TEST_DB ?? 'pglite'}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Every request the page makes must stay on the app (no CDN, no external network). */
export function trackForeignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  return foreign;
}
