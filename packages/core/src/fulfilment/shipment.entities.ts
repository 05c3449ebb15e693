/**
 * Shipments are picking instructions for a warehouse: some open pieces of one order. A warehouse
 * uses the shipment number as its order number (one order can have several shipments).
 */

/**
 * Where a shipment is in its lifecycle (`shipmentLifecycle`): open until delivered (completed) or
 * cancelled.
 */
export type ShipmentStatus = 'open' | 'completed' | 'cancelled';

/** Pieces of one order line on a shipment, and how many of them the warehouse delivered. */
export interface ShipmentLine {
  id: number;
  shipmentId: number;
  orderLineId: number;
  variantId: number;
  sku: string;
  ean: string | null;
  /** Pieces to pack. */
  quantity: number;
  /** Pieces the warehouse reported delivered (set on deliver). */
  deliveredQuantity: number;
}

/** Pieces of one variant in a parcel. */
export interface ColliLine {
  variantId: number;
  sku: string;
  quantity: number;
}

/** One parcel of a delivery, with its tracking data. */
export interface Colli {
  trackTrace: string | null;
  /** As sent, or built from the carrier's template when the warehouse sent none. */
  trackTraceLink: string | null;
  ssccNumber: string | null;
  lines: ColliLine[];
}

/** Pieces of one order for a warehouse to pick, pack and send, and the parcels it sent them in. */
export interface Shipment {
  id: number;
  brandId: number;
  shipmentNumber: number;
  orderId: number;
  orderNumber: number;
  customerId: number;
  status: ShipmentStatus;
  /** The order's shipping cost travels with its first shipment; null on the others. */
  shippingCost: number | null;
  carrier: string | null;
  colli: Colli[];
  deliveredAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
  lines: ShipmentLine[];
}
