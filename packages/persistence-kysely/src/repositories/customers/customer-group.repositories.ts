import { CustomerGroup, CustomerGroupRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { CustomerGroupsTable } from '../../tables/partner.tables';
import { Executor } from '../executor';

const rowToGroup = (r: Selectable<CustomerGroupsTable>): CustomerGroup => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  code: r.code,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const GROUP_COLUMNS: ListColumns = {
  id: { column: 'customer_groups.id', type: 'integer' },
  code: { column: 'customer_groups.code', type: 'string' },
  name: { column: 'customer_groups.name', type: 'string' },
  created_at: { column: 'customer_groups.created_at', type: 'datetime' },
  updated_at: { column: 'customer_groups.updated_at', type: 'datetime' },
};

const GROUP_LIST = brandTableList('customer_groups', GROUP_COLUMNS);

export function customerGroupRepository(executor: Executor): CustomerGroupRepository {
  const { db } = executor;
  return {
    async insert(g) {
      await db
        .insertInto('customer_groups')
        .values({
          id: g.id,
          brand_id: g.brandId,
          code: g.code,
          name: g.name,
          created_at: g.createdAt,
          updated_at: g.updatedAt,
        })
        .execute();
    },
    async findByIds(brandId, ids) {
      if (ids.length === 0) return [];
      return (
        await db
          .selectFrom('customer_groups')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', 'in', ids)
          .orderBy('id')
          .execute()
      ).map(rowToGroup);
    },
    async findByCodes(brandId, codes) {
      if (codes.length === 0) return [];
      return (
        await db
          .selectFrom('customer_groups')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('code', 'in', codes)
          .orderBy('id')
          .execute()
      ).map(rowToGroup);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, GROUP_LIST, brandId, query);
      return { rows: rows.map(rowToGroup), total };
    },
  };
}
