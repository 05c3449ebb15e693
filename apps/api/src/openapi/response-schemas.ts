import { JsonSchema } from '../http/route';
import { nullable, ref } from './schema-building';
import { CATALOG_RESPONSE_SCHEMAS } from './catalog-response-schemas';
import { EXPORT_RESPONSE_SCHEMAS } from './export-response-schemas';
import { LEGACY_RESPONSE_SCHEMAS } from './legacy-response-schemas';
import { ORDERS_RESPONSE_SCHEMAS } from './orders-response-schemas';
import { PRODUCTION_RESPONSE_SCHEMAS } from './production-response-schemas';
import { RETURNS_REFERENCE_RESPONSE_SCHEMAS } from './returns-reference-response-schemas';
import { RETURNS_RESPONSE_SCHEMAS } from './returns-response-schemas';
import { RETURN_PORTALS_RESPONSE_SCHEMAS } from './return-portals-response-schemas';

/**
 * Response objects, declared by hand (the presenters' types are not reflected at runtime). Keep
 * them in step with `src/presenters`; the OpenAPI test checks that the list endpoints' objects
 * carry the fields declared here.
 */

/** Named schemas of responses, merged into `components.schemas`. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ...CATALOG_RESPONSE_SCHEMAS,
  ...ORDERS_RESPONSE_SCHEMAS,
  ...PRODUCTION_RESPONSE_SCHEMAS,
  ...RETURNS_REFERENCE_RESPONSE_SCHEMAS,
  ...RETURNS_RESPONSE_SCHEMAS,
  ...RETURN_PORTALS_RESPONSE_SCHEMAS,
  ...LEGACY_RESPONSE_SCHEMAS,
  ...EXPORT_RESPONSE_SCHEMAS,
};

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

/** `{ "<key>": [{ "<number key>", "id", "action" }…] }`. */
export function syncResponseSchema(key: string, numberKey: string): JsonSchema {
  return {
    type: 'object',
    required: [key],
    properties: {
      [key]: {
        type: 'array',
        items: {
          type: 'object',
          required: [numberKey, 'id', 'action'],
          properties: {
            [numberKey]: { type: 'string' },
            id: nullable('integer', { description: 'null when a delete found nothing to delete' }),
            action: { type: 'string', enum: ['created', 'updated', 'unchanged', 'deleted', 'absent'] },
          },
        },
      },
    },
  };
}
