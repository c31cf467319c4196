// Records how long each test file took, per project, in test-artifacts/test-timings.json, for
// `npm run test:timings` and the ten slowest files `.ci/run` prints at its end
// (scripts/test-timings.mjs). Vitest's JSON reporter times a file from its first test to its
// last, leaving out imports and beforeAll hooks, which are most of the cost of the files that
// start apps, processes or browsers; a module's diagnostic has all of it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export const TIMINGS_FILE = 'test-artifacts/test-timings.json';

export interface FileTiming {
  file: string;
  project: string;
  /** Import, setup, hooks and tests of the file, in milliseconds. */
  ms: number;
  tests: number;
  state: string;
}

export default class TimingsReporter implements Reporter {
  private started = Date.now();

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files: FileTiming[] = modules.map((module) => {
      const d = module.diagnostic();
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name,
        ms: Math.round(
          d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        ),
        tests: [...module.children.allTests()].length,
        state: module.state(),
      };
    });
    mkdirSync(dirname(TIMINGS_FILE), { recursive: true });
    writeFileSync(TIMINGS_FILE, `${JSON.stringify({ wallMs: Date.now() - this.started, files }, null, 1)}\n`);
  }
}
