import { CostPriceSet, CostPriceSetRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { CostPriceSetsTable } from '../../tables/catalog.tables';
import { Executor, fromFlag, toFlag } from '../executor';

const rowToSet = (r: Selectable<CostPriceSetsTable>): CostPriceSet => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  label: r.label,
  currency: r.currency,
  isDefault: fromFlag(r.is_default),
  createdAt: r.created_at,
});

export function costPriceSetRepository({ db }: Executor): CostPriceSetRepository {
  return {
    async insert(s) {
      await db
        .insertInto('cost_price_sets')
        .values({
          id: s.id,
          brand_id: s.brandId,
          label: s.label,
          currency: s.currency,
          is_default: toFlag(s.isDefault),
          created_at: s.createdAt,
        })
        .execute();
    },
    async all(brandId) {
      return (
        await db.selectFrom('cost_price_sets').selectAll().where('brand_id', '=', brandId).orderBy('id').execute()
      ).map(rowToSet);
    },
  };
}
