import { Drop, DropRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { DropsTable } from '../../tables/catalog.tables';
import { selectInChunks, unique } from '../batches';
import { Executor } from '../executor';

const rowToDrop = (r: Selectable<DropsTable>): Drop => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  code: r.code,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The list keys of `dropListDefinition`. */
const DROP_COLUMNS: ListColumns = {
  id: { column: 'drops.id', type: 'integer' },
  code: { column: 'drops.code', type: 'string' },
  name: { column: 'drops.name', type: 'string' },
  created_at: { column: 'drops.created_at', type: 'datetime' },
  updated_at: { column: 'drops.updated_at', type: 'datetime' },
};

const DROP_LIST = brandTableList('drops', DROP_COLUMNS);

export function dropRepository(executor: Executor): DropRepository {
  const { db } = executor;
  return {
    async insert(d) {
      await db
        .insertInto('drops')
        .values({
          id: d.id,
          brand_id: d.brandId,
          code: d.code,
          name: d.name,
          created_at: d.createdAt,
          updated_at: d.updatedAt,
        })
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('drops').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return rows.map(rowToDrop).sort((a, b) => a.id - b.id);
    },
    async findByCodes(brandId, codes) {
      const rows = await selectInChunks(unique(codes), (chunk) =>
        db.selectFrom('drops').selectAll().where('brand_id', '=', brandId).where('code', 'in', chunk).execute(),
      );
      return rows.map(rowToDrop).sort((a, b) => a.id - b.id);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, DROP_LIST, brandId, query);
      return { rows: rows.map(rowToDrop), total };
    },
  };
}
