import { OrderChannel, OrderChannelRepository, OrderType } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { OrderChannelsTable } from '../../tables/orders.tables';
import { selectInChunks, unique } from '../batches';
import { claimLookup, LOOKUP, readInBrandOf } from '../brand-lookups';
import { Executor, fromFlag, toFlag } from '../executor';
import { toNullableNumber } from '../json-columns';
import { sortById } from '../documents/document-sql';
import { KeptStatement, runKept } from '../kept-statements';

const rowToChannel = (r: Selectable<OrderChannelsTable>): OrderChannel => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  publicId: r.public_id,
  name: r.name,
  orderType: r.order_type as OrderType,
  autoApprove: fromFlag(r.auto_approve),
  dropId: toNullableNumber(r.drop_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The list keys of `orderChannelListDefinition`. */
const CHANNEL_COLUMNS: ListColumns = {
  id: { column: 'order_channels.id', type: 'integer' },
  public_id: { column: 'order_channels.public_id', type: 'string' },
  name: { column: 'order_channels.name', type: 'string' },
  order_type: { column: 'order_channels.order_type', type: 'string' },
  created_at: { column: 'order_channels.created_at', type: 'datetime' },
  updated_at: { column: 'order_channels.updated_at', type: 'datetime' },
};

const CHANNEL_LIST = brandTableList('order_channels', CHANNEL_COLUMNS);

const CHANNEL_BY_PUBLIC_ID: KeptStatement<Selectable<OrderChannelsTable>> = (db, [publicId, brandId]) =>
  db.selectFrom('order_channels').selectAll().where('public_id', '=', publicId).where('brand_id', '=', brandId);

export function orderChannelRepository(executor: Executor): OrderChannelRepository {
  const { db } = executor;
  return {
    async insert(c) {
      await claimLookup(executor, LOOKUP.orderChannel, c.publicId, c.brandId);
      await db
        .insertInto('order_channels')
        .values({
          id: c.id,
          brand_id: c.brandId,
          public_id: c.publicId,
          name: c.name,
          order_type: c.orderType,
          auto_approve: toFlag(c.autoApprove),
          drop_id: c.dropId,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
        })
        .execute();
    },
    async findByPublicId(brandId, publicId) {
      const [row] = await runKept(executor, CHANNEL_BY_PUBLIC_ID, [publicId, brandId]);
      return row ? rowToChannel(row) : null;
    },
    async findByPublicIdAnyBrand(publicId) {
      const row = await readInBrandOf(
        executor,
        LOOKUP.orderChannel,
        publicId,
        async (brandId) => (await runKept(executor, CHANNEL_BY_PUBLIC_ID, [publicId, brandId]))[0] ?? null,
      );
      return row ? rowToChannel(row) : null;
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('order_channels').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return sortById(rows).map(rowToChannel);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, CHANNEL_LIST, brandId, query);
      return { rows: rows.map(rowToChannel), total };
    },
  };
}
