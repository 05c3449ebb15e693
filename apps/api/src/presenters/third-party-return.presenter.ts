import { ReturnLine, ReturnView, returnLifecycle } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  component,
  currency,
  dateTime,
  integer,
  meta,
  nullable,
  oneOfValues,
  string,
  stringMap,
} from '../http/wire-schema';
import { exportMarksProperty, presentExportMarks } from './export-mark.presenter';
import { fullName } from './third-party-shipment.presenter';

/*
 * The return in the warehouse's (3PL) form: every field of the spec's "Return RMA (3PL form)"
 * table with its defaults, plus the id and return number the warehouse's calls and people use,
 * and the export marks.
 */

export const ThirdPartyReturnLineSchema = component(
  'ThirdPartyReturnLine',
  Type.Object({
    product_name: string('Product name without attributes'),
    item_number: string('Product-level item number'),
    attributes: stringMap('Variant attributes (colors, sizes)'),
    full_name: string('Product name plus attribute values'),
    sku: string(),
    ean: nullable(string()),
    country_of_origin: nullable(string('2-letter ISO code')),
    composition: nullable(string()),
    hs_tariff_code: nullable(string()),
    returned: integer('Pieces received at the warehouse (0 until received)'),
    expected_quantity: integer('Pieces expected'),
  }),
);
export type ThirdPartyReturnLineWire = Static<typeof ThirdPartyReturnLineSchema>;

export const ThirdPartyReturnSchema = component(
  'ThirdPartyReturn',
  Type.Object(
    {
      id: integer('Taken by mark-as-exported'),
      return_number: integer(),
      rma: string('Taken by POST /3pl/returns/receive'),
      status: oneOfValues(returnLifecycle.states),
      order_number: nullable(integer('The order the return relates to')),
      customer_number: string(),
      customer: string('Customer name'),
      customer_meta: meta('Custom fields of the customer'),
      customer_vat_number: nullable(string()),
      currency: currency(),
      notes: nullable(string('Notes to the return delivery')),
      return_meta: meta('Custom fields of the return'),
      shipping_method: nullable(string('Label of the shipping method chosen in a return portal')),
      track_trace: nullable(string()),
      track_trace_link: nullable(string()),
      carrier_code: nullable(string()),
      carrier_label: nullable(string()),
      created_at: dateTime(),
      updated_at: dateTime(),
      lines: arrayOf(ThirdPartyReturnLineSchema),
      exports: exportMarksProperty(false),
    },
    { description: "A return RMA in the warehouse's form." },
  ),
);
export type ThirdPartyReturnWire = Static<typeof ThirdPartyReturnSchema>;

function presentLine(line: ReturnLine): ThirdPartyReturnLineWire {
  return {
    product_name: line.productName,
    item_number: line.itemNumber,
    attributes: line.attributes,
    full_name: fullName(line.productName, line.attributes),
    sku: line.sku,
    ean: line.ean,
    country_of_origin: line.countryOfOrigin,
    composition: line.composition,
    hs_tariff_code: line.hsTariffCode,
    returned: line.receivedQuantity,
    expected_quantity: line.expectedQuantity,
  };
}

export function presentThirdPartyReturn(view: ReturnView): ThirdPartyReturnWire {
  const { ret, customer } = view;
  return {
    id: ret.id,
    return_number: ret.returnNumber,
    rma: ret.rma,
    status: ret.status,
    order_number: ret.orderNumber,
    customer_number: customer.customerNumber,
    customer: customer.name,
    // Customers carry no custom fields; the spec's default.
    customer_meta: {},
    customer_vat_number: customer.vatNumber,
    currency: ret.currency,
    notes: ret.notes,
    return_meta: ret.returnMeta,
    shipping_method: ret.shippingMethod,
    track_trace: ret.trackTrace,
    track_trace_link: ret.trackTraceLink,
    carrier_code: ret.carrierCode,
    carrier_label: ret.carrierLabel,
    created_at: ret.createdAt,
    updated_at: ret.updatedAt,
    lines: ret.lines.map(presentLine),
    exports: presentExportMarks(view.exports),
  };
}
