import { ExportMark, Shipment, ShipmentLine, ShipmentStatus, TimelineEvent } from '@brand/core';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { moneyOrNull } from './amounts';

export interface ColliWire {
  track_trace: string | null;
  track_trace_link: string | null;
  sscc_number: string | null;
  lines: { sku: string; quantity: number }[];
}

export interface ShipmentLineWire {
  id: number;
  order_line_id: number;
  variant_id: number;
  sku: string;
  ean: string | null;
  quantity: number;
  delivered_quantity: number;
}

export interface ShipmentWire {
  id: number;
  shipment_number: number;
  order_id: number;
  order_number: number;
  customer_id: number;
  status: ShipmentStatus;
  /** The order's shipping cost on its first shipment; null on the others. */
  shipping_cost: number | null;
  carrier: string | null;
  colli: ColliWire[];
  delivered_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
  /** Absent only on shipments embedded in an order. */
  exports?: ExportMarkWire[];
  lines?: ShipmentLineWire[];
  /** On a single shipment. */
  timeline?: TimelineEventWire[];
}

export function presentShipmentLine(line: ShipmentLine): ShipmentLineWire {
  return {
    id: line.id,
    order_line_id: line.orderLineId,
    variant_id: line.variantId,
    sku: line.sku,
    ean: line.ean,
    quantity: line.quantity,
    delivered_quantity: line.deliveredQuantity,
  };
}

/** A shipment of the current interface (the warehouse's form is the 3PL presenter's); `exports` when given, `lines` when asked for. */
export function presentShipment(
  shipment: Shipment,
  options: { includeLines: boolean; exports?: readonly ExportMark[] },
): ShipmentWire {
  const wire: ShipmentWire = {
    id: shipment.id,
    shipment_number: shipment.shipmentNumber,
    order_id: shipment.orderId,
    order_number: shipment.orderNumber,
    customer_id: shipment.customerId,
    status: shipment.status,
    shipping_cost: moneyOrNull(shipment.shippingCost),
    carrier: shipment.carrier,
    colli: shipment.colli.map((c) => ({
      track_trace: c.trackTrace,
      track_trace_link: c.trackTraceLink,
      sscc_number: c.ssccNumber,
      lines: c.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
    })),
    delivered_at: shipment.deliveredAt,
    cancelled_at: shipment.cancelledAt,
    created_at: shipment.createdAt,
    updated_at: shipment.updatedAt,
  };
  if (options.exports) wire.exports = presentExportMarks(options.exports);
  if (options.includeLines) wire.lines = shipment.lines.map(presentShipmentLine);
  return wire;
}

/** `GET /v10/shipments/{id}`: the shipment with its lines, exports and timeline. */
export function presentShipmentDetail(detail: {
  shipment: Shipment;
  exports: readonly ExportMark[];
  timeline: readonly TimelineEvent[];
}): ShipmentWire {
  const wire = presentShipment(detail.shipment, { includeLines: true, exports: detail.exports });
  wire.timeline = presentTimeline(detail.timeline);
  return wire;
}
