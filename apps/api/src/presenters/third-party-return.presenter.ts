import { ReturnLine, ReturnStatus, ReturnView } from '@brand/core';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { fullName } from './third-party-shipment.presenter';

/*
 * The return in the warehouse's (3PL) form: every field of the spec's "Return RMA (3PL form)"
 * table with its defaults, plus the id and return number the warehouse's calls and people use,
 * and the export marks.
 */

export interface ThirdPartyReturnLineWire {
  product_name: string;
  item_number: string;
  attributes: Record<string, string>;
  full_name: string;
  sku: string;
  ean: string | null;
  country_of_origin: string | null;
  composition: string | null;
  hs_tariff_code: string | null;
  /** Pieces received at the warehouse; 0 until received. */
  returned: number;
  expected_quantity: number;
}

export interface ThirdPartyReturnWire {
  id: number;
  return_number: number;
  rma: string;
  status: ReturnStatus;
  order_number: number | null;
  customer_number: string;
  customer: string;
  customer_meta: Record<string, unknown>;
  customer_vat_number: string | null;
  currency: string;
  notes: string | null;
  return_meta: Record<string, unknown>;
  shipping_method: string | null;
  track_trace: string | null;
  track_trace_link: string | null;
  carrier_code: string | null;
  carrier_label: string | null;
  created_at: string;
  updated_at: string;
  lines: ThirdPartyReturnLineWire[];
  exports: ExportMarkWire[];
}

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
