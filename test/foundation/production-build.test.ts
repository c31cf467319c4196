// The production build (issue "Performance and footprint"): `npm run build` emits JavaScript in
// dist/ (an esbuild bundle of our modules) with the migrations and console assets beside it, `npm start` runs it (building first
// when the sources changed since), and source maps keep stack traces on the TypeScript lines.
// Database-independent: runs once, on PGlite.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceStamp } from '../../scripts/source-stamp.mjs';
import { testDbKind } from '../support/test-db.js';

const ROOT = new URL('../..', import.meta.url).pathname;

describe.runIf(testDbKind() === 'pglite')('production build', () => {
  it('builds dist/, and npm start serves from it with the stamp current', async () => {
    // The test run's global setup built dist/ with scripts/build.mjs (`npm run build`;
    // test/support/built-cli.ts): building again here would pull the files from under the other
    // tests' processes. Its stamp names these very sources.
    expect(readFileSync(join(ROOT, 'dist/.source-stamp'), 'utf8')).toBe(sourceStamp(ROOT));
    for (const file of [
      'dist/cli.js',
      'dist/cli.js.map',
      'dist/migrations/0001_foundation.sql',
      'dist/assets/console.css',
      'dist/docs/events.md',
    ]) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-dist-'));
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', CLEAVER_DATA_DIR: dataDir, LOG_LEVEL: 'warn', CLEAVER_SHUTDOWN_DRAIN_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    try {
      await expect
        .poll(() => /listening on (http:\S+)/.exec(out)?.[1], { timeout: 60_000, interval: 100 })
        .toBeTruthy();
      // Already built from these sources: no second build.
      expect(out).not.toMatch(/building/);
      const url = /listening on (http:\S+)/.exec(out)?.[1];
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(200);
      expect((await fetch(`${url}/console/login`)).status).toBe(200);
      // The events guide is read from beside the bundle.
      expect((await fetch(`${url}/docs/events`)).status).toBe(200);
      // The service runs in the environment of scripts/service-env.mjs (docs/adr/0008).
      const servicePid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim());
      const environ = readFileSync(`/proc/${servicePid}/environ`, 'utf8').split('\0');
      expect(environ).toContain('MALLOC_MMAP_THRESHOLD_=131072');
      expect(readFileSync(`/proc/${servicePid}/cmdline`, 'utf8')).toContain('dist/cli.js');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
    // The bundle's maps name the TypeScript sources, so a stack trace points at a .ts line.
    const sources = readdirSync(join(ROOT, 'dist'))
      .filter((f) => f.endsWith('.js.map'))
      .flatMap((f) => (JSON.parse(readFileSync(join(ROOT, 'dist', f), 'utf8')) as { sources: string[] }).sources);
    expect(sources.some((s) => s.endsWith('src/server.ts'))).toBe(true);
    expect(sources.some((s) => s.endsWith('src/cli.ts'))).toBe(true);
  }, 240_000);
});
