import { InventoryLocation, InventoryLocationRepository } from '@brand/core';
import { Selectable, sql } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { InventoryLocationsTable } from '../../tables/inventory.tables';
import { selectInChunks, unique } from '../batches';
import { Executor, fromFlag, toFlag } from '../executor';
import { KeptStatement, runKept } from '../kept-statements';

const rowToLocation = (r: Selectable<InventoryLocationsTable>): InventoryLocation => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  name: r.name,
  isDefault: fromFlag(r.is_default),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The list keys of `inventoryLocationListDefinition`. */
const LOCATION_COLUMNS: ListColumns = {
  id: { column: 'inventory_locations.id', type: 'integer' },
  name: { column: 'inventory_locations.name', type: 'string' },
  is_default: { column: 'inventory_locations.is_default', type: 'boolean' },
  created_at: { column: 'inventory_locations.created_at', type: 'datetime' },
  updated_at: { column: 'inventory_locations.updated_at', type: 'datetime' },
};

const LOCATION_LIST = brandTableList('inventory_locations', LOCATION_COLUMNS);

// `is_default = 1` written as a literal, not a bound value: only then can SQLite use the partial
// unique index `inventory_locations_default_uq` (… where is_default = 1); bound, it filtered the
// brand's locations one by one, a cost every order paid.
const DEFAULT_LOCATION: KeptStatement<Selectable<InventoryLocationsTable>> = (db, [brandId]) =>
  db.selectFrom('inventory_locations').selectAll().where('brand_id', '=', brandId).where('is_default', '=', sql.lit(1));

export function inventoryLocationRepository(executor: Executor): InventoryLocationRepository {
  const { db } = executor;
  return {
    async insert(l) {
      // A second default of the brand violates inventory_locations_default_uq: the unit of work
      // retries, and the retry finds the default the other transaction made.
      await db
        .insertInto('inventory_locations')
        .values({
          id: l.id,
          brand_id: l.brandId,
          name: l.name,
          is_default: toFlag(l.isDefault),
          created_at: l.createdAt,
          updated_at: l.updatedAt,
        })
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db
          .selectFrom('inventory_locations')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', 'in', chunk)
          .execute(),
      );
      return rows.map(rowToLocation).sort((a, b) => a.id - b.id);
    },
    async findDefault(brandId) {
      const [row] = await runKept(executor, DEFAULT_LOCATION, [brandId]);
      return row ? rowToLocation(row) : null;
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, LOCATION_LIST, brandId, query);
      return { rows: rows.map(rowToLocation), total };
    },
  };
}
