// The getting-started guide (docs/guides/getting-started.md, and its pt-BR twin) run as a new
// reader runs it, from a clean clone with no registry copy of the client: every `<!-- guide: … -->`
// block of the guide, in order, exactly as written. `shell` blocks run in bash, one after the
// other, each where the previous one left off (their `cd`s carry over); the `background` block
// (the sandbox) runs beside them and the `export` lines it prints are what the reader copies into
// the first terminal; the `program` block runs the `<!-- snippet: getting-started -->` program,
// saved where the guide says. The one liberty taken: `<repository-url>` is this repository, and
// `npm link` links into a prefix of the test's own (npm_config_prefix, on PATH) rather than the
// machine's. npm is told to prefer its cache (npm_config_prefer_offline), which only saves the
// network round trips: the tarball of the client comes from the clone, never from a registry.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

type BlockKind = 'shell' | 'background' | 'program';

interface Guide {
  blocks: { kind: BlockKind; text: string }[];
  program: string;
}

function readGuide(file: string): Guide {
  const markdown = readFileSync(join(ROOT, 'docs/guides', file), 'utf8');
  const blocks = [...markdown.matchAll(/^<!-- guide: (\w+) -->\n```sh\n([\s\S]*?)^```$/gm)].map((m) => ({
    kind: m[1] as BlockKind,
    text: m[2],
  }));
  const program = /^<!-- snippet: getting-started -->\n```ts\n([\s\S]*?)^```$/m.exec(markdown);
  if (!program) throw new Error(`docs/guides/${file} has no getting-started snippet`);
  return { blocks, program: program[1] };
}

/** The commands of a block without their comments (the languages differ only there). */
function commands(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '');
}

/** Our own variables, none of npm's own of the run that started the tests (npm_config_*, …). */
function cleanEnv(prefix: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('npm_') || name.startsWith('CLEAVER_') || name === 'INIT_CWD' || name === 'DATABASE_URL')
      continue;
    env[name] = value;
  }
  return {
    ...env,
    PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
    npm_config_prefix: prefix,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    // Any free port: the default 8080 may be taken on a shared machine.
    PORT: '0',
  };
}

/** Runs a block and answers the directory it ended in. */
function runShell(text: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const block = text.replaceAll('<repository-url>', ROOT);
  const out = execFileSync('bash', ['-euo', 'pipefail', '-c', `${block}\npwd`], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  return out.trimEnd().split('\n').at(-1) as string;
}

/** Runs a command to its end; answers its exit code and everything it printed. */
function runToEnd(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    output += String(d);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe('the getting-started guide, from a clean clone, exactly as written', { timeout: 300_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), 'cleaver-guide-'));
  let sandbox: ChildProcess | undefined;
  let sandboxExited: Promise<unknown> = Promise.resolve();

  afterAll(async () => {
    // The sandbox runs as bash → node: its whole process group goes.
    if (sandbox?.pid !== undefined && sandbox.exitCode === null) {
      try {
        process.kill(-sandbox.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await sandboxExited;
    }
    // A clone with its node_modules takes tens of seconds to delete on a busy disk: a process of
    // its own does it, after the test.
    spawn('rm', ['-rf', home], { detached: true, stdio: 'ignore' }).unref();
  });

  it('English and pt-BR: clone, install, the sandbox, the client tarball, then the program to its acknowledgment', async () => {
    const en = readGuide('getting-started.md');
    const pt = readGuide('getting-started.pt-BR.md');
    expect(en.blocks.map((b) => b.kind)).toEqual(['shell', 'background', 'shell', 'program']);
    // Both languages give the same commands: running one runs the other's (their programs both run).
    expect(pt.blocks.map((b) => [b.kind, commands(b.text)])).toEqual(en.blocks.map((b) => [b.kind, commands(b.text)]));

    let env = cleanEnv(join(home, 'npm-prefix'));
    let cwd = home;
    for (const block of en.blocks) {
      if (block.kind === 'shell') cwd = runShell(block.text, cwd, env);
      else if (block.kind === 'background') {
        const child = spawn('bash', ['-euo', 'pipefail', '-c', block.text], {
          cwd,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        sandbox = child;
        sandboxExited = new Promise((resolve) => child.once('exit', resolve));
        let printed = '';
        child.stdout?.on('data', (d) => {
          printed += String(d);
        });
        child.stderr?.on('data', (d) => {
          printed += String(d);
        });
        await expect
          .poll(() => printed, { timeout: 90_000, interval: 200 })
          .toMatch(/export CLEAVER_CLIENT_SECRET=\S+\n/);
        // What the reader copies into the first terminal.
        const exported = Object.fromEntries(
          [...printed.matchAll(/^\s*export (CLEAVER_URL|CLEAVER_CLIENT_ID|CLEAVER_CLIENT_SECRET)=(\S+)$/gm)].map(
            (m) => [m[1], m[2]],
          ),
        );
        expect(Object.keys(exported).sort()).toEqual(['CLEAVER_CLIENT_ID', 'CLEAVER_CLIENT_SECRET', 'CLEAVER_URL']);
        env = { ...env, ...exported };
      } else {
        for (const guide of [en, pt]) {
          writeFileSync(join(cwd, 'getting-started.mts'), guide.program);
          const { code, output } = await runToEnd(block.text, cwd, env, 90_000);
          expect(code, output).toBe(0);
          const lines = output.trimEnd().split('\n');
          expect(lines[0]).toMatch(/^token valid until \d{4}-\d{2}-\d{2}T/);
          expect(lines[1]).toBe('onboarded');
          expect(lines[2]).toMatch(/^catalog SUCCESS/);
          // The sandbox's orders: their events (a CREATED at least), then one acknowledgment of them all.
          const events = lines.slice(3, -1);
          expect(events.length).toBeGreaterThan(0);
          expect(
            events.every((l) => /^[A-Z_]+ order [0-9a-f-]{36}$/.test(l)),
            output,
          ).toBe(true);
          expect(events.some((l) => l.startsWith('CREATED order '))).toBe(true);
          expect(lines.at(-1)).toBe(`acknowledged ${events.length} event(s)`);
        }
      }
    }
    // The client came from the clone's tarball, not a registry.
    const installed = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
    expect(installed.dependencies['@cleaver/pos-client']).toBe('file:../cleaver/cleaver-pos-client-0.1.0.tgz');
  });
});
