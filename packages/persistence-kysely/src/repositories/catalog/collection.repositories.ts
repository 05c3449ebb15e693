import { Collection, CollectionRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { CollectionsTable } from '../../tables/catalog.tables';
import { selectInChunks, unique } from '../batches';
import { Executor, fromFlag, toFlag } from '../executor';
import { fromJson, toJson } from '../json-columns';

const rowToCollection = (r: Selectable<CollectionsTable>): Collection => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  title: r.title,
  active: fromFlag(r.active),
  visibility: r.visibility,
  allowedCustomerIds: fromJson<number[]>(r.allowed_customer_ids, []),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const collectionToRow = (c: Collection): Selectable<CollectionsTable> => ({
  id: c.id,
  brand_id: c.brandId,
  title: c.title,
  active: toFlag(c.active),
  visibility: c.visibility,
  allowed_customer_ids: toJson(c.allowedCustomerIds),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** The list keys of `collectionListDefinition`. */
const COLLECTION_COLUMNS: ListColumns = {
  id: { column: 'collections.id', type: 'integer' },
  title: { column: 'collections.title', type: 'string' },
  active: { column: 'collections.active', type: 'boolean' },
  visibility: { column: 'collections.visibility', type: 'string' },
  created_at: { column: 'collections.created_at', type: 'datetime' },
  updated_at: { column: 'collections.updated_at', type: 'datetime' },
};

const COLLECTION_LIST = brandTableList('collections', COLLECTION_COLUMNS);

export function collectionRepository(executor: Executor): CollectionRepository {
  const { db } = executor;
  return {
    async insert(collection) {
      await db.insertInto('collections').values(collectionToRow(collection)).execute();
    },
    async update(collection) {
      const { title, active, visibility, allowed_customer_ids, updated_at } = collectionToRow(collection);
      await db
        .updateTable('collections')
        .set({ title, active, visibility, allowed_customer_ids, updated_at })
        .where('brand_id', '=', collection.brandId)
        .where('id', '=', collection.id)
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('collections').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return rows.map(rowToCollection).sort((a, b) => a.id - b.id);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, COLLECTION_LIST, brandId, query);
      return { rows: rows.map(rowToCollection), total };
    },
  };
}
