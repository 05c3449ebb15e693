import { Kysely } from 'kysely';
import { withinBrand } from '../brand-session';
import { Database } from '../database';

/**
 * Work that spans brands by design, done brand by brand (DESIGN §9: one brand per statement, so a
 * tenant-sharded Postgres runs each statement on one shard, and row-level security lets it see
 * that brand's rows): `work` runs for each brand of `brands` in id order, within that brand,
 * until it answers false. Costs a statement per brand even where there is nothing to do.
 */
export async function forEachBrand(
  db: Kysely<Database>,
  work: (brandId: number) => Promise<boolean | void>,
): Promise<void> {
  for (const { id } of await db.selectFrom('brands').select('id').orderBy('id').execute()) {
    const brandId = Number(id);
    if ((await withinBrand(db, brandId, () => work(brandId))) === false) return;
  }
}
