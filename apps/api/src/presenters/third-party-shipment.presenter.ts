import { OrderLine, ShipmentLine, ShipmentStatus, ShipmentView, lineTotal } from '@brand/core';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { ColliWire } from './shipment.presenter';
import { OrderAddressWire, ResponsiblePersonWire, ShippingCodeWire, presentOrderAddress } from './order.presenter';
import { money, moneyOrNull } from './amounts';

/*
 * The shipment in the warehouse's (3PL) form: every field of the spec's "Shipment (3PL form)"
 * table with its defaults, flat and readable, plus the id, status, carrier, colli, timestamps
 * and export marks the warehouse's calls need. Amounts are decimals of the order's currency.
 */

export interface ThirdPartyShipmentLineWire {
  product_name: string;
  item_number: string;
  attributes: Record<string, string>;
  /** Product name plus the attribute values, for delivery notes and packing lists. */
  full_name: string;
  sku: string;
  ean: string | null;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  quantity: number;
  /** Per piece after the order line's discount: the customs value. */
  unit_price: number;
  total_price: number;
}

export interface ThirdPartyShipmentOrderWire {
  order_number: number;
  order_meta: Record<string, unknown>;
  payment_term: { name: string; erp_code: string } | null;
  /** The order's shipping cost when it travels on this shipment; null otherwise. */
  shipping: number | null;
}

export interface ThirdPartyShipmentWire {
  id: number;
  shipment_number: number;
  order_number: number;
  order_type: string;
  status: ShipmentStatus;
  notes: string | null;
  reference: string | null;
  currency: string;
  customer_number: string;
  shipping_code: ShippingCodeWire;
  invoice_address: OrderAddressWire | null;
  delivery_address: OrderAddressWire | null;
  orders: ThirdPartyShipmentOrderWire[];
  responsible_person: ResponsiblePersonWire | null;
  email: string | null;
  telephone: string | null;
  vat_number: string | null;
  eori_number: string | null;
  carrier: string | null;
  colli: ColliWire[];
  lines: ThirdPartyShipmentLineWire[];
  created_at: string;
  updated_at: string;
  exports: ExportMarkWire[];
}

/** The shipping code a warehouse gets when the order named none. */
export const DEFAULT_SHIPPING_CODE = { code: 'default', drop_point_id: null } as const;

/** `Shirt - Black / M`: the product name, then the attribute values in the order the variant lists them. */
export function fullName(productName: string, attributes: Record<string, string>): string {
  const values = Object.values(attributes).filter((value) => value !== '');
  return values.length === 0 ? productName : `${productName} - ${values.join(' / ')}`;
}

function presentLine(line: OrderLine | undefined, shipmentLine: ShipmentLine): ThirdPartyShipmentLineWire {
  // Every shipment line points at a line of its order; a missing one would be a broken database.
  if (!line)
    throw new Error(
      `shipment line ${shipmentLine.id} refers to order line ${shipmentLine.orderLineId}, which its order does not have`,
    );
  const unit = lineTotal(1, line.unitPrice, line.discountBasisPoints);
  return {
    product_name: line.productName,
    item_number: line.itemNumber,
    attributes: line.attributes,
    full_name: fullName(line.productName, line.attributes),
    sku: shipmentLine.sku,
    ean: shipmentLine.ean,
    country_of_origin: line.countryOfOrigin,
    composition: line.composition,
    hs_tariff_code: line.hsTariffCode,
    quantity: shipmentLine.quantity,
    unit_price: money(unit),
    total_price: money(unit * shipmentLine.quantity),
  };
}

export function presentThirdPartyShipment(view: ShipmentView): ThirdPartyShipmentWire {
  const { shipment, order, customer, paymentTerms } = view;
  const orderLines = new Map(order.lines.map((line) => [line.id, line]));
  return {
    id: shipment.id,
    shipment_number: shipment.shipmentNumber,
    order_number: order.orderNumber,
    order_type: order.orderType,
    status: shipment.status,
    notes: order.notes,
    reference: order.reference,
    currency: order.currency,
    customer_number: order.customerNumber,
    shipping_code: order.shippingCode
      ? { code: order.shippingCode.code, drop_point_id: order.shippingCode.dropPointId }
      : { ...DEFAULT_SHIPPING_CODE },
    invoice_address: presentOrderAddress(order.invoiceAddress),
    delivery_address: presentOrderAddress(order.deliveryAddress),
    orders: [
      {
        order_number: order.orderNumber,
        order_meta: order.orderMeta,
        payment_term: paymentTerms ? { name: paymentTerms.name, erp_code: paymentTerms.code } : null,
        shipping: moneyOrNull(shipment.shippingCost),
      },
    ],
    responsible_person: order.responsiblePerson
      ? {
          email: order.responsiblePerson.email,
          first_name: order.responsiblePerson.firstName,
          last_name: order.responsiblePerson.lastName,
        }
      : null,
    email: order.email ?? customer.email,
    telephone: order.telephone ?? customer.telephone,
    vat_number: customer.vatNumber,
    eori_number: customer.eoriNumber,
    carrier: shipment.carrier,
    colli: shipment.colli.map((colli) => ({
      track_trace: colli.trackTrace,
      track_trace_link: colli.trackTraceLink,
      sscc_number: colli.ssccNumber,
      lines: colli.lines.map((line) => ({ sku: line.sku, quantity: line.quantity })),
    })),
    lines: shipment.lines.map((line) => presentLine(orderLines.get(line.orderLineId), line)),
    created_at: shipment.createdAt,
    updated_at: shipment.updatedAt,
    exports: presentExportMarks(view.exports),
  };
}
