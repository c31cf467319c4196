// The package as an integrator gets it: `npm pack` (whose prepack builds dist/), then
// `npm install <tarball>` into an empty folder outside the workspace. The sources are copied to a
// staging folder first, so that the build never writes into the repository and two test runs
// (one per database) do not build into the same dist/ at once. The staging folder borrows the
// repository's node_modules for the build tools only (typescript, @types/node): the package
// itself has no dependencies.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const REPO_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const NODE_MODULES = join(REPO_DIR, 'node_modules');
export const TSC = join(NODE_MODULES, 'typescript', 'bin', 'tsc');

/** What the build needs, as `npm pack` would find it in packages/pos-client. */
const PACKAGE_FILES = ['package.json', 'README.md', 'tsconfig.build.json', 'tsconfig.build-cjs.json', 'scripts', 'src'];

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a child process, without what a parent npm or test runner set. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) || name === 'NODE_OPTIONS' || name === 'INIT_CWD') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

export function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: cleanEnv(options.env), timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs and insists on exit code 0, with the output in the error otherwise. */
export async function runOk(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<RunResult> {
  const result = await run(file, args, options);
  if (result.code !== 0) {
    throw new Error(`${file} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

export interface PackedPackage {
  tarball: string;
  /** Paths inside the tarball, as npm pack lists them. */
  files: string[];
  /** An empty project with the tarball installed. */
  consumerDir: string;
  /** Where the package landed in it. */
  installedDir: string;
  cleanup(): void;
}

export async function packAndInstall(): Promise<PackedPackage> {
  const work = mkdtempSync(join(tmpdir(), 'cleaver-pos-client-'));
  const staging = join(work, 'pos-client');
  mkdirSync(staging);
  for (const name of PACKAGE_FILES) cpSync(join(PACKAGE_DIR, name), join(staging, name), { recursive: true });
  symlinkSync(NODE_MODULES, join(staging, 'node_modules'), 'dir');

  const packed = await runOk('npm', ['pack', '--json', '--pack-destination', work], { cwd: staging });
  // npm prints the prepack build's output before the JSON.
  const json = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[\n'))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const tarball = join(work, json[0].filename);

  const consumerDir = join(work, 'consumer');
  mkdirSync(consumerDir);
  writeFileSync(
    join(consumerDir, 'package.json'),
    `${JSON.stringify({ name: 'pos-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  await runOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: consumerDir });
  const installedDir = join(consumerDir, 'node_modules', '@cleaver', 'pos-client');
  return {
    tarball,
    files: json[0].files.map((f) => f.path).sort(),
    consumerDir,
    installedDir,
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** Every file under `dir`, relative, sorted. */
export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

/**
 * A tsconfig for a consumer project: the package's types come from the installed tarball,
 * Node's from the repository (a consumer has its own @types/node). skipLibCheck is off so that
 * the package's declarations are checked too.
 */
export function consumerTsconfig(compilerOptions: Record<string, unknown>, include: string[]): string {
  return JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(NODE_MODULES, '@types')],
        ...compilerOptions,
      },
      include,
    },
    null,
    2,
  );
}
