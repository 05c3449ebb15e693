import {
  Static,
  TArray,
  TBoolean,
  TInteger,
  TObject,
  TOptional,
  TSchema,
  TString,
  TUnsafe,
  Type,
} from '@sinclair/typebox';

/*
 * Every response shape is declared once, with these builders (TypeBox): the declaration is the
 * JSON Schema the OpenAPI document shows, and `Static<typeof X>` is the TypeScript type the
 * presenter returns. A presenter that leaves out a field, adds one or gives it another type does
 * not compile; a route whose handler answers something else than its declared response does not
 * compile either. The builders keep a money amount, a date-time or a nullable field described the
 * same way everywhere in the document.
 */

export { Type };
export type { Static, TSchema };

const SCHEMA_PREFIX = '#/components/schemas/';

/** Named shapes by component name: filled as modules declare them, read by the OpenAPI builder. */
const COMPONENTS = new Map<string, TSchema>();

/**
 * Declares a named response shape, shown once under `components.schemas` and referenced by
 * `$ref` wherever it is used. The returned schema is that reference, typed as the shape.
 */
export function component<T extends TSchema>(name: string, schema: T): TUnsafe<Static<T>> {
  if (COMPONENTS.has(name)) throw new Error(`the response shape ${name} is declared twice`);
  COMPONENTS.set(name, schema);
  return Type.Unsafe<Static<T>>({ $ref: `${SCHEMA_PREFIX}${name}` });
}

/**
 * A reference to the named shape `name` before its declaration exists, for shapes that contain
 * each other (a product lists its variants and a variant shows its product; a category lists its
 * subcategories): one of them must be referred to by name. `T` is what the presenter sends there,
 * the declared shape or a narrower view of it (a subcategory without includes of its own). The
 * OpenAPI test checks that every reference resolves.
 */
export function componentNamed<T>(name: string): TUnsafe<T> {
  return Type.Unsafe<T>({ $ref: `${SCHEMA_PREFIX}${name}` });
}

/**
 * The named shapes `roots` use, directly or through other named shapes, by name: exactly the
 * components the document needs. A reference to another name (a request DTO's component) is left
 * alone; the OpenAPI test checks that every reference of the document resolves.
 */
export function componentsUsedBy(roots: readonly unknown[]): Record<string, TSchema> {
  const found = new Map<string, TSchema>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_PREFIX)) {
      const name = ref.slice(SCHEMA_PREFIX.length);
      if (found.has(name)) return;
      const schema = COMPONENTS.get(name);
      // Request bodies are class-validator DTOs with components of their own; only response shapes live here.
      if (!schema) return;
      found.set(name, schema);
      visit(schema);
      return;
    }
    Object.values(node).forEach(visit);
  };
  roots.forEach(visit);
  return Object.fromEntries([...found].sort(([a], [b]) => a.localeCompare(b)));
}

/** Removes TypeBox's symbol keys and copies the plain JSON Schema (what `res.json` would show). */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/**
 * The same schema or null. A plain typed schema becomes `type: [t, "null"]` (an enum gains null);
 * a reference or a composite becomes `oneOf: [schema, {type: "null"}]`, with the description kept
 * outside.
 */
export function nullable<T extends TSchema>(
  schema: T,
  options: { description?: string } = {},
): TUnsafe<Static<T> | null> {
  const json = plain(schema);
  if (typeof json['type'] === 'string') {
    const enumValues = json['enum'] as unknown[] | undefined;
    return Type.Unsafe<Static<T> | null>({
      ...json,
      type: [json['type'], 'null'],
      ...(enumValues ? { enum: [...enumValues, null] } : {}),
      ...options,
    });
  }
  const { description, ...rest } = json;
  const text = options.description ?? (description as string | undefined);
  return Type.Unsafe<Static<T> | null>({
    oneOf: [rest, { type: 'null' }],
    ...(text !== undefined ? { description: text } : {}),
  });
}

/** One of these strings; give it a lifecycle's `states` so the document lists exactly the states the core knows. */
export function oneOfValues<const V extends string>(
  values: readonly V[],
  options: { description?: string } = {},
): TUnsafe<V> {
  return Type.Unsafe<V>({ type: 'string', enum: [...values], ...options });
}

/** The same value, always (a kind tag). */
export function constant<const V extends string>(value: V, options: { description?: string } = {}): TUnsafe<V> {
  return Type.Unsafe<V>({ type: 'string', const: value, ...options });
}

export const integer = (description?: string): TInteger => Type.Integer(description ? { description } : {});
export const string = (description?: string): TString => Type.String(description ? { description } : {});
export const boolean = (description?: string): TBoolean => Type.Boolean(description ? { description } : {});
export const dateTime = (description?: string): TString =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });
/** A calendar day (YYYY-MM-DD). */
export const day = (description?: string): TString =>
  Type.String({ format: 'date', ...(description ? { description } : {}) });
/** An exact amount as a JSON number; never more than 2 decimals. */
export const amount = (description: string): TUnsafe<number> =>
  Type.Unsafe<number>({ type: 'number', description: `${description}; at most 2 decimals` });
/** A percentage (25 = 25 %), as a JSON number with at most 2 decimals. */
export const percentage = (description: string): TUnsafe<number> =>
  Type.Unsafe<number>({
    type: 'number',
    minimum: 0,
    maximum: 100,
    description: `${description}, in percent (25 = 25 %); at most 2 decimals`,
  });
export const currency = (description?: string): TString =>
  Type.String({ pattern: '^[A-Z]{3}$', ...(description ? { description } : {}) });
export const country = (description?: string): TString =>
  Type.String({ pattern: '^[A-Z]{2}$', ...(description ? { description } : {}) });
/** Custom fields as the client sent them: any JSON object. */
export const meta = (description: string): TUnsafe<Record<string, unknown>> =>
  Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    additionalProperties: true,
    description: `${description}; {} when none`,
  });
/** A map of strings to strings (attributes, translations by locale). */
export const stringMap = (description?: string): TUnsafe<Record<string, string>> =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string' },
    ...(description ? { description } : {}),
  });
/** An object whose keys the data chooses (prices by currency code), every value of the one shape. */
export const mapOf = <T extends TSchema>(value: T, description?: string): TUnsafe<Record<string, Static<T>>> =>
  Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    additionalProperties: value,
    ...(description ? { description } : {}),
  });
export const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
export const arrayOf = <T extends TSchema>(items: T, description?: string): TArray<T> =>
  Type.Array(items, description ? { description } : {});

type ListShape<K extends string, T extends TSchema> = TObject<
  { [key in K]: TArray<T> } & {
    has_more: TBoolean;
    next_cursor: TUnsafe<string | null>;
    total: TOptional<TInteger>;
  }
>;

/** `{ "<key>": [<item>…], "has_more", "next_cursor", "total"? }`: a page of a list. */
export function listOf<K extends string, T extends TSchema>(key: K, item: T): ListShape<K, T> {
  return Type.Object({
    [key]: Type.Array(item),
    has_more: Type.Boolean(),
    next_cursor: nullable(Type.String(), {
      description: 'Pass as cursor to get the next page; null when has_more is false',
    }),
    total: Type.Optional(
      Type.Integer({ description: 'Rows matching the filters; absent when cursor or starting_after is used' }),
    ),
  }) as unknown as ListShape<K, T>;
}

/** `{ "<key>": <object> }`: one object under its singular key. */
export function wrapped<K extends string, T extends TSchema>(key: K, item: T): TObject<{ [key in K]: T }> {
  return Type.Object({ [key]: item } as { [key in K]: T });
}

type ExportPageShape<K extends string, T extends TSchema> = TObject<
  { [key in K]: TArray<T> } & { has_more: TBoolean; next_cursor: TUnsafe<string | null> }
>;

/** `{ "<key>": [<item>…], "has_more", "next_cursor" }`: an export page, walked by cursor and never counted. */
export function exportPageOf<K extends string, T extends TSchema>(key: K, item: T): ExportPageShape<K, T> {
  return Type.Object({
    [key]: Type.Array(item, {
      description: 'Documents this system has not marked exported (at or before not_exported_since)',
    }),
    has_more: Type.Boolean(),
    next_cursor: nullable(Type.String(), {
      description:
        'Pass as cursor (with the same system_id and flags) to get the next page; null when has_more is false',
    }),
  }) as unknown as ExportPageShape<K, T>;
}

/** `{ "<key>": [<item>…] }`: the documents a mark-as-exported call marked, as they are now. */
export function markedOf<K extends string, T extends TSchema>(key: K, item: T): TObject<{ [key in K]: TArray<T> }> {
  return Type.Object({
    [key]: Type.Array(item, { description: 'The marked documents, with their exports' }),
  } as { [key in K]: TArray<T> });
}
