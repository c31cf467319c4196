// Colour and progress for people at a terminal; plain text for pipes, files and scripts.
// Colour follows the usual conventions: only on a terminal (isTTY), never with NO_COLOR set
// (https://no-color.org) or TERM=dumb, and FORCE_COLOR asks for it even through a pipe.
import type { Env, Io } from './common.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

type Stream = { isTTY?: boolean };

export function colourWanted(stream: Stream, env: Env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export interface Paint {
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

export function paint(on: boolean): Paint {
  return on
    ? { green: sgr(32, 39), red: sgr(31, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) }
    : { green: plain, red: plain, yellow: plain, dim: plain, bold: plain };
}

/** Colours for what goes to stdout. */
export const stdoutPaint = (io: Io) => paint(colourWanted(io.stdout, io.env));

export interface Progress {
  /** Shows (or replaces) the live line. */
  update(text: string): void;
  /** Clears the live line, e.g. before a result is printed; update() shows it again. */
  stop(): void;
}

/**
 * A spinner redrawn in place on stderr while something runs, only when stderr is a terminal
 * and the output is for people (not --json); otherwise it does nothing, so pipes get only the
 * result lines.
 */
export function startProgress(io: Io, json: boolean): Progress {
  const live = !json && (io.stderr as Stream).isTTY === true;
  if (!live) return { update() {}, stop() {} };
  let line = '';
  let frame = 0;
  let started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    frame++;
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    io.stderr.write(`\r\x1b[2K${SPINNER[frame % SPINNER.length]} ${line} ${elapsed} s`);
  };
  return {
    update(text) {
      line = text;
      if (timer) return;
      started = Date.now();
      draw();
      timer = setInterval(draw, 120);
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      io.stderr.write('\r\x1b[2K');
    },
  };
}
