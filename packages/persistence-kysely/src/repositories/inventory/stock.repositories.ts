import {
  AppliedStock,
  AvailableStock,
  IdGenerator,
  NewStockMovement,
  StockBalance,
  StockMovement,
  StockReason,
  StockRepository,
} from '@brand/core';
import { Kysely, Selectable, sql } from 'kysely';
import { Database } from '../../database';
import { Dialect } from '../../storage';
import { fetchList, ListColumns } from '../../listing/list-sql';
import { StockBalancesTable, StockMovementsTable } from '../../tables/inventory.tables';
import { selectInChunks, unique } from '../batches';
import { bulkInsert } from '../bulk-insert';
import { Executor } from '../executor';
import { toNullableNumber } from '../json-columns';
import { KeptStatement, runKept } from '../kept-statements';

const rowToBalance = (r: Selectable<StockBalancesTable>): StockBalance => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  variantId: Number(r.variant_id),
  locationId: Number(r.location_id),
  inStock: Number(r.in_stock),
  reserved: Number(r.reserved),
  updatedAt: r.updated_at,
});

const rowToMovement = (r: Selectable<StockMovementsTable>): StockMovement => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  variantId: Number(r.variant_id),
  locationId: Number(r.location_id),
  inStockDelta: Number(r.in_stock_delta),
  reservedDelta: Number(r.reserved_delta),
  reason: r.reason as StockReason,
  note: r.note,
  documentType: r.document_type,
  documentId: toNullableNumber(r.document_id),
  userId: toNullableNumber(r.user_id),
  createdAt: r.created_at,
});

interface AvailableRow {
  id: number;
  variant_id: number;
  sku: string;
  ean: string | null;
  location_id: number;
  in_stock: number;
  available: number;
  updated_at: string;
}

const rowToAvailable = (r: AvailableRow): AvailableStock => ({
  id: Number(r.id),
  variantId: Number(r.variant_id),
  sku: r.sku,
  ean: r.ean,
  locationId: Number(r.location_id),
  inStock: Number(r.in_stock),
  available: Number(r.available),
  updatedAt: r.updated_at,
});

/** The list keys of `availableStockListDefinition`, on the `available` subquery. */
const AVAILABLE_COLUMNS: ListColumns = {
  id: { column: 'available.id', type: 'integer' },
  variant_id: { column: 'available.variant_id', type: 'integer' },
  sku: { column: 'available.sku', type: 'string' },
  ean: { column: 'available.ean', type: 'string' },
  inventory_location_id: { column: 'available.location_id', type: 'integer' },
  in_stock: { column: 'available.in_stock', type: 'integer' },
  available: { column: 'available.available', type: 'integer' },
  updated_at: { column: 'available.updated_at', type: 'datetime' },
};

/**
 * Adds the row's deltas to the existing balance. The arithmetic happens in SQL on the current
 * row (never read-modify-write in JS), so parallel transactions add up exactly: the row lock of
 * the update orders them. The unique key includes brand_id (equivalent, as a variant has one
 * brand) so that brand-scoped lookups by variant use it; see the migration.
 */
const ADD_TO_BALANCE =
  'on conflict ("variant_id", "brand_id", "location_id") do update set "in_stock" = "stock_balances"."in_stock" + excluded."in_stock", ' +
  '"reserved" = "stock_balances"."reserved" + excluded."reserved", "updated_at" = excluded."updated_at"';

const balanceKey = (variantId: number, locationId: number): string => `${variantId}:${locationId}`;

/**
 * The SKU and EAN of the upserted balances' variants, read by a statement of its own: a subquery
 * in the upsert's RETURNING would save the round trip, but a tenant-sharded Postgres (Citus)
 * refuses subqueries within INSERT statements (DESIGN §9).
 */
const VARIANT_CODES: KeptStatement<{ id: number; sku: string; ean: string | null }> = (db, [brandId, ...variantIds]) =>
  db.selectFrom('variants').select(['id', 'sku', 'ean']).where('brand_id', '=', brandId).where('id', 'in', variantIds);

type AppliedRow = Selectable<StockBalancesTable> & { sku: string; ean: string | null };

/**
 * Balances of variants (at one location). Inside a Postgres transaction the rows stay locked
 * until it ends, so a caller that reads a balance to decide on a movement (set a quantity, check
 * availability before reserving) cannot be overtaken by a concurrent one; `apply` locks in the
 * same order.
 */
const lockedBalances = <Q extends { orderBy(column: 'variant_id' | 'location_id'): Q; forUpdate(): Q }>(
  db: Kysely<Database>,
  dialect: Dialect,
  query: Q,
): Q =>
  dialect === 'postgres' && db.isTransaction ? query.orderBy('variant_id').orderBy('location_id').forUpdate() : query;
const BALANCES: KeptStatement<Selectable<StockBalancesTable>> = (db, [brandId, ...variantIds], dialect) =>
  lockedBalances(
    db,
    dialect,
    db.selectFrom('stock_balances').selectAll().where('brand_id', '=', brandId).where('variant_id', 'in', variantIds),
  );
const BALANCES_AT_LOCATION: KeptStatement<Selectable<StockBalancesTable>> = (
  db,
  [brandId, locationId, ...variantIds],
  dialect,
) =>
  lockedBalances(
    db,
    dialect,
    db
      .selectFrom('stock_balances')
      .selectAll()
      .where('brand_id', '=', brandId)
      .where('variant_id', 'in', variantIds)
      .where('location_id', '=', locationId),
  );

export function stockRepository(executor: Executor, ids: IdGenerator): StockRepository {
  const { db, dialect } = executor;
  // Ids of the balance rows this repository has seen, by brand, variant and location. Balance rows
  // are never deleted, so within one transaction (or read) a row seen stays: `apply` after
  // `balances` (placing an order reads balances to decide, then moves them) need not look again.
  const seenBalanceIds = new Map<string, number>();
  const remember = (brandId: number, rows: { id: unknown; variant_id: unknown; location_id: unknown }[]): void => {
    for (const r of rows)
      seenBalanceIds.set(`${brandId}:${balanceKey(Number(r.variant_id), Number(r.location_id))}`, Number(r.id));
  };

  /** Moves the balances and writes the ledger; answers the balance rows (with sku and ean if asked) in the order first touched. */
  async function applyMovements(
    brandId: number,
    movements: NewStockMovement[],
    at: string,
    withVariants: boolean,
  ): Promise<AppliedRow[]> {
    if (movements.length === 0) return [];
    // One balance change per (variant, location) of the call: an upsert may touch a row once.
    const deltas = new Map<string, { variantId: number; locationId: number; inStock: number; reserved: number }>();
    for (const m of movements) {
      const key = balanceKey(m.variantId, m.locationId);
      const delta = deltas.get(key) ?? { variantId: m.variantId, locationId: m.locationId, inStock: 0, reserved: 0 };
      delta.inStock += m.inStockDelta;
      delta.reserved += m.reservedDelta;
      deltas.set(key, delta);
    }
    // Sorted, so that concurrent calls lock balance rows in the same order (no deadlocks).
    const changes = [...deltas.values()].sort((a, b) => a.variantId - b.variantId || a.locationId - b.locationId);

    // Ids only for balances that do not exist yet; a concurrent creation is caught by ON CONFLICT.
    const seenId = (c: { variantId: number; locationId: number }) =>
      seenBalanceIds.get(`${brandId}:${balanceKey(c.variantId, c.locationId)}`);
    const unseenVariants = unique(changes.filter((c) => seenId(c) === undefined).map((c) => c.variantId));
    if (unseenVariants.length > 0)
      remember(
        brandId,
        await selectInChunks(unseenVariants, (chunk) =>
          db
            .selectFrom('stock_balances')
            .select(['id', 'variant_id', 'location_id'])
            .where('brand_id', '=', brandId)
            .where('variant_id', 'in', chunk)
            .execute(),
        ),
      );
    const existing = new Map<string, number>();
    for (const c of changes) {
      const id = seenId(c);
      if (id !== undefined) existing.set(balanceKey(c.variantId, c.locationId), id);
    }
    const missing = changes.filter((c) => !existing.has(balanceKey(c.variantId, c.locationId)));
    const newIds = missing.length > 0 ? await ids.next('stock_balances', missing.length) : [];
    missing.forEach((c, i) => existing.set(balanceKey(c.variantId, c.locationId), newIds[i]!));

    const { rows: balances } = await bulkInsert(
      executor,
      'stock_balances',
      changes.map((c) => ({
        id: existing.get(balanceKey(c.variantId, c.locationId))!,
        brand_id: brandId,
        variant_id: c.variantId,
        location_id: c.locationId,
        in_stock: c.inStock,
        reserved: c.reserved,
        updated_at: at,
      })),
      { conflict: ADD_TO_BALANCE, returning: true },
    );
    remember(brandId, balances);
    if (withVariants) {
      const codes = new Map(
        (
          await selectInChunks(unique(changes.map((c) => c.variantId)), (chunk) =>
            runKept(executor, VARIANT_CODES, [brandId, ...chunk]),
          )
        ).map((v) => [Number(v.id), v]),
      );
      for (const balance of balances as AppliedRow[]) {
        const variant = codes.get(Number(balance.variant_id));
        balance.sku = variant?.sku ?? '';
        balance.ean = variant?.ean ?? null;
      }
    }

    const movementIds = await ids.next('stock_movements', movements.length);
    await bulkInsert(
      executor,
      'stock_movements',
      movements.map((m, i) => ({
        id: movementIds[i]!,
        brand_id: brandId,
        variant_id: m.variantId,
        location_id: m.locationId,
        in_stock_delta: m.inStockDelta,
        reserved_delta: m.reservedDelta,
        reason: m.reason,
        note: m.note,
        document_type: m.documentType,
        document_id: m.documentId,
        user_id: m.userId,
        created_at: at,
      })),
    );
    // The touched balances in the order the movements first touched them.
    const order = new Map([...deltas.keys()].map((key, i) => [key, i]));
    const rank = (b: AppliedRow): number => order.get(balanceKey(Number(b.variant_id), Number(b.location_id))) ?? 0;
    return (balances as AppliedRow[]).sort((a, b) => rank(a) - rank(b));
  }

  return {
    async balances(brandId, variantIds, locationId) {
      const rows = await selectInChunks(unique(variantIds), (chunk) =>
        locationId === undefined
          ? runKept(executor, BALANCES, [brandId, ...chunk])
          : runKept(executor, BALANCES_AT_LOCATION, [brandId, locationId, ...chunk]),
      );
      remember(brandId, rows);
      return rows.map(rowToBalance).sort((a, b) => a.variantId - b.variantId || a.locationId - b.locationId);
    },

    async apply(brandId, movements, at) {
      return (await applyMovements(brandId, movements, at, false)).map(rowToBalance);
    },

    async applyWithVariants(brandId, movements, at) {
      return (await applyMovements(brandId, movements, at, true)).map(
        (r): AppliedStock => ({ ...rowToBalance(r), sku: r.sku, ean: r.ean }),
      );
    },

    async movements(brandId, variantId, limit) {
      const rows = await db
        .selectFrom('stock_movements')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('variant_id', '=', variantId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(rowToMovement);
    },

    async listAvailable(brandId, query) {
      // A subquery, so that `available` (a computed column) filters like any other key.
      const available = db
        .selectFrom('stock_balances')
        .innerJoin('variants', (join) =>
          join
            .onRef('variants.brand_id', '=', 'stock_balances.brand_id')
            .onRef('variants.id', '=', 'stock_balances.variant_id'),
        )
        .select([
          'stock_balances.id as id',
          'stock_balances.variant_id as variant_id',
          'variants.sku as sku',
          'variants.ean as ean',
          'stock_balances.location_id as location_id',
          'stock_balances.in_stock as in_stock',
          sql<number>`stock_balances.in_stock - stock_balances.reserved`.as('available'),
          'stock_balances.updated_at as updated_at',
        ])
        .where('stock_balances.brand_id', '=', brandId);
      const base = db.selectFrom(available.as('available')).selectAll();
      const { rows } = await fetchList(base, { ...query, withTotal: false }, AVAILABLE_COLUMNS, dialect);
      return { rows: (rows as AvailableRow[]).map(rowToAvailable), total: null };
    },
  };
}
