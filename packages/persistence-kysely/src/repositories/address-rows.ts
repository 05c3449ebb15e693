import { Address } from '@brand/core';
import { Selectable } from 'kysely';
import { AddressesTable } from '../tables/partner.tables';
import { selectInChunks } from './batches';
import { Executor } from './executor';
import { KeptStatement, runKept } from './kept-statements';

export type AddressTableName = 'customer_addresses' | 'supplier_addresses';

const rowToAddress = (r: Selectable<AddressesTable>): Address => ({
  id: Number(r.id),
  title: r.title,
  name: r.name,
  address: r.address,
  address2: r.address_2,
  zip: r.zip,
  city: r.city,
  region: r.region,
  country: r.country,
  remoteErpId: r.remote_erp_id,
});

const addressesOf =
  (table: AddressTableName): KeptStatement<Selectable<AddressesTable>> =>
  (db, [brandId, ...ownerIds]) =>
    db
      .selectFrom(table)
      .selectAll()
      .where('brand_id', '=', brandId)
      .where('owner_id', 'in', ownerIds)
      .orderBy('owner_id')
      .orderBy('position');
const ADDRESSES_OF: Record<AddressTableName, KeptStatement<Selectable<AddressesTable>>> = {
  customer_addresses: addressesOf('customer_addresses'),
  supplier_addresses: addressesOf('supplier_addresses'),
};

/** Loads the addresses of many owners in one query (per chunk of owners), in their stored order. */
export async function loadAddresses(
  executor: Executor,
  table: AddressTableName,
  brandId: number,
  ownerIds: number[],
): Promise<Map<number, Address[]>> {
  const byOwner = new Map<number, Address[]>(ownerIds.map((id) => [id, []]));
  if (ownerIds.length === 0) return byOwner;
  const rows = await selectInChunks(ownerIds, (chunk) => runKept(executor, ADDRESSES_OF[table], [brandId, ...chunk]));
  for (const row of rows) byOwner.get(Number(row.owner_id))?.push(rowToAddress(row));
  return byOwner;
}

/** Makes the stored addresses of one owner equal to `addresses`: removed ones go, kept ones keep their ids. */
export async function replaceAddresses(
  { db }: Executor,
  table: AddressTableName,
  brandId: number,
  ownerId: number,
  addresses: Address[],
): Promise<void> {
  const keep = addresses.map((a) => a.id);
  let removal = db.deleteFrom(table).where('brand_id', '=', brandId).where('owner_id', '=', ownerId);
  if (keep.length > 0) removal = removal.where('id', 'not in', keep);
  await removal.execute();
  if (addresses.length === 0) return;
  await db
    .insertInto(table)
    .values(
      addresses.map((a, position) => ({
        id: a.id,
        brand_id: brandId,
        owner_id: ownerId,
        position,
        title: a.title,
        name: a.name,
        address: a.address,
        address_2: a.address2,
        zip: a.zip,
        city: a.city,
        region: a.region,
        country: a.country,
        remote_erp_id: a.remoteErpId,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['brand_id', 'id']).doUpdateSet((eb) => ({
        position: eb.ref('excluded.position'),
        title: eb.ref('excluded.title'),
        name: eb.ref('excluded.name'),
        address: eb.ref('excluded.address'),
        address_2: eb.ref('excluded.address_2'),
        zip: eb.ref('excluded.zip'),
        city: eb.ref('excluded.city'),
        region: eb.ref('excluded.region'),
        country: eb.ref('excluded.country'),
        remote_erp_id: eb.ref('excluded.remote_erp_id'),
      })),
    )
    .execute();
}
