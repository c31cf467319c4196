#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: nothing to build before `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
