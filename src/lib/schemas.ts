import type { FastifyReply } from 'fastify';
import { type TObject, type TSchema, Type } from 'typebox';
import { UUID_PATTERN } from './ids.js';

/** Every error body (spec 7, D22). */
export const ErrorBody = Type.Object(
  {
    title: Type.String({ description: 'What went wrong, naming the field.' }),
    status: Type.Integer({ description: 'Its current status.' }),
  },
  { additionalProperties: true, $id: 'Error' },
);

export const ErrorRef = Type.Ref('Error');

/** Error responses a route may give, for its response schema. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [code, ErrorRef]));
}

export const Uuid = (options: object = {}) => Type.String({ format: 'uuid', pattern: UUID_PATTERN, ...options });
export const Status = Type.Enum(['AVAILABLE', 'UNAVAILABLE']);
export const DateTime = (options: object = {}) => Type.String({ format: 'date-time', ...options });

/**
 * A shared schema with the description of one field that uses it, for the published document. A
 * copy with every own property (TypeBox keeps `~optional` and `~kind` non-enumerable, which a
 * spread would drop); the shared schema is not changed.
 */
export function described<T extends TSchema>(schema: T, description: string): T {
  return Object.defineProperties(Object.create(Object.getPrototypeOf(schema)) as T, {
    ...Object.getOwnPropertyDescriptors(schema),
    description: { value: description, enumerable: true, writable: true, configurable: true },
  });
}

/** An object schema whose named fields carry the descriptions they have where this copy is used. */
export function withFieldDescriptions<T extends TObject>(
  schema: T,
  descriptions: { [K in keyof T['properties']]?: string },
): T {
  const properties: Record<string, TSchema> = { ...schema.properties };
  for (const [name, text] of Object.entries(descriptions) as [string, string | undefined][]) {
    const field = properties[name];
    if (field && text !== undefined) properties[name] = described(field, text);
  }
  return Object.defineProperties(Object.create(Object.getPrototypeOf(schema)) as T, {
    ...Object.getOwnPropertyDescriptors(schema),
    properties: { value: properties, enumerable: true, writable: true, configurable: true },
  });
}

export const NoContent = Type.Null({ description: 'No body' });

/**
 * An answer without a body (202 of an action, 200 of PATCH …/details): nothing on the wire and no
 * Content-Type, as the contract says, rather than a JSON `null` (D35).
 */
export function sendNoBody(reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).send(undefined as never);
}

/** preValidation hook for routes whose body is optional: no body is validated as `{}`. */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * D27: answers a route gives in another dialect than `response` (Open Delivery's, for a key
     * with the opendelivery profile), by status; written from the route declaration's
     * `opendelivery.answers` (route-declaration.ts). The OpenAPI document shows both shapes (anyOf);
     * `response` alone is compiled into the serializer, and the route serialises the other
     * dialect itself with `sendInDialect`, so the common answer keeps its fast serializer.
     */
    dialectResponses?: Record<number, TSchema>;
  }
}

/**
 * An answer in the dialect of `dialectResponses`: built field by field by the caller (an
 * allow-list by construction) and serialised as built. A reply with a serializer of its own gets
 * no Content-Type from Fastify, so it is set here: every JSON answer says it is JSON (D35).
 */
export function sendInDialect(reply: FastifyReply, body: unknown): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(body as never);
}
