import {
  Meta,
  ProductionOrder,
  ProductionOrderLine,
  ProductionOrderRepository,
  ProductionOrderStatus,
} from '@brand/core';
import { Insertable, Selectable } from 'kysely';
import { ListColumns } from '../../listing/list-sql';
import { ProductionOrderLinesTable, ProductionOrdersTable } from '../../tables/production.tables';
import { Executor } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';
import { documentStore } from '../documents/document-store';

/** The list keys of `productionOrderListDefinition`. */
const PRODUCTION_ORDER_COLUMNS: ListColumns = {
  id: { column: 'production_orders.id', type: 'integer' },
  production_order_number: { column: 'production_orders.production_order_number', type: 'integer' },
  status: { column: 'production_orders.status', type: 'string' },
  supplier_id: { column: 'production_orders.supplier_id', type: 'integer' },
  created_at: { column: 'production_orders.created_at', type: 'datetime' },
  updated_at: { column: 'production_orders.updated_at', type: 'datetime' },
};

const UPDATE_COLUMNS = [
  'status',
  'supplier_id',
  'supplier_number',
  'currency',
  'expected_delivery',
  'notes',
  'production_order_meta',
  'sales_order_ids',
  'approved_at',
  'closed_at',
  'updated_at',
] as const satisfies readonly (keyof ProductionOrdersTable)[];

const LINE_UPDATE_COLUMNS = [
  'variant_id',
  'product_id',
  'sku',
  'ean',
  'item_number',
  'product_name',
  'attributes',
  'country_of_origin',
  'composition',
  'hs_tariff_code',
  'quantity',
  'unit_cost',
  'expected_quantity',
  'received_quantity',
] as const satisfies readonly (keyof ProductionOrderLinesTable)[];

const orderToRow = (o: ProductionOrder): Insertable<ProductionOrdersTable> => ({
  id: o.id,
  brand_id: o.brandId,
  production_order_number: o.productionOrderNumber,
  status: o.status,
  supplier_id: o.supplierId,
  supplier_number: o.supplierNumber,
  currency: o.currency,
  expected_delivery: o.expectedDelivery,
  notes: o.notes,
  production_order_meta: toJson(o.productionOrderMeta),
  sales_order_ids: toJson(o.salesOrderIds),
  approved_at: o.approvedAt,
  closed_at: o.closedAt,
  created_by_user_id: o.createdByUserId,
  created_at: o.createdAt,
  updated_at: o.updatedAt,
});

const lineToRow = (o: ProductionOrder, l: ProductionOrderLine): Insertable<ProductionOrderLinesTable> => ({
  id: l.id,
  brand_id: o.brandId,
  production_order_id: o.id,
  variant_id: l.variantId,
  product_id: l.productId,
  sku: l.sku,
  ean: l.ean,
  item_number: l.itemNumber,
  product_name: l.productName,
  attributes: toJson(l.attributes),
  country_of_origin: l.countryOfOrigin,
  composition: l.composition,
  hs_tariff_code: l.hsTariffCode,
  quantity: l.quantity,
  unit_cost: l.unitCost,
  expected_quantity: l.expectedQuantity,
  received_quantity: l.receivedQuantity,
});

const rowToLine = (r: Selectable<ProductionOrderLinesTable>): ProductionOrderLine => ({
  id: Number(r.id),
  productionOrderId: Number(r.production_order_id),
  variantId: Number(r.variant_id),
  productId: Number(r.product_id),
  sku: r.sku,
  ean: r.ean,
  itemNumber: r.item_number,
  productName: r.product_name,
  attributes: fromJson<Record<string, string>>(r.attributes, {}),
  countryOfOrigin: r.country_of_origin,
  composition: r.composition,
  hsTariffCode: r.hs_tariff_code,
  quantity: Number(r.quantity),
  unitCost: toNullableNumber(r.unit_cost),
  expectedQuantity: Number(r.expected_quantity),
  receivedQuantity: Number(r.received_quantity),
});

const rowToOrder = (
  r: Selectable<ProductionOrdersTable>,
  lines: Selectable<ProductionOrderLinesTable>[],
): ProductionOrder => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  productionOrderNumber: Number(r.production_order_number),
  status: r.status as ProductionOrderStatus,
  supplierId: Number(r.supplier_id),
  supplierNumber: r.supplier_number,
  currency: r.currency,
  expectedDelivery: r.expected_delivery,
  notes: r.notes,
  productionOrderMeta: fromJson<Meta>(r.production_order_meta, {}),
  salesOrderIds: fromJson<number[]>(r.sales_order_ids, []),
  approvedAt: r.approved_at,
  closedAt: r.closed_at,
  createdByUserId: toNullableNumber(r.created_by_user_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lines: lines.map(rowToLine),
});

export function productionOrderRepository(executor: Executor): ProductionOrderRepository {
  const store = documentStore(executor, {
    table: 'production_orders',
    linesTable: 'production_order_lines',
    parentColumn: 'production_order_id',
    documentType: 'production_order',
    columns: PRODUCTION_ORDER_COLUMNS,
    updateColumns: UPDATE_COLUMNS,
    lineUpdateColumns: LINE_UPDATE_COLUMNS,
    toRow: orderToRow,
    linesToRows: (o: ProductionOrder) => o.lines.map((l) => lineToRow(o, l)),
    fromRows: rowToOrder,
  });
  return {
    save: (order) => store.save(order),
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    list: (brandId, query) => store.list(brandId, query, true),
    listForExport: (brandId, query, scope) => store.listForExport(brandId, query, scope, true),
  };
}
