/**
 * Structures stored as JSON text (meta, attributes, colli, tags, id lists): one representation in
 * both dialects, key order kept, and never filtered on in SQL.
 */
export const toJson = (value: unknown): string => JSON.stringify(value);

export const fromJson = <T>(text: string | null, fallback: T): T =>
  text === null || text === '' ? fallback : (JSON.parse(text) as T);

export const toNullableFlag = (value: boolean | null): number | null => (value === null ? null : value ? 1 : 0);

export const fromNullableFlag = (value: number | boolean | null): boolean | null =>
  value === null ? null : value === true || value === 1;

export const toNullableNumber = (value: number | string | null): number | null =>
  value === null ? null : Number(value);
