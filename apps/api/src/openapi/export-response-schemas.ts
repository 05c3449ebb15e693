import { JsonSchema } from '../http/route';
import { nullable, ref } from './schema-building';

/*
 * The export page and mark answer by component name, for routes that still declare plain JSON
 * responses; declared routes use `exportPageOf` and `markedOf` of `http/wire-schema.ts`.
 */

/** `{ "<key>": [<item>…], "has_more", "next_cursor" }`: an export page, walked by cursor and never counted. */
export function exportResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key, 'has_more', 'next_cursor'],
    properties: {
      [key]: {
        type: 'array',
        items: ref(itemSchema),
        description: 'Documents this system has not marked exported (at or before not_exported_since)',
      },
      has_more: { type: 'boolean' },
      next_cursor: nullable('string', {
        description:
          'Pass as cursor (with the same system_id and flags) to get the next page; null when has_more is false',
      }),
    },
  };
}

/** `{ "<key>": [<item>…] }`: the documents a mark-as-exported call marked, as they are now. */
export function markResponseSchema(key: string, itemSchema: string): JsonSchema {
  return {
    type: 'object',
    required: [key],
    properties: {
      [key]: { type: 'array', items: ref(itemSchema), description: 'The marked documents, with their exports' },
    },
  };
}
