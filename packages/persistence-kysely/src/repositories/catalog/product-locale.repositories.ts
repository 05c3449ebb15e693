import { ProductLocale, ProductLocaleRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { ProductLocalesTable } from '../../tables/catalog.tables';
import { selectInChunks, unique } from '../batches';
import { Executor } from '../executor';

const rowToLocale = (r: Selectable<ProductLocalesTable>): ProductLocale => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  code: r.code,
  name: r.name,
});

export function productLocaleRepository({ db }: Executor): ProductLocaleRepository {
  return {
    async insert(l) {
      await db
        .insertInto('product_locales')
        .values({ id: l.id, brand_id: l.brandId, code: l.code, name: l.name })
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('product_locales').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return rows.map(rowToLocale).sort((a, b) => a.id - b.id);
    },
    async findByCodes(brandId, codes) {
      const rows = await selectInChunks(unique(codes), (chunk) =>
        db
          .selectFrom('product_locales')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('code', 'in', chunk)
          .execute(),
      );
      return rows.map(rowToLocale).sort((a, b) => a.id - b.id);
    },
    async all(brandId) {
      return (
        await db.selectFrom('product_locales').selectAll().where('brand_id', '=', brandId).orderBy('id').execute()
      ).map(rowToLocale);
    },
  };
}
