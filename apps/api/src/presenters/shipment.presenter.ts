import { ExportMark, Shipment, ShipmentLine, TimelineEvent, shipmentLifecycle } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  component,
  dateTime,
  integer,
  nullable,
  oneOfValues,
  optional,
  string,
} from '../http/wire-schema';
import { exportMarksProperty, presentExportMarks } from './export-mark.presenter';
import { TimelineEventSchema, presentTimeline } from './timeline.presenter';
import { moneyOrNull } from './amounts';

export const ColliSchema = component(
  'Colli',
  Type.Object({
    track_trace: nullable(string()),
    track_trace_link: nullable(string(), {
      description: "As the warehouse sent it, or built from the carrier's template",
    }),
    sscc_number: nullable(string()),
    lines: arrayOf(Type.Object({ sku: string(), quantity: integer() })),
  }),
);
export type ColliWire = Static<typeof ColliSchema>;

export const ShipmentLineSchema = component(
  'ShipmentLine',
  Type.Object({
    id: integer(),
    order_line_id: integer(),
    variant_id: integer(),
    sku: string(),
    ean: nullable(string()),
    quantity: integer('Pieces to pack'),
    delivered_quantity: integer('Pieces the warehouse reported delivered'),
  }),
);
export type ShipmentLineWire = Static<typeof ShipmentLineSchema>;

export const ShipmentSchema = component(
  'Shipment',
  Type.Object({
    id: integer(),
    shipment_number: integer("The warehouse's order number"),
    order_id: integer(),
    order_number: integer(),
    customer_id: integer(),
    status: oneOfValues(shipmentLifecycle.states),
    shipping_cost: nullable(Type.Number(), {
      description: "The order's shipping cost on its first shipment; null on the others",
    }),
    carrier: nullable(string(), { description: 'Set on delivery' }),
    colli: arrayOf(ColliSchema, 'Parcels reported on delivery'),
    delivered_at: nullable(dateTime(), { description: 'When the warehouse reported it delivered' }),
    cancelled_at: nullable(dateTime(), { description: 'When it was cancelled' }),
    created_at: dateTime(),
    updated_at: dateTime(),
    exports: optional(exportMarksProperty(true)),
    lines: optional(arrayOf(ShipmentLineSchema, 'With includes[]=lines on lists; always on a single shipment')),
    timeline: optional(arrayOf(TimelineEventSchema, 'On GET /v10/shipments/{id}, oldest first')),
  }),
);
export type ShipmentWire = Static<typeof ShipmentSchema>;

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
