import { FinancialLine, financialDocumentLifecycle } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  currency,
  dateTime,
  integer,
  amount,
  nullable,
  oneOfValues,
  optional,
  percentage,
  string,
} from '../http/wire-schema';
import { AccountingEntrySchema } from './accounting-entry.presenter';
import { exportMarksProperty } from './export-mark.presenter';
import { TimelineEventSchema } from './timeline.presenter';
import { money, percent } from './amounts';

/** A product line or a fee (shipping, return fee) of an invoice or credit note. */
export const FinancialLineSchema = component(
  'FinancialLine',
  Type.Object({
    id: integer(),
    kind: oneOfValues<FinancialLine['kind']>(['product', 'shipping', 'fee']),
    order_line_id: nullable(integer(), { description: 'The order line billed or credited; null for fees' }),
    variant_id: nullable(integer()),
    sku: nullable(string()),
    description: string("The product's name, or the fee's label"),
    quantity: integer(),
    unit_price: amount('Per piece, in the VAT basis of the document'),
    discount_percentage: percentage('Discount'),
    total_price: amount('quantity × unit_price less the discount'),
  }),
);
export type FinancialLineWire = Static<typeof FinancialLineSchema>;

export function presentFinancialLine(line: FinancialLine): FinancialLineWire {
  return {
    id: line.id,
    kind: line.kind,
    order_line_id: line.orderLineId,
    variant_id: line.variantId,
    sku: line.sku,
    description: line.description,
    quantity: line.quantity,
    unit_price: money(line.unitPrice),
    discount_percentage: percent(line.discountBasisPoints),
    total_price: money(line.totalPrice),
  };
}

export const financialDocumentStatus = oneOfValues(financialDocumentLifecycle.states);

/**
 * What invoices and credit notes both carry after their number, status and links, so the two
 * documents describe their totals, lines and booking alike.
 */
export const financialDocumentFields = {
  customer_id: integer(),
  currency: currency(),
  vat_rate: percentage('VAT rate'),
  prices_include_vat: boolean(),
  net_total: amount('Without VAT'),
  vat_total: amount('VAT'),
  total: amount('net_total + vat_total'),
  booked_at: nullable(dateTime('When it was booked (final)')),
  created_at: dateTime(),
  updated_at: dateTime(),
  exports: optional(exportMarksProperty(true)),
  lines: optional(arrayOf(FinancialLineSchema, 'With includes[]=lines on lists; always on a single document')),
  timeline: optional(arrayOf(TimelineEventSchema, 'On a single document, oldest first')),
  accounting_entry: optional(
    nullable(AccountingEntrySchema, {
      description: 'On a single document: the entry its booking wrote; null while it is a draft',
    }),
  ),
};
