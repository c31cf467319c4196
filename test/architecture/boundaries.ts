// Reads the source tree and reports where the module boundaries of
// docs/design/architecture.md#module-boundaries are crossed: an import that goes around a
// module's index.ts, an import that runs back up the layers, SQL on another module's table, SQL
// outside a repository. Exceptions are listed in docs/adr/0004-module-boundaries.md.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface SourceFile {
  path: string; // relative to the repository root, with forward slashes
  text: string;
}

export function readTree(root: string, dir: string, extensions = ['.ts']): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (extensions.some((e) => name.endsWith(e)) && !name.endsWith('.test.ts')) {
        out.push({ path: relative(root, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(join(root, dir));
  return out;
}

/** Relative import specifiers of a file (static `import … from` and `export … from`). */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g;
  for (let m = re.exec(text); m; m = re.exec(text)) found.push(m[1]);
  const dynamic = /import\(\s*'(\.[^']+)'\s*\)/g;
  for (let m = dynamic.exec(text); m; m = dynamic.exec(text)) found.push(m[1]);
  return found;
}

/** `src/modules/auth/auth-service.js` → `src/modules/auth/auth-service.ts`. */
export function resolveImport(from: string, specifier: string): string {
  return relative(resolve('/'), resolve('/', dirname(from), specifier))
    .split('\\')
    .join('/')
    .replace(/\.js$/, '.ts');
}

/** The layer of a path: `module:<name>`, or one of the top folders of src. */
export function layerOf(path: string): string {
  if (path === 'src/config.ts') return 'config';
  const m = /^src\/modules\/([^/]+)\//.exec(path);
  if (m) return `module:${m[1]}`;
  const top = /^src\/([^/]+)\//.exec(path);
  if (top) return top[1];
  return 'root';
}

/**
 * What each layer may import, besides itself. Lower layers never import upper ones:
 * lib, config ← db ← jobs ← modules ← plugins ← app/console/cli.
 */
const MAY_IMPORT: Record<string, string[]> = {
  config: [],
  lib: [],
  db: ['lib', 'config'],
  lifecycle: [],
  jobs: ['lib', 'db'],
  module: ['lib', 'db', 'jobs', 'config', 'module'],
  plugins: ['lib', 'db', 'lifecycle', 'config', 'module'],
  console: ['lib', 'db', 'plugins', 'config', 'module', 'root'],
  cli: ['lib', 'db', 'config', 'module', 'root', 'cli'],
  root: ['lib', 'db', 'jobs', 'lifecycle', 'plugins', 'config', 'module', 'console', 'cli', 'root'],
};

export interface Problem {
  file: string;
  problem: string;
}

export function importProblems(files: SourceFile[]): Problem[] {
  const problems: Problem[] = [];
  for (const file of files) {
    const fromLayer = layerOf(file.path);
    const fromKind = fromLayer.startsWith('module:') ? 'module' : fromLayer;
    for (const specifier of importsOf(file.text)) {
      const target = resolveImport(file.path, specifier);
      if (!target.startsWith('src/')) continue;
      const toLayer = layerOf(target);
      if (toLayer === fromLayer) continue;
      const toKind = toLayer.startsWith('module:') ? 'module' : toLayer;
      if (!(MAY_IMPORT[fromKind] ?? []).includes(toKind)) {
        problems.push({ file: file.path, problem: `${fromLayer} must not import ${target} (${toLayer})` });
        continue;
      }
      if (toKind === 'module' && !/\/index\.ts$/.test(target)) {
        problems.push({ file: file.path, problem: `imports ${target}: go through its module's index.ts` });
      }
    }
  }
  return problems;
}

/** Tables referenced by SQL text: after FROM, JOIN, INTO, UPDATE, TABLE, REFERENCES. */
export function tablesIn(text: string, known: Set<string>): string[] {
  const found = new Set<string>();
  const re = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|REFERENCES)\s+([a-z_][a-z0-9_]*)/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const name = m[1].toLowerCase();
    if (known.has(name)) found.add(name);
  }
  return [...found];
}

export function tableProblems(
  files: SourceFile[],
  owners: Record<string, string>,
  allowed: Array<{ file: string; table: string }>,
): Problem[] {
  const known = new Set(Object.keys(owners));
  const problems: Problem[] = [];
  for (const file of files) {
    const tables = tablesIn(file.text, known);
    if (tables.length === 0) continue;
    const layer = layerOf(file.path);
    const isRepository = /-repository\.ts$/.test(file.path) || layer === 'db' || layer === 'jobs';
    if (!isRepository) {
      problems.push({ file: file.path, problem: `SQL on ${tables.join(', ')} outside a *-repository.ts` });
      continue;
    }
    if (!layer.startsWith('module:')) continue;
    const module = layer.slice('module:'.length);
    for (const table of tables) {
      if (owners[table] === module) continue;
      if (allowed.some((a) => a.file === file.path && a.table === table)) continue;
      problems.push({ file: file.path, problem: `SQL on ${table}, a table of the ${owners[table]} module` });
    }
  }
  return problems;
}

/** Tables created by the migrations. */
export function migratedTables(root: string): string[] {
  const dir = join(root, 'src/db/migrations');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)])
    .map((m) => m[1]);
}

/** Cycles in the graph of module → module imports (through index files). */
export function moduleCycles(files: SourceFile[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = layerOf(file.path);
    if (!from.startsWith('module:')) continue;
    for (const specifier of importsOf(file.text)) {
      const to = layerOf(resolveImport(file.path, specifier));
      if (to.startsWith('module:') && to !== from) {
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    }
  }
  const cycles: string[][] = [];
  const visit = (node: string, path: string[]) => {
    for (const next of edges.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push([...path.slice(at), next]);
      else if (path.length < 20) visit(next, [...path, next]);
    }
  };
  for (const start of edges.keys()) visit(start, [start]);
  return cycles;
}
