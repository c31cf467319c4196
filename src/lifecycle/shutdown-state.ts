// D31: the phases of a stopping process, read by the HTTP layer on every request.
// serving → draining (readiness 503, every answer `Connection: close`, still serving) →
// closing (the listener is closed; a request still arriving on an open connection gets 503
// with Retry-After) → stopped.

export type ShutdownPhase = 'serving' | 'draining' | 'closing' | 'stopped';

export interface ShutdownState {
  phase(): ShutdownPhase;
  enter(phase: Exclude<ShutdownPhase, 'serving'>): void;
}

export function createShutdownState(): ShutdownState {
  let current: ShutdownPhase = 'serving';
  const order: ShutdownPhase[] = ['serving', 'draining', 'closing', 'stopped'];
  return {
    phase: () => current,
    enter(next) {
      // Phases only move forward.
      if (order.indexOf(next) > order.indexOf(current)) current = next;
    },
  };
}
