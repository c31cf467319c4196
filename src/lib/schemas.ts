import { Type } from 'typebox';
import { UUID_PATTERN } from './ids.js';

/** Every error body (spec 7, D22). */
export const ErrorBody = Type.Object(
  { title: Type.String(), status: Type.Integer() },
  { additionalProperties: true, $id: 'Error' },
);

export const ErrorRef = Type.Ref('Error');

/** Error responses a route may give, for its response schema. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [code, ErrorRef]));
}

export const Uuid = (options: object = {}) => Type.String({ format: 'uuid', pattern: UUID_PATTERN, ...options });
export const Status = Type.Enum(['AVAILABLE', 'UNAVAILABLE']);
export const DateTime = () => Type.String({ format: 'date-time' });

export const NoContent = Type.Null({ description: 'No body' });

/** preValidation hook for routes whose body is optional: no body is validated as `{}`. */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
