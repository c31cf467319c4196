// The POS's whole state in one JSON file, replaced atomically: write a temporary file, flush it
// to disk, rename it over the old one, flush the directory. A crash at any instant leaves either
// the old state or the new one, never half a file.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export type LocalOrderStatus = 'RECEIVED' | 'CONFIRMED' | 'READY_FOR_PICKUP' | 'DISPATCHED' | 'DELIVERED' | 'CANCELLED';

export interface LocalOrder {
  orderId: string;
  displayId: string;
  type: string;
  externalCode: string;
  status: LocalOrderStatus;
  total: number;
  /** What the platform said when an action was refused (the order moved on meanwhile). */
  notes: string[];
  /** D38: the scale's reading of each KG line (line index → kilograms), once weighed. */
  weights?: Record<string, number>;
  /** D44: a SCHEDULED order's slot start; it is not dispatched (nor made ready) before then. */
  notBefore?: string;
  updatedAt: string;
}

/** One processed occurrence of an event: (orderId, eventType, createdAt) identifies it (D1). */
export interface ProcessedEvent {
  orderId: string;
  eventType: string;
  createdAt: string;
  processedAt: string;
  outcome: string;
}

export interface PosState {
  onboardedWebhookURL?: string;
  catalog?: { hash: string; status: string; moreInfo: string | null; at: string };
  orders: Record<string, LocalOrder>;
  processed: ProcessedEvent[];
}

export const emptyState = (): PosState => ({ orders: {}, processed: [] });

export function loadState(path: string): PosState {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PosState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw error;
  }
}

export function saveState(path: string, state: PosState): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(state, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export const occurrenceKey = (e: { orderId: string; eventType: string; createdAt: string }) =>
  `${e.orderId}|${e.eventType}|${e.createdAt}`;
