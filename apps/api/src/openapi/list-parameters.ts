import { FILTER_OPERATORS, DEFAULT_LIMIT, MAX_LIMIT } from '@brand/core';
import { JsonSchema, ListDocumentation } from '../http/route';

/** The list vocabulary as OpenAPI query parameters, with the resource's own keys spelled out. */
export function listParameters(list: ListDocumentation): JsonSchema[] {
  const filterKeys = list.filterKeys.map((key) => `${key} (${list.fields[key]?.type ?? 'string'})`).join(', ');
  const sortKeys = ['id', ...list.sortKeys.filter((key) => key !== 'id')];
  const parameters: JsonSchema[] = [
    {
      name: 'filter_groups',
      in: 'query',
      style: 'deepObject',
      explode: true,
      description:
        'Filters in PHP bracket notation: filter_groups[0][or]=false&filter_groups[0][filters][0][key]=…&…[operator]=…&…[value]=…&…[not]=false. ' +
        `Operators: ${FILTER_OPERATORS.join(', ')} (in and bt take arrays: …[value][]=a&…[value][]=b). value null means IS NULL. ` +
        `Groups are ANDed; filters in a group are ANDed unless or=true. Filter keys: ${filterKeys}. Unknown keys or operators are a 422.`,
      schema: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            or: { type: 'boolean', default: false },
            filters: {
              type: 'array',
              items: {
                type: 'object',
                required: ['key', 'value'],
                properties: {
                  key: { type: 'string', enum: [...list.filterKeys] },
                  operator: { type: 'string', enum: [...FILTER_OPERATORS], default: 'eq' },
                  value: {},
                  not: { type: 'boolean', default: false },
                },
              },
            },
          },
        },
      },
    },
    {
      name: 'sort',
      in: 'query',
      style: 'deepObject',
      explode: true,
      description: `sort[0][key]=…&sort[0][direction]=ASC|DESC. Keys: ${sortKeys.join(', ')}; an id tiebreaker is added. Keep the same sort on every request of a cursor walk.`,
      schema: {
        type: 'array',
        items: {
          type: 'object',
          required: ['key'],
          properties: {
            key: { type: 'string', enum: sortKeys },
            direction: { type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' },
          },
        },
      },
    },
    {
      name: 'limit',
      in: 'query',
      description: `Page size, 1 to ${MAX_LIMIT}.`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    },
    {
      name: 'cursor',
      in: 'query',
      description: 'next_cursor of the previous page. The response then carries no total.',
      schema: { type: 'string' },
    },
    list.idPrefix
      ? {
          name: 'starting_after',
          in: 'query',
          description:
            `The id of the last item already processed, as the list shows it (\`${list.idPrefix}…\`; the bare ` +
            'number is understood too); only with the default sort (id ASC). The response then carries no total.',
          schema: { type: 'string', pattern: `^(${list.idPrefix})?\\d{1,15}$` },
        }
      : {
          name: 'starting_after',
          in: 'query',
          description:
            'The last id already processed; only with the default sort (id ASC). The response then carries no total.',
          schema: { type: 'integer' },
        },
  ];
  const offered = list.pagedOnly
    ? parameters.filter((p) => p['name'] !== 'cursor' && p['name'] !== 'starting_after')
    : parameters;
  if (list.includes.length > 0) offered.push(includesParameter(list.includes));
  if (!list.cursorOnly) {
    offered.push({
      name: 'page',
      in: 'query',
      description: '0-based page number (offset paging, with total).',
      schema: { type: 'integer', minimum: 0, default: 0 },
    });
  }
  return offered;
}

/** `includes[]`: related objects to embed, on a list or on a single object. */
export function includesParameter(includes: readonly string[]): JsonSchema {
  return {
    name: 'includes[]',
    in: 'query',
    style: 'form',
    explode: true,
    description: 'Related objects to embed.',
    schema: { type: 'array', items: { type: 'string', enum: [...includes] } },
  };
}
