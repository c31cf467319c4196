#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: nothing to build before `npm start`. The
// repository's tsconfig is named explicitly (not looked up from the working directory) because
// its `paths` send @cleaver/pos-client to the package's sources: `cleaver` works from anywhere.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli.ts');
