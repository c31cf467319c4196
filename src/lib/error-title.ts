// The title of the error a request was answered with, noted where the answer is built (the error
// handler, an injected answer) for what reads it after the answer: the integrator's request log.
// A symbol-keyed property set on failed requests only, so a request that succeeds costs nothing.

const ERROR_TITLE = Symbol('cleaver.errorTitle');

type Noted = { [ERROR_TITLE]?: string };

export function noteErrorTitle(request: object, title: string): void {
  (request as Noted)[ERROR_TITLE] = title;
}

export function errorTitleOf(request: object): string | null {
  return (request as Noted)[ERROR_TITLE] ?? null;
}
