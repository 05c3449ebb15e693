import { JsonSchema } from '../http/route';
import { nullable, ref } from './schema-building';

/**
 * Response objects, declared by hand (the presenters' types are not reflected at runtime). Keep
 * them in step with `src/presenters`; the OpenAPI test checks that the list endpoints' objects
 * carry the fields declared here.
 */

/** Named schemas of responses, merged into `components.schemas`. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {};

/** `{ "<key>": [<item>…], "has_more", "next_cursor", "total"? }`. */
export function listResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key, 'has_more', 'next_cursor'],
    properties: {
      [key]: { type: 'array', items: ref(itemSchema) },
      has_more: { type: 'boolean' },
      next_cursor: nullable('string', {
        description: 'Pass as cursor to get the next page; null when has_more is false',
      }),
      total: {
        type: 'integer',
        description: 'Rows matching the filters; absent when cursor or starting_after is used',
      },
    },
  };
}

/** `{ "<key>": <object> }`. */
export function objectResponseSchema(key: string, schema: string): JsonSchema {
  return { type: 'object', required: [key], properties: { [key]: ref(schema) } };
}
