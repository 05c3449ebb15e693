/**
 * Writes query parameters in the PHP bracket notation the API reads (qs):
 * `filter_groups[0][filters][0][key]=updated_at`, `sort[0][direction]=DESC`, and for a parameter
 * whose name already ends in `[]` (`includes[]`) one pair per element. `null` is sent as `null`
 * (a filter value meaning IS NULL); `undefined` leaves the parameter out.
 */
export function toQueryString(query: Readonly<Record<string, unknown>> | undefined): string {
  if (!query) return '';
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query)) appendPairs(pairs, name, value);
  return pairs.join('&');
}

/** Brackets stay readable; everything else is percent-encoded. */
const encodeName = (name: string): string => encodeURIComponent(name).replace(/%5B/gi, '[').replace(/%5D/gi, ']');

function appendPairs(pairs: string[], name: string, value: unknown): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object') {
    pairs.push(`${encodeName(name)}=${encodeURIComponent(scalarText(value))}`);
  } else if (value instanceof Date) {
    pairs.push(`${encodeName(name)}=${encodeURIComponent(value.toISOString())}`);
  } else if (Array.isArray(value)) {
    const listName = name.endsWith('[]');
    value.forEach((element, index) => appendPairs(pairs, listName ? name : `${name}[${index}]`, element));
  } else {
    for (const [key, nested] of Object.entries(value)) appendPairs(pairs, `${name}[${key}]`, nested);
  }
}

function scalarText(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      throw new TypeError(`A query parameter cannot be a ${typeof value}`);
  }
}
