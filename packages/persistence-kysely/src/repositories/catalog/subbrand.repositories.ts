import { Subbrand, SubbrandRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { SubbrandsTable } from '../../tables/catalog.tables';
import { selectInChunks, unique } from '../batches';
import { Executor } from '../executor';

const rowToSubbrand = (r: Selectable<SubbrandsTable>): Subbrand => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function subbrandRepository({ db }: Executor): SubbrandRepository {
  return {
    async insert(s) {
      await db
        .insertInto('subbrands')
        .values({ id: s.id, brand_id: s.brandId, name: s.name, created_at: s.createdAt, updated_at: s.updatedAt })
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('subbrands').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return rows.map(rowToSubbrand).sort((a, b) => a.id - b.id);
    },
  };
}
