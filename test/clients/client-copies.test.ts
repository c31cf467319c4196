// The Pascal and C# clients carry their own copy of the event type names (a POS compares with
// them; the clients never map a type they do not know to one of them). As for @cleaver/pos-client
// (test/architecture/pos-client-copies.test.ts), the copies are compared whole with the server's
// list of spec 3.1, so that a type added to the service shows up here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORDER_EVENT_TYPES } from '../../src/modules/events/index.js';
import { ROOT } from '../cli/run-cli.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the event type names of the Pascal and C# clients', () => {
  it('CleaverEvents.pas names every event type of spec 3.1, and no other', () => {
    const names = [...read('clients/pascal/src/CleaverEvents.pas').matchAll(/^\s*EVENT_\w+ = '(\w+)';/gm)].map(
      (m) => m[1],
    );
    expect([...names].sort()).toEqual([...ORDER_EVENT_TYPES].sort());
  });

  it('EventTypes in Models.cs names every event type of spec 3.1, and no other', () => {
    const names = [
      ...read('clients/dotnet/src/Cleaver.Client/Models.cs').matchAll(/public const string \w+ = "(\w+)";/g),
    ].map((m) => m[1]);
    expect([...names].sort()).toEqual([...ORDER_EVENT_TYPES].sort());
  });
});
