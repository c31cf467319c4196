// A warning about a request that was answered all the same (D39: an acknowledgment whose type
// disagreed with the occurrence it named), noted by the route for what reads it after the answer:
// the integrator's request log. A symbol-keyed property, as the error title (error-title.ts), so
// a request without one costs nothing.

const WARNING = Symbol('cleaver.requestWarning');

type Noted = { [WARNING]?: string };

export function noteRequestWarning(request: object, warning: string): void {
  (request as Noted)[WARNING] = warning;
}

export function requestWarningOf(request: object): string | null {
  return (request as Noted)[WARNING] ?? null;
}
