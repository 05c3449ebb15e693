import { OrderLine, ShipmentLine, ShipmentView, lineTotal, shipmentLifecycle, ORDER_TYPES } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  component,
  currency,
  dateTime,
  integer,
  meta,
  amount,
  nullable,
  oneOfValues,
  string,
  stringMap,
} from '../http/wire-schema';
import { ExportMarkSchema, presentExportMarks } from './export-mark.presenter';
import {
  OrderAddressSchema,
  ResponsiblePersonSchema,
  ShippingCodeSchema,
  ShippingCodeWire,
  presentOrderAddress,
} from './order.presenter';
import { ColliSchema } from './shipment.presenter';
import { money, moneyOrNull } from './amounts';

/*
 * The shipment in the warehouse's (3PL) form: every field of the spec's "Shipment (3PL form)"
 * table with its defaults, flat and readable, plus the id, status, carrier, colli, timestamps
 * and export marks the warehouse's calls need. Amounts are decimals of the order's currency.
 */

export const ThirdPartyShipmentLineSchema = component(
  'ThirdPartyShipmentLine',
  Type.Object({
    product_name: string('Product name without attributes'),
    item_number: string('Product-level item number'),
    attributes: stringMap('Variant attributes (colors, sizes)'),
    full_name: string("Product name plus attribute values ('Shirt - Black / M'), for delivery notes and packing lists"),
    sku: string(),
    ean: nullable(string()),
    country_of_origin: nullable(string(), { description: '2-letter ISO code' }),
    composition: nullable(string()),
    hs_tariff_code: nullable(string()),
    quantity: integer('Pieces to pack'),
    unit_price: amount("Price per piece after the order line's discount; the customs value"),
    total_price: amount('quantity × unit_price'),
  }),
);
export type ThirdPartyShipmentLineWire = Static<typeof ThirdPartyShipmentLineSchema>;

export const ThirdPartyShipmentOrderSchema = component(
  'ThirdPartyShipmentOrder',
  Type.Object({
    order_number: integer(),
    order_meta: meta('Custom fields of the order'),
    payment_term: nullable(Type.Object({ name: string(), erp_code: string("The payment terms' code") }), {
      description: "The customer's payment terms; null when the customer has none",
    }),
    shipping: nullable(Type.Number(), {
      description: "The order's shipping cost when it travels on this shipment (the order's first); null otherwise",
    }),
  }),
);
export type ThirdPartyShipmentOrderWire = Static<typeof ThirdPartyShipmentOrderSchema>;

export const ThirdPartyShipmentSchema = component(
  'ThirdPartyShipment',
  Type.Object(
    {
      id: integer('Taken by cancel and mark-as-exported'),
      shipment_number: integer(),
      order_number: integer('The order the shipment was made from (not unique per shipment)'),
      order_type: oneOfValues(ORDER_TYPES),
      status: oneOfValues(shipmentLifecycle.states),
      notes: nullable(string(), { description: 'Notes / packing instructions from the brand' }),
      reference: nullable(string(), { description: "Typically the end-customer's own order number" }),
      currency: currency(),
      customer_number: string(),
      // The shared ShippingCode, never null here: the reference carries a description of its own.
      shipping_code: Type.Unsafe<ShippingCodeWire>({
        ...ShippingCodeSchema,
        description: 'The order\'s; code "default" (drop_point_id null) when the order named none',
      }),
      invoice_address: nullable(OrderAddressSchema),
      delivery_address: nullable(OrderAddressSchema),
      orders: arrayOf(ThirdPartyShipmentOrderSchema),
      responsible_person: nullable(ResponsiblePersonSchema),
      email: nullable(string(), { description: "The order's e-mail, else the customer's" }),
      telephone: nullable(string(), { description: "The order's telephone, else the customer's" }),
      vat_number: nullable(string(), { description: "The customer's VAT number" }),
      eori_number: nullable(string(), { description: "The customer's EORI number" }),
      carrier: nullable(string(), { description: 'Set on delivery' }),
      colli: arrayOf(ColliSchema, 'Parcels reported on delivery; [] before'),
      lines: arrayOf(ThirdPartyShipmentLineSchema),
      created_at: dateTime(),
      updated_at: dateTime(),
      exports: arrayOf(ExportMarkSchema, 'Which systems marked it exported, and when'),
    },
    {
      description:
        "A picking instruction in the warehouse's form. Use shipment_number as the warehouse's order number (an order may have several shipments).",
    },
  ),
);
export type ThirdPartyShipmentWire = Static<typeof ThirdPartyShipmentSchema>;

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
