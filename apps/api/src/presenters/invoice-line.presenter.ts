import { FinancialLine } from '@brand/core';
import { money, percent } from './amounts';

/** A product line or a fee (shipping, return fee) of an invoice or credit note. */
export interface FinancialLineWire {
  id: number;
  kind: FinancialLine['kind'];
  order_line_id: number | null;
  variant_id: number | null;
  sku: string | null;
  description: string;
  quantity: number;
  unit_price: number;
  discount_percentage: number;
  total_price: number;
}

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
