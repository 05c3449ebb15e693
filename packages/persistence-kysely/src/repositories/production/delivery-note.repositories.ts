import { DeliveryNote, DeliveryNoteLine, DeliveryNoteRepository, DeliveryNoteStatus, Meta } from '@brand/core';
import { Insertable, Selectable } from 'kysely';
import { ListColumns } from '../../listing/list-sql';
import { DeliveryNoteLinesTable, DeliveryNotesTable } from '../../tables/production.tables';
import { Executor } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';
import { documentStore } from '../documents/document-store';

/** The list keys of `deliveryNoteListDefinition` and `thirdPartyDeliveryNoteListDefinition`. */
const DELIVERY_NOTE_COLUMNS: ListColumns = {
  id: { column: 'delivery_notes.id', type: 'integer' },
  production_order_delivery_note_number: { column: 'delivery_notes.delivery_note_number', type: 'integer' },
  production_order_id: { column: 'delivery_notes.production_order_id', type: 'integer' },
  supplier_id: { column: 'delivery_notes.supplier_id', type: 'integer' },
  status: { column: 'delivery_notes.status', type: 'string' },
  created_at: { column: 'delivery_notes.created_at', type: 'datetime' },
  updated_at: { column: 'delivery_notes.updated_at', type: 'datetime' },
};

const UPDATE_COLUMNS = [
  'status',
  'currency',
  'expected_delivery',
  'notes',
  'meta',
  'received_at',
  'updated_at',
] as const satisfies readonly (keyof DeliveryNotesTable)[];

const LINE_UPDATE_COLUMNS = [
  'production_order_line_id',
  'variant_id',
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
] as const satisfies readonly (keyof DeliveryNoteLinesTable)[];

const noteToRow = (n: DeliveryNote): Insertable<DeliveryNotesTable> => ({
  id: n.id,
  brand_id: n.brandId,
  delivery_note_number: n.deliveryNoteNumber,
  production_order_id: n.productionOrderId,
  production_order_number: n.productionOrderNumber,
  supplier_id: n.supplierId,
  status: n.status,
  currency: n.currency,
  expected_delivery: n.expectedDelivery,
  notes: n.notes,
  meta: toJson(n.meta),
  received_at: n.receivedAt,
  created_by_user_id: n.createdByUserId,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
});

const lineToRow = (n: DeliveryNote, l: DeliveryNoteLine): Insertable<DeliveryNoteLinesTable> => ({
  id: l.id,
  brand_id: n.brandId,
  delivery_note_id: n.id,
  production_order_line_id: l.productionOrderLineId,
  variant_id: l.variantId,
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
});

const rowToLine = (r: Selectable<DeliveryNoteLinesTable>): DeliveryNoteLine => ({
  id: Number(r.id),
  deliveryNoteId: Number(r.delivery_note_id),
  productionOrderLineId: Number(r.production_order_line_id),
  variantId: Number(r.variant_id),
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
});

const rowToNote = (r: Selectable<DeliveryNotesTable>, lines: Selectable<DeliveryNoteLinesTable>[]): DeliveryNote => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  deliveryNoteNumber: Number(r.delivery_note_number),
  productionOrderId: Number(r.production_order_id),
  productionOrderNumber: Number(r.production_order_number),
  supplierId: Number(r.supplier_id),
  status: r.status as DeliveryNoteStatus,
  currency: r.currency,
  expectedDelivery: r.expected_delivery,
  notes: r.notes,
  meta: fromJson<Meta>(r.meta, {}),
  receivedAt: r.received_at,
  createdByUserId: toNullableNumber(r.created_by_user_id),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lines: lines.map(rowToLine),
});

export function deliveryNoteRepository(executor: Executor): DeliveryNoteRepository {
  const store = documentStore(executor, {
    table: 'delivery_notes',
    linesTable: 'delivery_note_lines',
    parentColumn: 'delivery_note_id',
    documentType: 'delivery_note',
    columns: DELIVERY_NOTE_COLUMNS,
    updateColumns: UPDATE_COLUMNS,
    lineUpdateColumns: LINE_UPDATE_COLUMNS,
    toRow: noteToRow,
    linesToRows: (n: DeliveryNote) => n.lines.map((l) => lineToRow(n, l)),
    fromRows: rowToNote,
  });
  return {
    save: (note) => store.save(note),
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    findByNumbers: (brandId, numbers) => store.find(brandId, 'delivery_note_number', numbers),
    findByProductionOrderIds: (brandId, ids) => store.find(brandId, 'production_order_id', ids),
    list: (brandId, query) => store.list(brandId, query, true),
  };
}
