import {
  ClaimType,
  GiftCardBonusType,
  Meta,
  Return,
  ReturnLine,
  ReturnRepositories,
  ReturnRepository,
  ReturnSource,
  ReturnStatus,
} from '@brand/core';
import { Insertable, Selectable } from 'kysely';
import { ListColumns } from '../../listing/list-sql';
import { ReturnLinesTable, ReturnsTable } from '../../tables/returns.tables';
import { runInChunks } from '../batches';
import { Executor, fromFlag, RepositoryFactories, toFlag } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';
import { documentStore } from '../documents/document-store';
import { alertRepository, claimCauseRepository, returnPortalRepository } from './reference.repositories';

/** The list keys of the return list definitions (v10, 3PL and the 3PL export share them). */
const RETURN_COLUMNS: ListColumns = {
  id: { column: 'returns.id', type: 'integer' },
  return_number: { column: 'returns.return_number', type: 'integer' },
  rma: { column: 'returns.rma', type: 'string' },
  status: { column: 'returns.status', type: 'string' },
  source: { column: 'returns.source', type: 'string' },
  return_portal_id: { column: 'returns.return_portal_id', type: 'integer' },
  customer_id: { column: 'returns.customer_id', type: 'integer' },
  order_id: { column: 'returns.order_id', type: 'integer' },
  order_number: { column: 'returns.order_number', type: 'integer' },
  created_at: { column: 'returns.created_at', type: 'datetime' },
  updated_at: { column: 'returns.updated_at', type: 'datetime' },
};

const RETURN_UPDATE_COLUMNS = [
  'rma',
  'rma_number',
  'status',
  'source',
  'return_portal_id',
  'order_id',
  'order_number',
  'shipment_id',
  'customer_id',
  'currency',
  'vat_rate_basis_points',
  'prices_include_vat',
  'notes',
  'return_meta',
  'shipping_method',
  'track_trace',
  'track_trace_link',
  'carrier_code',
  'carrier_label',
  'labelless_code',
  'return_fee_incl_vat',
  'exchange_fee_incl_vat',
  'storefront_refund_gift_card',
  'storefront_refund_gift_card_bonus_type',
  'storefront_refund_gift_card_bonus_value',
  'storefront_refund_gift_card_free_shipping',
  'approved_at',
  'received_at',
  'credited_at',
  'updated_at',
] as const satisfies readonly (keyof ReturnsTable)[];

const RETURN_LINE_UPDATE_COLUMNS = [
  'order_line_id',
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
  'expected_quantity',
  'received_quantity',
  'claim_type',
  'claim_cause_id',
  'unit_price',
  'discount_basis_points',
  'unit_price_incl_vat',
  'comments',
  'regulate_inventory',
  'refund_storefront',
] as const satisfies readonly (keyof ReturnLinesTable)[];

const returnToRow = (r: Return): Insertable<ReturnsTable> => ({
  id: r.id,
  brand_id: r.brandId,
  return_number: r.returnNumber,
  rma: r.rma,
  rma_number: r.rmaNumber,
  status: r.status,
  source: r.source,
  return_portal_id: r.returnPortalId,
  order_id: r.orderId,
  order_number: r.orderNumber,
  shipment_id: r.shipmentId,
  customer_id: r.customerId,
  currency: r.currency,
  vat_rate_basis_points: r.vatRateBasisPoints,
  prices_include_vat: toFlag(r.pricesIncludeVat),
  notes: r.notes,
  return_meta: toJson(r.returnMeta),
  shipping_method: r.shippingMethod,
  track_trace: r.trackTrace,
  track_trace_link: r.trackTraceLink,
  carrier_code: r.carrierCode,
  carrier_label: r.carrierLabel,
  labelless_code: r.labellessCode,
  return_fee_incl_vat: r.returnFeeInclVat,
  exchange_fee_incl_vat: r.exchangeFeeInclVat,
  storefront_refund_gift_card: toFlag(r.storefrontRefundGiftCard),
  storefront_refund_gift_card_bonus_type: r.storefrontRefundGiftCardBonusType,
  storefront_refund_gift_card_bonus_value: r.storefrontRefundGiftCardBonusValue,
  storefront_refund_gift_card_free_shipping: toFlag(r.storefrontRefundGiftCardFreeShipping),
  approved_at: r.approvedAt,
  received_at: r.receivedAt,
  credited_at: r.creditedAt,
  created_by_user_id: r.createdByUserId,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

const lineToRow = (r: Return, l: ReturnLine): Insertable<ReturnLinesTable> => ({
  id: l.id,
  brand_id: r.brandId,
  return_id: r.id,
  order_line_id: l.orderLineId,
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
  expected_quantity: l.expectedQuantity,
  received_quantity: l.receivedQuantity,
  claim_type: l.claimType,
  claim_cause_id: l.claimCauseId,
  unit_price: l.unitPrice,
  discount_basis_points: l.discountBasisPoints,
  unit_price_incl_vat: l.unitPriceInclVat,
  comments: l.comments,
  regulate_inventory: toFlag(l.regulateInventory),
  refund_storefront: toFlag(l.refundStorefront),
});

const rowToLine = (r: Selectable<ReturnLinesTable>): ReturnLine => ({
  id: Number(r.id),
  returnId: Number(r.return_id),
  orderLineId: toNullableNumber(r.order_line_id),
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
  expectedQuantity: Number(r.expected_quantity),
  receivedQuantity: Number(r.received_quantity),
  claimType: r.claim_type as ClaimType,
  claimCauseId: toNullableNumber(r.claim_cause_id),
  unitPrice: Number(r.unit_price),
  discountBasisPoints: Number(r.discount_basis_points),
  unitPriceInclVat: toNullableNumber(r.unit_price_incl_vat),
  comments: r.comments,
  regulateInventory: fromFlag(r.regulate_inventory),
  refundStorefront: fromFlag(r.refund_storefront),
});

const rowToReturn = (r: Selectable<ReturnsTable>, lines: Selectable<ReturnLinesTable>[]): Return => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  returnNumber: Number(r.return_number),
  rma: r.rma,
  rmaNumber: Number(r.rma_number),
  status: r.status as ReturnStatus,
  source: r.source as ReturnSource,
  returnPortalId: toNullableNumber(r.return_portal_id),
  orderId: toNullableNumber(r.order_id),
  orderNumber: toNullableNumber(r.order_number),
  shipmentId: toNullableNumber(r.shipment_id),
  customerId: Number(r.customer_id),
  currency: r.currency,
  vatRateBasisPoints: Number(r.vat_rate_basis_points),
  pricesIncludeVat: fromFlag(r.prices_include_vat),
  notes: r.notes,
  returnMeta: fromJson<Meta>(r.return_meta, {}),
  shippingMethod: r.shipping_method,
  trackTrace: r.track_trace,
  trackTraceLink: r.track_trace_link,
  carrierCode: r.carrier_code,
  carrierLabel: r.carrier_label,
  labellessCode: r.labelless_code,
  returnFeeInclVat: toNullableNumber(r.return_fee_incl_vat),
  exchangeFeeInclVat: toNullableNumber(r.exchange_fee_incl_vat),
  storefrontRefundGiftCard: fromFlag(r.storefront_refund_gift_card),
  storefrontRefundGiftCardBonusType: r.storefront_refund_gift_card_bonus_type as GiftCardBonusType | null,
  storefrontRefundGiftCardBonusValue: r.storefront_refund_gift_card_bonus_value,
  storefrontRefundGiftCardFreeShipping: fromFlag(r.storefront_refund_gift_card_free_shipping),
  approvedAt: r.approved_at,
  receivedAt: r.received_at,
  creditedAt: r.credited_at,
  createdByUserId: toNullableNumber(r.created_by_user_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lines: lines.map(rowToLine),
});

/**
 * Returns on the document store (upsert of the row and its lines, locked reads in Postgres write
 * transactions, keyset lists, export scope). What differs from the other documents: `save` also
 * deletes the stored lines the aggregate left out, so the stored lines are exactly the
 * aggregate's. A second return with a taken (brand, portal, rma) hits the partial unique index;
 * the driver's unique violation is what the unit of work retries.
 */
export function returnRepository(executor: Executor): ReturnRepository {
  const { db } = executor;
  const store = documentStore(executor, {
    table: 'returns',
    linesTable: 'return_lines',
    parentColumn: 'return_id',
    documentType: 'return',
    columns: RETURN_COLUMNS,
    updateColumns: RETURN_UPDATE_COLUMNS,
    lineUpdateColumns: RETURN_LINE_UPDATE_COLUMNS,
    toRow: returnToRow,
    linesToRows: (r: Return) => r.lines.map((l) => lineToRow(r, l)),
    fromRows: rowToReturn,
  });

  /** Ids of the brand's returns matching `where`, then the returns themselves through the store (locked, with lines). */
  async function findWhere(brandId: number, rma: string, returnPortalId?: number): Promise<Return[]> {
    let query = db.selectFrom('returns').select('id').where('brand_id', '=', brandId).where('rma', '=', rma);
    if (returnPortalId !== undefined) query = query.where('return_portal_id', '=', returnPortalId);
    const ids = (await query.execute()).map((r) => Number(r.id));
    return ids.length === 0 ? [] : store.find(brandId, 'id', ids);
  }

  return {
    async save(ret) {
      await store.save(ret);
      const keep = new Set(ret.lines.map((l) => l.id));
      const stored = await db
        .selectFrom('return_lines')
        .select('id')
        .where('brand_id', '=', ret.brandId)
        .where('return_id', '=', ret.id)
        .execute();
      const gone = stored.map((l) => Number(l.id)).filter((id) => !keep.has(id));
      await runInChunks(gone, (chunk) =>
        db.deleteFrom('return_lines').where('brand_id', '=', ret.brandId).where('id', 'in', chunk).execute(),
      );
    },
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    findByRma: (brandId, rma) => findWhere(brandId, rma),
    async findByPortalRma(brandId, returnPortalId, rma) {
      return (await findWhere(brandId, rma, returnPortalId))[0] ?? null;
    },
    findByOrderIds: (brandId, orderIds) => store.find(brandId, 'order_id', orderIds),
    list: (brandId, query) => store.list(brandId, query, true),
    listForExport: (brandId, query, scope) => store.listForExport(brandId, query, scope, true),
  };
}

/** The returns module's repositories, as the unit of work makes them. */
export const returnRepositoryFactories: RepositoryFactories<ReturnRepositories> = {
  returns: (executor) => returnRepository(executor),
  claimCauses: (executor) => claimCauseRepository(executor),
  returnPortals: (executor) => returnPortalRepository(executor),
  alerts: (executor) => alertRepository(executor),
};
