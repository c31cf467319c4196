// Lenient reading of an upload's inner objects (spec 4.3, D17): each field is checked against its
// shape in catalog-upload-schema.ts, and the first that breaks it is the reason the object is
// dropped and reported (never the whole upload refused). The reasons are said from the schema
// (`unit must be KG or UN`, `name is longer than 500 characters`), so a field, a type or a limit is
// written once. Fields with a reading of their own (ids, prices, serving, images) are read by
// catalog-fields.ts, with the limits of the same schema.
import type { TObject } from 'typebox';

export type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Present and not null. */
export const has = (o: Obj, key: string) => Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;

/** The JSON Schema keywords the upload's shapes use. */
interface FieldSchema {
  type?: string;
  enum?: readonly unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
}

function valueProblem(schema: FieldSchema, v: unknown, key: string, required: boolean): string | null {
  if (schema.enum) return schema.enum.includes(v) ? null : `${key} must be ${schema.enum.join(' or ')}`;
  switch (schema.type) {
    case 'string': {
      // A required text that is blank is as good as missing (a name of spaces names nothing).
      if (required && (typeof v !== 'string' || (schema.minLength !== undefined && !v.trim()))) {
        return `${key} is missing`;
      }
      if (typeof v !== 'string') return `${key} must be a string`;
      if (schema.maxLength !== undefined && v.length > schema.maxLength) {
        return `${key} is longer than ${schema.maxLength} characters`;
      }
      return null;
    }
    case 'integer':
      if (Number.isInteger(v) && (schema.minimum === undefined || (v as number) >= schema.minimum)) return null;
      return schema.minimum === undefined
        ? `${key} must be a whole number`
        : `${key} must be a whole number from ${schema.minimum}`;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? null : `${key} must be a number`;
    case 'boolean':
      return typeof v === 'boolean' ? null : `${key} must be true or false`;
    case 'array':
      return Array.isArray(v) ? null : `${key} must be an array`;
    case 'object':
      return isObject(v) ? null : `${key} must be an object`;
    default:
      return null;
  }
}

/**
 * The reason the first of `keys` (in the order given) breaks its property of `shape`, or null
 * when they all fit. Absent (or null) fits unless the property is required.
 */
export function fieldProblem<S extends TObject>(
  shape: S,
  o: Obj,
  keys: readonly (keyof S['properties'] & string)[],
): string | null {
  for (const key of keys) {
    const required = shape.required?.includes(key) ?? false;
    const problem = has(o, key)
      ? valueProblem(shape.properties[key] as FieldSchema, o[key], key, required)
      : required
        ? `${key} is missing`
        : null;
    if (problem) return problem;
  }
  return null;
}

/** The properties of `shape` that `other` does not have, in `shape`'s order. */
export function keysBeyond<S extends TObject>(shape: S, other: TObject): (keyof S['properties'] & string)[] {
  return Object.keys(shape.properties).filter((key) => !Object.hasOwn(other.properties, key));
}

/** The properties of `shape` but `omit` (read elsewhere: an id by eachEntity), in `shape`'s order. */
export function keysExcept<S extends TObject>(
  shape: S,
  ...omit: (keyof S['properties'] & string)[]
): (keyof S['properties'] & string)[] {
  return Object.keys(shape.properties).filter((key) => !omit.includes(key));
}

/** A string property's longest length, from the schema. */
export function maxLengthOf(schema: unknown): number {
  const max = (schema as FieldSchema).maxLength;
  if (max === undefined) throw new Error('the schema has no maxLength');
  return max;
}
