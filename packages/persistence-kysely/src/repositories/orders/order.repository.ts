import { Meta, Order, OrderAddress, OrderLine, OrderRepository, OrderStatus, OrderType, Reservation, ResponsiblePerson, ShippingCode } from '@brand/core';
import { Insertable, Selectable } from 'kysely';
import { ListColumns } from '../../listing/list-sql';
import { OrderLinesTable, OrdersTable } from '../../tables/orders.tables';
import { Executor, fromFlag, toFlag } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';
import { documentStore } from './document-store';

/** The list keys of `orderListDefinition`. */
const ORDER_COLUMNS: ListColumns = {
  id: { column: 'orders.id', type: 'integer' },
  order_number: { column: 'orders.order_number', type: 'integer' },
  status: { column: 'orders.status', type: 'string' },
  order_type: { column: 'orders.order_type', type: 'string' },
  order_channel_id: { column: 'orders.order_channel_id', type: 'integer' },
  customer_id: { column: 'orders.customer_id', type: 'integer' },
  customer_number: { column: 'orders.customer_number', type: 'string' },
  drop_id: { column: 'orders.drop_id', type: 'integer' },
  currency: { column: 'orders.currency', type: 'string' },
  reference: { column: 'orders.reference', type: 'string' },
  email: { column: 'orders.email', type: 'string' },
  total: { column: 'orders.total', type: 'decimal' },
  created_at: { column: 'orders.created_at', type: 'datetime' },
  updated_at: { column: 'orders.updated_at', type: 'datetime' },
};

const ORDER_UPDATE_COLUMNS = [
  'status', 'order_type', 'order_channel_id', 'customer_id', 'customer_number', 'drop_id', 'currency', 'vat_rate_basis_points',
  'prices_include_vat', 'email', 'telephone', 'reference', 'notes', 'invoice_address', 'delivery_address', 'shipping_code', 'shipping_cost',
  'responsible_person', 'order_meta', 'net_total', 'vat_total', 'total', 'approved_at', 'cancelled_at', 'archived_at', 'updated_at',
] as const satisfies readonly (keyof OrdersTable)[];

const ORDER_LINE_UPDATE_COLUMNS = [
  'variant_id', 'product_id', 'sku', 'ean', 'item_number', 'product_name', 'attributes', 'country_of_origin', 'composition', 'hs_tariff_code',
  'tracks_inventory', 'quantity', 'unit_price', 'discount_basis_points', 'total_price', 'reservations', 'shipped_quantity',
  'delivered_quantity', 'invoiced_quantity', 'regulated_quantity',
] as const satisfies readonly (keyof OrderLinesTable)[];

const nullableJson = (value: unknown): string | null => (value === null ? null : toJson(value));

const orderToRow = (o: Order): Insertable<OrdersTable> => ({
  id: o.id, brand_id: o.brandId, order_number: o.orderNumber, status: o.status, order_type: o.orderType, order_channel_id: o.orderChannelId,
  customer_id: o.customerId, customer_number: o.customerNumber, drop_id: o.dropId, currency: o.currency,
  vat_rate_basis_points: o.vatRateBasisPoints, prices_include_vat: toFlag(o.pricesIncludeVat), email: o.email, telephone: o.telephone,
  reference: o.reference, notes: o.notes, invoice_address: nullableJson(o.invoiceAddress), delivery_address: nullableJson(o.deliveryAddress),
  shipping_code: nullableJson(o.shippingCode), shipping_cost: o.shippingCost, responsible_person: nullableJson(o.responsiblePerson),
  order_meta: toJson(o.orderMeta), net_total: o.netTotal, vat_total: o.vatTotal, total: o.total, approved_at: o.approvedAt,
  cancelled_at: o.cancelledAt, archived_at: o.archivedAt, created_by_user_id: o.createdByUserId, created_at: o.createdAt, updated_at: o.updatedAt,
});

const lineToRow = (o: Order, l: OrderLine): Insertable<OrderLinesTable> => ({
  id: l.id, brand_id: o.brandId, order_id: o.id, variant_id: l.variantId, product_id: l.productId, sku: l.sku, ean: l.ean,
  item_number: l.itemNumber, product_name: l.productName, attributes: toJson(l.attributes), country_of_origin: l.countryOfOrigin,
  composition: l.composition, hs_tariff_code: l.hsTariffCode, tracks_inventory: toFlag(l.tracksInventory), quantity: l.quantity,
  unit_price: l.unitPrice, discount_basis_points: l.discountBasisPoints, total_price: l.totalPrice, reservations: toJson(l.reservations),
  shipped_quantity: l.shippedQuantity, delivered_quantity: l.deliveredQuantity, invoiced_quantity: l.invoicedQuantity,
  regulated_quantity: l.regulatedQuantity,
});

const rowToLine = (r: Selectable<OrderLinesTable>): OrderLine => ({
  id: Number(r.id), orderId: Number(r.order_id), variantId: Number(r.variant_id), productId: Number(r.product_id), sku: r.sku, ean: r.ean,
  itemNumber: r.item_number, productName: r.product_name, attributes: fromJson<Record<string, string>>(r.attributes, {}),
  countryOfOrigin: r.country_of_origin, composition: r.composition, hsTariffCode: r.hs_tariff_code, tracksInventory: fromFlag(r.tracks_inventory),
  quantity: Number(r.quantity), unitPrice: Number(r.unit_price), discountBasisPoints: Number(r.discount_basis_points), totalPrice: Number(r.total_price),
  reservations: fromJson<Reservation[]>(r.reservations, []), shippedQuantity: Number(r.shipped_quantity),
  deliveredQuantity: Number(r.delivered_quantity), invoicedQuantity: Number(r.invoiced_quantity), regulatedQuantity: Number(r.regulated_quantity),
});

const rowToOrder = (r: Selectable<OrdersTable>, lines: Selectable<OrderLinesTable>[]): Order => ({
  id: Number(r.id), brandId: Number(r.brand_id), orderNumber: Number(r.order_number), status: r.status as OrderStatus,
  orderType: r.order_type as OrderType, orderChannelId: Number(r.order_channel_id), customerId: Number(r.customer_id),
  customerNumber: r.customer_number, dropId: toNullableNumber(r.drop_id), currency: r.currency, vatRateBasisPoints: Number(r.vat_rate_basis_points),
  pricesIncludeVat: fromFlag(r.prices_include_vat), email: r.email, telephone: r.telephone, reference: r.reference, notes: r.notes,
  invoiceAddress: fromJson<OrderAddress | null>(r.invoice_address, null), deliveryAddress: fromJson<OrderAddress | null>(r.delivery_address, null),
  shippingCode: fromJson<ShippingCode | null>(r.shipping_code, null), shippingCost: toNullableNumber(r.shipping_cost),
  responsiblePerson: fromJson<ResponsiblePerson | null>(r.responsible_person, null), orderMeta: fromJson<Meta>(r.order_meta, {}),
  netTotal: Number(r.net_total), vatTotal: Number(r.vat_total), total: Number(r.total), approvedAt: r.approved_at, cancelledAt: r.cancelled_at,
  archivedAt: r.archived_at, createdByUserId: toNullableNumber(r.created_by_user_id), createdAt: r.created_at, updatedAt: r.updated_at,
  lines: lines.map(rowToLine),
});

export function orderRepository(executor: Executor): OrderRepository {
  const store = documentStore(executor, {
    table: 'orders', linesTable: 'order_lines', parentColumn: 'order_id', documentType: 'order', columns: ORDER_COLUMNS,
    updateColumns: ORDER_UPDATE_COLUMNS, lineUpdateColumns: ORDER_LINE_UPDATE_COLUMNS,
    toRow: orderToRow, linesToRows: (o: Order) => o.lines.map((l) => lineToRow(o, l)), fromRows: rowToOrder, lineCount: (o: Order) => o.lines.length,
  });
  return {
    save: (order) => store.save(order),
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    findByNumbers: (brandId, numbers) => store.find(brandId, 'order_number', numbers),
    list: (brandId, query) => store.list(brandId, query, query.includes.includes('lines')),
    listForExport: (brandId, query, scope) => store.listForExport(brandId, query, scope, query.includes.includes('lines')),
  };
}
