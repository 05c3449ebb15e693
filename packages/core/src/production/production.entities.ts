import { Meta } from '../catalog/catalog.entities';

/**
 * Production: what a brand orders from its suppliers. A production order (`draft` → `open` →
 * `closed`) lists the variants to make; its delivery notes announce the goods on their way to
 * the warehouse, which reports them received (`POST /3pl/production/receive`), adding stock.
 * Amounts are minor units of the production order's currency.
 */

/**
 * Where a production order is in its lifecycle (`productionOrderLifecycle`): a draft, open once
 * approved, closed when done.
 */
export type ProductionOrderStatus = 'draft' | 'open' | 'closed';

/**
 * One variant ordered from the supplier: a copy of its catalog data, the pieces ordered, and how
 * many are announced on delivery notes and received.
 */
export interface ProductionOrderLine {
  id: number;
  productionOrderId: number;
  variantId: number;
  productId: number;
  /** Copies of the catalog when the line was made. */
  sku: string;
  ean: string | null;
  itemNumber: string;
  productName: string;
  attributes: Record<string, string>;
  countryOfOrigin: string | null;
  composition: string | null;
  hsTariffCode: string | null;
  /** Pieces ordered from the supplier. */
  quantity: number;
  /** Cost per piece; null when not agreed. */
  unitCost: number | null;
  /** Pieces on delivery notes of this order. */
  expectedQuantity: number;
  /** Pieces the warehouse received on them. */
  receivedQuantity: number;
}

/**
 * What a brand orders from one supplier: the variants to make, and where the order is in its
 * lifecycle (`productionOrderLifecycle`).
 */
export interface ProductionOrder {
  id: number;
  brandId: number;
  productionOrderNumber: number;
  status: ProductionOrderStatus;
  supplierId: number;
  supplierNumber: string;
  currency: string;
  /** YYYY-MM-DD; null when unknown. */
  expectedDelivery: string | null;
  notes: string | null;
  productionOrderMeta: Meta;
  /** Sales orders this production makes goods for (make-to-order); the export's `salesOrders` include. */
  salesOrderIds: number[];
  approvedAt: string | null;
  closedAt: string | null;
  createdByUserId: number | null;
  createdAt: string;
  updatedAt: string;
  lines: ProductionOrderLine[];
}

/**
 * Where a delivery note is in its lifecycle (`deliveryNoteLifecycle`): expected until the warehouse
 * reports it received.
 */
export type DeliveryNoteStatus = 'expected' | 'received';

/**
 * Pieces of one production order line on a delivery note: expected, and received once the warehouse
 * reports them.
 */
export interface DeliveryNoteLine {
  id: number;
  deliveryNoteId: number;
  productionOrderLineId: number;
  variantId: number;
  sku: string;
  ean: string | null;
  itemNumber: string;
  productName: string;
  attributes: Record<string, string>;
  countryOfOrigin: string | null;
  composition: string | null;
  hsTariffCode: string | null;
  expectedQuantity: number;
  receivedQuantity: number;
}

/** A delivery of a production order announced to the warehouse. */
export interface DeliveryNote {
  id: number;
  brandId: number;
  deliveryNoteNumber: number;
  productionOrderId: number;
  productionOrderNumber: number;
  supplierId: number;
  status: DeliveryNoteStatus;
  currency: string;
  expectedDelivery: string | null;
  notes: string | null;
  /** `production_order_delivery_note_meta`; `POST /3pl/production/receive` merges `meta` into it. */
  meta: Meta;
  receivedAt: string | null;
  createdByUserId: number | null;
  createdAt: string;
  updatedAt: string;
  lines: DeliveryNoteLine[];
}
