import { JsonSchema } from '../http/route';

/*
 * The small builders every hand-written response schema uses, in one place so that a money
 * amount, a date-time or a nullable field is described the same way in every part of the
 * OpenAPI document.
 */

/** A reference to a named schema under `components.schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const nullableDateTime = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  format: 'date-time',
  description,
});
/** A calendar day, or null. */
export const date = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date', description });
export const money = (description: string): JsonSchema => ({
  type: 'number',
  description: `${description}; at most 2 decimals`,
});
export const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$' };
export const meta = (description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: true,
  description: `${description}; {} when none`,
});

/** The object schema with every property required but the `optional` ones (presenters always send the others, null included). */
export const required = (schema: JsonSchema, optional: readonly string[] = []): JsonSchema => ({
  ...schema,
  required: Object.keys(schema['properties'] as object).filter((key) => !optional.includes(key)),
});
