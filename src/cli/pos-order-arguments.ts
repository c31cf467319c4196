// The arguments of `cleaver pos orders`: its options, and turning them into request bodies with
// a usage error (exit 2) that names the option when one is missing or malformed.
import { readFileSync } from 'node:fs';
import { CANCELLATION_CODES, type CancellationCode, type DeliveryTrackingInfo } from '@cleaver/pos-client';
import { UsageError, valueOptions } from './common.js';

/** Options of `pos orders`, merged into `cleaver pos`'s own (one parse for the whole command). */
export const ORDERS_OPTIONS = {
  ...valueOptions('external-code', 'created-at', 'preparation-time', 'preparation-start', 'reason', 'code', 'mode'),
  ...valueOptions('lat', 'lng', 'event-type', 'message', 'datetime', 'eta-minutes', 'courier', 'json-body'),
  'out-of-stock': { type: 'string', multiple: true },
  'invalid-item': { type: 'string', multiple: true },
  line: { type: 'string', multiple: true },
  label: { type: 'string', multiple: true },
} as const;

export type OrderOption = keyof typeof ORDERS_OPTIONS;
export type Values = Partial<Record<OrderOption, string | string[]>> & {
  url?: string;
  'client-id'?: string;
  'client-secret'?: string;
  json?: boolean;
};

export const TRACKING: OrderOption[] = ['lat', 'lng', 'event-type', 'message', 'datetime', 'eta-minutes', 'courier'];

export const str = (values: Values, name: OrderOption) => values[name] as string | undefined;

export function need(values: Values, name: OrderOption, action: string, what: string): string {
  const value = str(values, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`pos orders ${action} needs --${name} ${what}`);
  return value;
}

export function cancellationCode(value: string, action: string): CancellationCode {
  if (!(CANCELLATION_CODES as readonly string[]).includes(value)) {
    throw new UsageError(
      `pos orders ${action}: --code must be one of ${CANCELLATION_CODES.join(', ')}, got "${value}"`,
    );
  }
  return value as CancellationCode;
}

export function number(
  values: Values,
  name: OrderOption,
  check: (n: number) => boolean,
  what: string,
): number | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${what}, got "${raw}"`);
  return n;
}

export function isoDate(values: Values, name: OrderOption): string | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(Date.parse(raw))) {
    throw new UsageError(`--${name} must be an ISO 8601 date-time such as 2026-03-10T18:45:00Z, got "${raw}"`);
  }
  return raw;
}

/** --json-body FILE: a JSON object, sent as the request body. */
export function bodyFile(values: Values): Record<string, unknown> | undefined {
  const path = str(values, 'json-body');
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--json-body: cannot read ${path}: ${(error as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--json-body: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UsageError(`--json-body: ${path} must hold a JSON object (the request body)`);
  }
  return body as Record<string, unknown>;
}

/** deliveryTrackingInfo from the tracking options; undefined when none is given. */
export function trackingInfo(values: Values): DeliveryTrackingInfo | undefined {
  const lat = number(values, 'lat', (n) => n >= -90 && n <= 90, 'a latitude between -90 and 90');
  const lng = number(values, 'lng', (n) => n >= -180 && n <= 180, 'a longitude between -180 and 180');
  if ((lat === undefined) !== (lng === undefined)) throw new UsageError('--lat and --lng go together');
  const eventType = str(values, 'event-type');
  if ((str(values, 'message') !== undefined || str(values, 'datetime') !== undefined) && eventType === undefined) {
    throw new UsageError('--message and --datetime describe an --event-type: give one');
  }
  const eta = number(values, 'eta-minutes', (n) => Number.isInteger(n) && n >= 0, 'a whole number of minutes');
  const courier = str(values, 'courier');
  const info: DeliveryTrackingInfo = {
    ...(eventType !== undefined
      ? {
          event: {
            type: eventType,
            ...(str(values, 'message') !== undefined ? { message: str(values, 'message') } : {}),
            datetime: isoDate(values, 'datetime') ?? new Date().toISOString(),
          },
        }
      : {}),
    ...(lat !== undefined && lng !== undefined ? { geoLocalization: { latitude: lat, longitude: lng } } : {}),
    ...(eta !== undefined ? { eta: { deliveryEtaInMinutes: eta } } : {}),
    ...(courier !== undefined ? { deliveryPerson: { name: courier } } : {}),
  };
  return Object.keys(info).length > 0 ? info : undefined;
}

/**
 * `--line INDEX=KG` (D38), as often as there are lines to weigh: INDEX the line's position in the
 * order's items (from 0), KG the weighed kilograms; or `--line INDEX --label EAN13` (D41), the
 * scale's label of the pack, each bare `--line` taking the next `--label`. The service checks the
 * rest (KG lines only, the tolerance, at most 3 decimals, the label's rules) and names the field
 * when it refuses.
 */
export function weighedLines(
  values: Values,
): Array<{ index: number; quantity: number } | { index: number; label: string }> {
  const raw = (values.line as string[] | undefined) ?? [];
  const labels = [...((values.label as string[] | undefined) ?? [])];
  if (raw.length === 0) {
    throw new UsageError(
      'pos orders weigh needs --line INDEX=KG (e.g. --line 0=0.94) or --line INDEX --label EAN13, once per line',
    );
  }
  const bare = raw.filter((text) => /^\s*\d+\s*$/.test(text)).length;
  if (bare !== labels.length) {
    throw new UsageError(
      `each --line INDEX without =KG needs one --label EAN13: ${bare} such --line, ${labels.length} --label`,
    );
  }
  return raw.map((text) => {
    const alone = /^\s*(\d+)\s*$/.exec(text);
    if (alone) return { index: Number(alone[1]), label: (labels.shift() as string).trim() };
    const [, index, kg] = /^\s*(\d+)\s*=\s*(\d+(?:[.,]\d+)?)\s*$/.exec(text) ?? [];
    if (!index || !kg) throw new UsageError(`--line must be INDEX=KG such as 0=0.94, got "${text}"`);
    return { index: Number(index), quantity: Number(kg.replace(',', '.')) };
  });
}
