import fc from 'fast-check';
import { FILTER_OPERATORS } from '@brand/core';
import { JsonSchema } from '../../src/http/route';
import { OpenApiDocument, resolveSchema } from './openapi-operations';

/**
 * fast-check arbitraries of hostile requests, derived from the OpenAPI document: bodies that
 * follow a route's request schema closely enough to reach its validation and use case, with
 * hostile values planted at random places; hostile path segments; hostile list queries.
 */

/**
 * JSON text spliced into a body as it is: what `JSON.stringify` cannot write, such as a
 * 20-digit integer literal or nesting deeper than its recursion allows.
 */
export class RawJson {
  constructor(readonly text: string) {}
  /** How fast-check prints it in a counterexample: bottomless nesting stays one short line. */
  [fc.toStringMethod](): string {
    return this.text.length > 60
      ? `RawJson(${this.text.slice(0, 30)}…${this.text.length} chars)`
      : `RawJson(${this.text})`;
  }
}

/** The body as sent: JSON with every `RawJson` spliced in; `undefined` sends no body. */
export function serializeBody(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof RawJson ? `\u0001raw${raws.push(item.text) - 1}\u0001` : item,
  );
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_, index: string) => raws[Number(index)]!);
}

/** An object with an own property `key`, even for `__proto__` (an object literal would set the prototype instead). */
function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const nested = (depth: number, open: string, close: string, leaf: string) =>
  new RawJson(`${open.repeat(depth)}${leaf}${close.repeat(depth)}`);

/** Nesting from harmless to far beyond any sane depth, yet well inside the body size limit. */
const DEEP_NESTING: RawJson[] = [64, 3_000, 20_000].flatMap((depth) => [
  nested(depth, '[', ']', '1'),
  nested(depth, '{"a":', '}', '1'),
]);

const HOSTILE_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '%00',
  '\u202e\u0007',
  'x'.repeat(5_000),
  '\u{1F4A5}'.repeat(300),
  "' or '1'='1",
  '"; drop table orders; --',
  '../../etc/passwd',
  '${7*7}',
  '1e308',
  '-1',
  'null',
  '[]',
  '__proto__',
  'constructor',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31T23:59:59Z',
];

const HOSTILE_NUMBERS: number[] = [
  1e308,
  -1e308,
  2 ** 63,
  -(2 ** 63),
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  2 ** 31,
  -1,
  0,
  -0.5,
  0.5,
  1.005,
  123456.789,
  1e-7,
];

/** Number literals JSON.parse turns into Infinity, or whose digits a double cannot hold. */
const HOSTILE_NUMBER_LITERALS: RawJson[] = [
  '99999999999999999999',
  '-99999999999999999999',
  '1E400',
  '-1E400',
  '1.0000000000000000001',
].map((text) => new RawJson(text));

const WRONG_TYPES: unknown[] = [null, true, false, 0, 1, 'x', [], {}, [[]], [null], [{}], [[[]]]];

/** Keys that name Object.prototype's machinery; built by JSON.parse so they are own properties. */
const PROTOTYPE_OBJECTS: unknown[] = [
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"prototype":{"x":1}}',
  '{"__proto__":null}',
  '{"constructor":"x"}',
  '{"hasOwnProperty":1}',
  '{"toString":{}}',
  '{"valueOf":[]}',
].map((text) => JSON.parse(text) as unknown);

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'unknown_field',
  '',
  '\u0000',
  'toString',
  'id',
  'brand_id',
];

/** Any hostile value, whatever the schema. */
const anyHostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...WRONG_TYPES),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_NUMBER_LITERALS),
  fc.constantFrom(...PROTOTYPE_OBJECTS),
  fc.constantFrom(...DEEP_NESTING),
);

type Primitive = string | number | boolean;

/** Marks a field left out of a generated object. */
const NOT_SENT = Symbol('not sent');

/**
 * Values the brand's data really holds, by property name (`sku` → the seeded SKUs), gathered from
 * API responses: a generated body that uses them gets past "unknown SKU" into the use case.
 */
export class ValuePool {
  private readonly byName = new Map<string, Primitive[]>();

  /** Records every primitive of a JSON response under the name of the property holding it. */
  addFrom(json: unknown, name = ''): void {
    if (Array.isArray(json)) {
      for (const item of json) this.addFrom(item, name);
    } else if (json !== null && typeof json === 'object') {
      for (const [key, value] of Object.entries(json)) this.addFrom(value, key);
    } else if ((typeof json === 'string' || typeof json === 'number' || typeof json === 'boolean') && name !== '') {
      const values = this.byName.get(name) ?? [];
      // A handful of distinct values per name is enough to hit real rows; more only slows shrinking.
      if (values.length < 12 && !values.includes(json)) values.push(json);
      this.byName.set(name, values);
    }
  }

  values(name: string): Primitive[] {
    return this.byName.get(name) ?? [];
  }
}

const GENERIC_STRINGS = [
  'x',
  'Test',
  'EUR',
  'NL',
  'DK',
  'en',
  '2026-03-01',
  '2026-03-01T09:00:00Z',
  'buyer@example.com',
  'return',
  'S',
  '42',
];

interface Generation {
  document: OpenApiDocument;
  pool: ValuePool;
  /** Odds of a valid value against a planted hostile one, at every node of the body. */
  validWeight: number;
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema['type'];
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/** A value of `schema` (as its property `name`), mostly valid, with hostile values planted at random depths. */
function valueWithHoles(schema: JsonSchema, name: string, g: Generation, depth: number): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(g.document, schema);
  // Schemas may refer to themselves (categories in categories); below this depth only leaves are made.
  if (depth > 6) return anyHostileValue;
  const valid = conformingValue(resolved, name, g, depth);
  return fc.oneof(
    { weight: g.validWeight, arbitrary: valid },
    { weight: 1, arbitrary: hostileValue(resolved, valid, g, depth) },
  );
}

function conformingValue(schema: JsonSchema, name: string, g: Generation, depth: number): fc.Arbitrary<unknown> {
  const oneOf = schema['oneOf'] as JsonSchema[] | undefined;
  if (oneOf) return fc.oneof(...oneOf.map((alternative) => valueWithHoles(alternative, name, g, depth + 1)));
  const enumerated = schema['enum'] as unknown[] | undefined;
  if (enumerated && enumerated.length > 0) return fc.constantFrom(...enumerated);
  const types = typesOf(schema).filter((type) => type !== 'null');
  const type = types[0];
  const known = g.pool.values(name);
  switch (type) {
    case 'object':
      return objectValue(schema, g, depth);
    case 'array': {
      const items = (schema['items'] as JsonSchema | undefined) ?? {};
      const minLength = Math.min(Number(schema['minItems'] ?? 0), 3);
      const maxLength = Math.max(minLength, Math.min(Number(schema['maxItems'] ?? 3), 3));
      return fc.array(valueWithHoles(items, name, g, depth + 1), { minLength, maxLength });
    }
    case 'string': {
      const strings = known.filter((value): value is string => typeof value === 'string');
      const made = fc.oneof(fc.constantFrom(...GENERIC_STRINGS), fc.string({ maxLength: 8 }));
      return strings.length > 0
        ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...strings) }, { weight: 1, arbitrary: made })
        : made;
    }
    case 'integer':
    case 'number': {
      const numbers = known.filter((value): value is number => typeof value === 'number');
      const min = Math.max(Number(schema['minimum'] ?? 0), -1000);
      const max = Math.min(Number(schema['maximum'] ?? min + 20), min + 20);
      const plain =
        type === 'integer'
          ? fc.integer({ min, max })
          : fc.integer({ min: min * 100, max: max * 100 }).map((cents) => cents / 100);
      return numbers.length > 0
        ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...numbers) }, { weight: 1, arbitrary: plain })
        : plain;
    }
    case 'boolean':
      return fc.boolean();
    default:
      return known.length > 0
        ? fc.oneof(fc.constantFrom(...known), fc.jsonValue({ maxDepth: 2 }))
        : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValue(schema: JsonSchema, g: Generation, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = ((schema['required'] ?? []) as string[]).filter((key) => key in properties);
  const optional = Object.keys(properties).filter((key) => !required.includes(key));
  const values = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [key, valueWithHoles(property, key, g, depth + 1)]),
  );
  // Optional fields the brand's data has values for (customer_number, sku …) are what gets a body
  // into the use case; each is sent half of the time, so alternatives the schema cannot state
  // (customer_id or customer_number, sku or ean) come alone as often as together or not at all.
  // Of the other optional fields only a few at a time: each is another chance to be refused early.
  const known = optional.filter((key) => g.pool.values(key).length > 0);
  const others = optional.filter((key) => !known.includes(key));
  const pick = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, values[key]!]));
  const halfTheTime = Object.fromEntries(
    known.map((key) => [key, fc.option(values[key]!, { nil: NOT_SENT, freq: 2 })]),
  );
  const record = fc
    .tuple(
      fc.record({ ...pick(required), ...halfTheTime }),
      fc.subarray(others, { maxLength: Math.min(others.length, 2) }).chain((few) => fc.record(pick(few))),
    )
    .map(([main, extra]) =>
      Object.fromEntries(Object.entries({ ...main, ...extra }).filter(([, value]) => value !== NOT_SENT)),
    ) as fc.Arbitrary<Record<string, unknown>>;
  const additional = schema['additionalProperties'];
  if (!additional || typeof additional !== 'object') return record;
  // A free-form map (prices by currency, attributes, templates by carrier): real-looking keys and hostile ones.
  const keys = fc.oneof(fc.constantFrom('EUR', 'size', 'color', 'gls', 'a'), fc.constantFrom(...HOSTILE_KEYS));
  const entries = fc.array(fc.tuple(keys, valueWithHoles(additional as JsonSchema, 'value', g, depth + 1)), {
    maxLength: 3,
  });
  return fc
    .tuple(record, entries)
    .map(([base, extra]) => extra.reduce((object, [key, value]) => withOwnKey(object, key, value), base));
}

/** A value that breaks `schema`: a wrong type, a hostile scalar, the shape swapped, or an unexpected key. */
function hostileValue(
  schema: JsonSchema,
  valid: fc.Arbitrary<unknown>,
  g: Generation,
  depth: number,
): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const swapped: fc.Arbitrary<unknown>[] = [];
  if (types.includes('object')) {
    // An array where an object is expected, and an object with keys it does not know.
    swapped.push(valid.map((object) => [object]));
    swapped.push(
      fc
        .tuple(valid, fc.constantFrom(...HOSTILE_KEYS), anyHostileValue)
        .map(([object, key, value]) => withOwnKey(object as Record<string, unknown>, key, value)),
    );
  }
  if (types.includes('array')) {
    // An object where an array is expected, and items that are arrays themselves.
    const items = valueWithHoles((schema['items'] as JsonSchema | undefined) ?? {}, 'item', g, depth + 1);
    swapped.push(items.map((item) => ({ 0: item })));
    swapped.push(fc.constant([[]]));
  }
  return swapped.length > 0
    ? fc.oneof({ weight: 3, arbitrary: anyHostileValue }, ...swapped.map((arbitrary) => ({ weight: 1, arbitrary })))
    : anyHostileValue;
}

/** Whole bodies that are no object of the schema at all (top-level arrays, scalars, broken or bottomless JSON). */
const HOSTILE_TOP_LEVEL: unknown[] = [
  ...DEEP_NESTING,
  [],
  [[]],
  null,
  'x',
  1e308,
  new RawJson('{"a":'),
  new RawJson('{"a":1,}'),
  new RawJson('{"a":1}{"b":2}'),
  new RawJson('\u0000'),
];

/**
 * The body of one request: the schema's body with planted hostile values (most of the time), a
 * hostile top-level value, or no body at all. Without a schema (actions such as `/approve`),
 * the route gets hostile bodies it never asked for.
 */
export function hostileBody(
  document: OpenApiDocument,
  pool: ValuePool,
  schema: JsonSchema | null,
): fc.Arbitrary<unknown> {
  const tops = fc.constantFrom(...HOSTILE_TOP_LEVEL);
  if (!schema) return fc.oneof(fc.constant(undefined), fc.constant({}), tops, anyHostileValue);
  // Bodies with a hole or two get past validation's first refusal into the use case more often;
  // bodies riddled with holes probe the validation itself.
  const fewHoles = valueWithHoles(schema, '', { document, pool, validWeight: 40 }, 0);
  const manyHoles = valueWithHoles(schema, '', { document, pool, validWeight: 4 }, 0);
  return fc.oneof(
    { weight: 4, arbitrary: fewHoles },
    { weight: 4, arbitrary: manyHoles },
    { weight: 1, arbitrary: tops },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Path segments, already percent-encoded, that no id column holds or that make the decoder stumble. */
const HOSTILE_SEGMENTS = [
  '1e308',
  '-1',
  '0',
  '99999999999999999999',
  '9223372036854775808',
  '9007199254740993',
  '1.5',
  '%00',
  '1%00',
  'abc',
  '%20',
  '0x10',
  '%2B1',
  'null',
  '__proto__',
  'constructor',
  '%ED%A0%80',
  '%FF',
  '%25',
  'x'.repeat(2_000),
  'Infinity',
  'NaN',
];

/**
 * The path segments every route with path parameters is tried with, whatever the seed: the
 * classic ones (beyond every id column, negative, NUL, not a number, undecodable) and another
 * brand's id. Each gives every parameter that segment.
 */
export function pathSegmentExamples(
  parameters: readonly string[],
  foreign: readonly string[],
): Record<string, string>[] {
  if (parameters.length === 0) return [];
  const segments = ['1e308', '-1', '99999999999999999999', '%00', 'abc', '%FF', ...foreign.slice(0, 1)];
  return segments.map((segment) => Object.fromEntries(parameters.map((parameter) => [parameter, segment])));
}

/** A path parameter: one of the brand's ids (most often, to reach the use case), another brand's, or a hostile segment. */
export function pathSegment(own: readonly string[], foreign: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...(own.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...own) }] : []),
    ...(foreign.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...foreign) }] : []),
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  );
}

/** Query values, percent-encoded: NUL, invalid UTF-8, broken escapes, numbers out of every range. */
const HOSTILE_QUERY_VALUES = [
  '',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF',
  '%',
  '%ZZ',
  '1e308',
  '-1',
  '0',
  '99999999999999999999',
  '9223372036854775808',
  '1.5',
  'null',
  'true',
  '%5B%5D',
  '__proto__',
  'constructor',
  '2026-13-45',
  '2026-03-01T25%3A00%3A00Z',
  'x'.repeat(3_000),
];

export interface ListVocabulary {
  filterKeys: string[];
  sortKeys: string[];
  includes: string[];
  /** Real cursors of this list, from a first page. */
  cursors: string[];
  /** Non-list query parameters of the route (export lists take `system_id` …). */
  query: { name: string; required: boolean; schema: JsonSchema }[];
}

/** Reads the list vocabulary (filter and sort keys, includes) from a list operation's parameters. */
export function listVocabulary(
  list: Record<string, JsonSchema>,
  query: ListVocabulary['query'],
  cursors: string[],
): ListVocabulary {
  const enumAt = (schema: JsonSchema | undefined, ...path: string[]): string[] => {
    let node: unknown = schema;
    for (const step of path) node = (node as Record<string, unknown> | undefined)?.[step];
    return ((node as { enum?: string[] } | undefined)?.enum ?? []).filter(
      (value): value is string => typeof value === 'string',
    );
  };
  return {
    filterKeys: enumAt(list['filter_groups'], 'items', 'properties', 'filters', 'items', 'properties', 'key'),
    sortKeys: enumAt(list['sort'], 'items', 'properties', 'key'),
    includes: enumAt(list['includes[]'], 'items'),
    cursors,
    query,
  };
}

/** A query string of a list route: mostly its own vocabulary with hostile values, sometimes junk shapes. */
export function hostileListQuery(vocabulary: ListVocabulary, pool: ValuePool): fc.Arbitrary<string> {
  const encodedPool = (name: string) => pool.values(name).map((value) => encodeURIComponent(String(value)));
  const value = (name: string) =>
    fc.oneof(
      ...(encodedPool(name).length > 0 ? [fc.constantFrom(...encodedPool(name))] : []),
      fc.constantFrom(...HOSTILE_QUERY_VALUES),
      fc.constantFrom('a', '1', '2026-03-01T00%3A00%3A00Z'),
    );
  const oneOfOrHostile = (valid: string[], hostile: string[]) =>
    valid.length > 0 ? fc.oneof(fc.constantFrom(...valid), fc.constantFrom(...hostile)) : fc.constantFrom(...hostile);
  const index = fc.constantFrom('0', '1', '99999999', '-1', 'x', '__proto__', '');

  const filterKey = oneOfOrHostile(vocabulary.filterKeys, [
    'unknown',
    'brand_id',
    '__proto__',
    'constructor',
    '',
    'id%00',
    'ID',
  ]);
  const filter = fc
    .record({
      group: index,
      filter: index,
      key: filterKey,
      operator: fc.option(oneOfOrHostile([...FILTER_OPERATORS], ['like', 'EQ', '', '__proto__', 'in%00']), {
        nil: undefined,
      }),
      valueShape: fc.constantFrom('scalar', 'array', 'object', 'deep'),
      not: fc.option(fc.constantFrom('true', 'false', '1', 'maybe', ''), { nil: undefined }),
      or: fc.option(fc.constantFrom('true', 'false', 'x'), { nil: undefined }),
    })
    .chain((f) =>
      fc.tuple(fc.constant(f), value(f.key), value(f.key)).map(([f, first, second]) => {
        const at = `filter_groups[${f.group}][filters][${f.filter}]`;
        const values = {
          scalar: [`${at}[value]=${first}`],
          array: [`${at}[value][]=${first}`, `${at}[value][]=${second}`],
          object: [`${at}[value][x]=${first}`],
          deep: [`${at}[value][a][b][c][d][e]=${first}`],
        }[f.valueShape];
        return [
          `${at}[key]=${f.key}`,
          ...(f.operator !== undefined ? [`${at}[operator]=${f.operator}`] : []),
          ...values,
          ...(f.not !== undefined ? [`${at}[not]=${f.not}`] : []),
          ...(f.or !== undefined ? [`filter_groups[${f.group}][or]=${f.or}`] : []),
        ].join('&');
      }),
    );
  const sort = fc
    .tuple(
      index,
      oneOfOrHostile(vocabulary.sortKeys, ['unknown', '__proto__', '', 'id%00', 'brand_id']),
      fc.option(fc.constantFrom('ASC', 'DESC', 'asc', 'UP', '', '%00'), { nil: undefined }),
    )
    .map(([i, key, direction]) =>
      [`sort[${i}][key]=${key}`, ...(direction !== undefined ? [`sort[${i}][direction]=${direction}`] : [])].join('&'),
    );
  const junk = fc.constantFrom(
    'filter_groups=1',
    'filter_groups[]=x',
    'filter_groups[0]=x',
    'filter_groups[0][filters]=x',
    'filter_groups[0][filters][0]=x',
    'sort=id',
    'sort[]=id',
    'sort[0]=id',
    'sort[0][key][]=id',
    'includes=lines',
    'includes[0][x]=1',
    'limit[]=1',
    'page[x]=1',
    'cursor[]=a',
    'a[b][c][d][e][f][g][h]=1',
    '%=1',
    '%00=%00',
    Array.from({ length: 1_100 }, (_, i) => `p${i}=1`).join('&'),
  );
  const numberish = (valid: fc.Arbitrary<number>) =>
    fc.oneof(valid.map(String), fc.constantFrom(...HOSTILE_QUERY_VALUES));
  const fragments: fc.Arbitrary<string>[] = [
    filter,
    sort,
    junk,
    numberish(fc.integer({ min: 1, max: 100 })).map((limit) => `limit=${limit}`),
    numberish(fc.integer({ min: 0, max: 3 })).map((page) => `page=${page}`),
    numberish(fc.integer({ min: 0, max: 50 })).map((id) => `starting_after=${id}`),
    fc
      .oneof(
        ...(vocabulary.cursors.length > 0
          ? [
              fc
                .constantFrom(...vocabulary.cursors)
                .chain((cursor) => fc.constantFrom(cursor, `${cursor}x`, cursor.slice(1), cursor.toUpperCase())),
            ]
          : []),
        fc.constantFrom('abc', 'eyJ9', 'eyJpZCI6MX0', 'eyJrIjpbMV19.AAAA', ...HOSTILE_QUERY_VALUES),
      )
      .map((cursor) => `cursor=${cursor}`),
    oneOfOrHostile(vocabulary.includes, ['unknown', '__proto__', '', '%00']).map((include) => `includes[]=${include}`),
    ...vocabulary.query.map(({ name }) => value(name).map((v) => `${encodeURIComponent(name)}=${v}`)),
  ];
  // A required parameter (an export's system_id) is always there, so the rest gets looked at.
  const required = vocabulary.query
    .filter((parameter) => parameter.required)
    .map(({ name }) => value(name).map((v) => `${encodeURIComponent(name)}=${v}`));
  return fc
    .tuple(fc.tuple(...required), fc.array(fc.oneof(...fragments), { maxLength: 6 }))
    .map(([always, parts]) => [...always, ...parts].join('&'));
}
