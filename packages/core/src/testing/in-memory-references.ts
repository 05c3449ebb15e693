import { DomainError } from '../shared/errors';

/**
 * What the SQL adapters' composite foreign keys refuse (DESIGN §9): a row of one brand that names
 * a row of another brand. A row the id names in the writer's own brand, or none at all (test
 * fixtures name bare ids the in-memory adapter does not hold, e.g. stock of a variant never
 * saved), passes; an id held only by another brand is refused, as `(brand_id, x_id) →
 * (brand_id, id)` refuses it in SQL. The error is the one the SQL adapters turn a foreign key
 * violation into, so callers see the same refusal on every adapter.
 */
export function refuseCrossBrandReference(
  what: string,
  brandId: number,
  id: number | null | undefined,
  rows: readonly { id: number; brandId: number }[],
): void {
  if (id === null || id === undefined) return;
  let elsewhere = false;
  for (const row of rows) {
    if (row.id !== id) continue;
    if (row.brandId === brandId) return;
    elsewhere = true;
  }
  if (elsewhere)
    throw new DomainError(
      'has_dependents',
      `${what} ${id} belongs to another brand than ${brandId} (a cross-brand reference)`,
    );
}
