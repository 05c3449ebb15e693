import { Customer } from '../customers/customer.entities';
import { ExportMark } from '../documents/document.entities';
import { marksByDocument } from '../orders/marks-by-document';
import { Repositories } from '../shared/unit-of-work.ports';
import { Return } from './return.entities';

/** A return with what its 3PL form shows besides itself: the customer (number, name, VAT number) and the export marks. */
export interface ReturnView {
  ret: Return;
  customer: Customer;
  exports: ExportMark[];
}

/** Loads the views of a page of returns (one read of marks, one per distinct customer), keeping the returns' order. */
export async function loadReturnViews(
  repos: Pick<Repositories, 'customers' | 'exportMarks'>,
  brandId: number,
  returns: readonly Return[],
): Promise<ReturnView[]> {
  if (returns.length === 0) return [];
  const exports = await marksByDocument(
    repos,
    brandId,
    'return',
    returns.map((r) => r.id),
  );
  const customers = new Map<number, Customer>();
  for (const customerId of new Set(returns.map((r) => r.customerId))) {
    const customer = await repos.customers.findById(brandId, customerId);
    if (!customer) throw new Error(`a return refers to customer ${customerId}, which is missing`);
    customers.set(customerId, customer);
  }
  return returns.map((ret) => ({ ret, customer: customers.get(ret.customerId)!, exports: exports.get(ret.id) ?? [] }));
}
