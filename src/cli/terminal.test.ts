import { describe, expect, it } from 'vitest';
import type { Io } from './common.js';
import { colourWanted, paint, startProgress } from './terminal.js';

describe('colourWanted', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true], // no-color.org: set and not empty
    [true, { TERM: 'dumb' }, false],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '0' }, false],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, false],
  ])('tty %s, env %j → %s', (isTTY, env, expected) => {
    expect(colourWanted({ isTTY }, env)).toBe(expected);
  });

  it('paint(false) leaves text alone; paint(true) wraps it in SGR codes', () => {
    expect(paint(false).green('ok')).toBe('ok');
    expect(paint(true).green('ok')).toBe('\x1b[32mok\x1b[39m');
    expect(paint(true).dim('x')).toBe('\x1b[2mx\x1b[22m');
  });
});

describe('startProgress', () => {
  const io = (isTTY: boolean) => {
    const written: string[] = [];
    const stream = { isTTY, write: (s: string) => written.push(s) > 0 } as unknown as Io['stderr'];
    return { io: { stdout: stream, stderr: stream, env: {} } as Io, written };
  };

  it('on a terminal: a spinner line, cleared on stop, shown again on the next update', () => {
    const { io: tty, written } = io(true);
    const progress = startProgress(tty, false);
    progress.update('playing takeout…');
    expect(written.at(-1)).toBe('\r\x1b[2K⠙ playing takeout… 0.0 s');
    progress.stop();
    expect(written.at(-1)).toBe('\r\x1b[2K');
    progress.stop(); // twice is harmless
    expect(written.filter((w) => w === '\r\x1b[2K')).toHaveLength(1);
    progress.update('playing kg-items…');
    expect(written.at(-1)).toContain('playing kg-items…');
    progress.stop();
  });

  it('through a pipe, or with --json: nothing at all', () => {
    for (const [isTTY, json] of [
      [false, false],
      [true, true],
    ]) {
      const { io: quiet, written } = io(isTTY);
      const progress = startProgress(quiet, json);
      progress.update('x');
      progress.stop();
      expect(written).toEqual([]);
    }
  });
});
