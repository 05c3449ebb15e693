import { withinBrand } from '../brand-session';
import { Executor } from './executor';
import { KeptStatement, runKept } from './kept-statements';

/**
 * The global values `brand_lookups` maps to their brand (DESIGN §9). A value arrives before its
 * brand is known (a bearer token, a login, an OAuth client, a public channel or portal link): one
 * indexed read finds the brand, and the row itself is then read inside that brand.
 */
export const LOOKUP = {
  accessToken: 'access_token',
  loginEmail: 'login_email',
  oauthClient: 'oauth_client',
  orderChannel: 'order_channel',
  returnPortal: 'return_portal',
} as const;
export type LookupKind = (typeof LOOKUP)[keyof typeof LOOKUP];

const BRAND_OF: KeptStatement<{ brand_id: number }> = (db, [kind, value]) =>
  db.selectFrom('brand_lookups').select('brand_id').where('kind', '=', kind).where('value', '=', value);

/** The brand a global value belongs to, or null when no brand has it. */
export async function brandOf(executor: Executor, kind: LookupKind, value: string): Promise<number | null> {
  const [row] = await runKept(executor, BRAND_OF, [kind, value]);
  return row ? Number(row.brand_id) : null;
}

/**
 * Claims `value` for `brandId`, in the caller's transaction: a value another row already holds (of
 * any brand) fails on the look-up's primary key, as the old global unique key did.
 */
export async function claimLookup(executor: Executor, kind: LookupKind, value: string, brandId: number): Promise<void> {
  await executor.db.insertInto('brand_lookups').values({ kind, value, brand_id: brandId }).execute();
}

/** Gives values up (their rows were deleted or now hold another value). */
export async function releaseLookups(executor: Executor, kind: LookupKind, values: readonly string[]): Promise<void> {
  if (values.length === 0) return;
  await executor.db.deleteFrom('brand_lookups').where('kind', '=', kind).where('value', 'in', values).execute();
}

/**
 * Reads the row a global value names, inside the brand the look-up finds for it (so row-level
 * security admits it); null when no brand has the value.
 */
export async function readInBrandOf<T>(
  executor: Executor,
  kind: LookupKind,
  value: string,
  read: (brandId: number) => Promise<T | null>,
): Promise<T | null> {
  const brandId = await brandOf(executor, kind, value);
  return brandId === null ? null : withinBrand(executor.db, brandId, () => read(brandId));
}

/**
 * The first row `read` finds in any brand, brand by brand (one brand per statement, row-level
 * security admitting each): for an operator who names a row by its id alone (the CLI). Costs a
 * statement per brand; no request path uses it.
 */
export async function readInAnyBrand<T>(
  executor: Executor,
  read: (brandId: number) => Promise<T | null>,
): Promise<T | null> {
  const brands = await executor.db.selectFrom('brands').select('id').orderBy('id').execute();
  for (const { id } of brands) {
    const brandId = Number(id);
    const found = await withinBrand(executor.db, brandId, () => read(brandId));
    if (found !== null) return found;
  }
  return null;
}
