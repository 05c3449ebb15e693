import { Product, ProductSupplierLink, Variant } from '../catalog/catalog.entities';
import { CreditNote, Invoice } from '../finance/finance.entities';
import { Shipment } from '../fulfilment/shipment.entities';
import { Order } from '../orders/order.entities';
import { ProductionOrder, DeliveryNote } from '../production/production.entities';
import { Return } from '../returns/return.entities';
import { DomainError } from '../shared/errors';

/**
 * The in-memory tables whose rows refer to customers, suppliers and variants. The modules'
 * states have them under these names; naming them here, rather than importing those states,
 * lets the customers, suppliers and catalog repositories ask without a cycle of imports.
 */
export interface ReferringTables {
  products: Product[];
  variants: Variant[];
  productSuppliers: ProductSupplierLink[];
  orders: Order[];
  shipments: Shipment[];
  invoices: Invoice[];
  creditNotes: CreditNote[];
  returns: Return[];
  productionOrders: ProductionOrder[];
  deliveryNotes: DeliveryNote[];
}

/** One kind of data that may refer to a record, named as the refusal names it ("orders"). */
interface Dependent<S> {
  label: string;
  refersTo(state: S, brandId: number, id: number): boolean;
}

const withLines = <L extends { variantId: number | null }>(
  label: string,
  rows: (state: ReferringTables) => { brandId: number; lines: L[] }[],
): Dependent<ReferringTables> => ({
  label,
  refersTo: (state, brandId, variantId) =>
    rows(state).some((row) => row.brandId === brandId && row.lines.some((line) => line.variantId === variantId)),
});

const byColumn = <K extends 'customerId' | 'supplierId'>(
  label: string,
  column: K,
  rows: (state: ReferringTables) => ({ brandId: number } & Record<K, number>)[],
): Dependent<ReferringTables> => ({
  label,
  refersTo: (state, brandId, id) => rows(state).some((row) => row.brandId === brandId && row[column] === id),
});

/**
 * What still refers to a customer, supplier or variant, in the order and with the labels of the
 * SQL adapters' dependent tables, so that deleting one is refused alike on every adapter (a core
 * test could otherwise delete a customer that has orders).
 */
const CUSTOMER_DEPENDENTS: Dependent<ReferringTables>[] = [
  byColumn('orders', 'customerId', (s) => s.orders),
  byColumn('shipments', 'customerId', (s) => s.shipments),
  byColumn('invoices', 'customerId', (s) => s.invoices),
  byColumn('credit notes', 'customerId', (s) => s.creditNotes),
  byColumn('returns', 'customerId', (s) => s.returns),
];

const SUPPLIER_DEPENDENTS: Dependent<ReferringTables>[] = [
  {
    label: 'products',
    refersTo: (state, brandId, supplierId) =>
      state.productSuppliers.some(
        (link) =>
          link.supplierId === supplierId &&
          state.products.some((p) => p.id === link.productId && p.brandId === brandId),
      ),
  },
  byColumn('production orders', 'supplierId', (s) => s.productionOrders),
];

/** Prices, images, balances and the stock ledger belong to the variant and go with it: they are not dependents. */
const VARIANT_DEPENDENTS: Dependent<ReferringTables>[] = [
  withLines('orders', (s) => s.orders),
  withLines('shipments', (s) => s.shipments),
  withLines('invoices', (s) => s.invoices),
  withLines('credit notes', (s) => s.creditNotes),
  withLines('returns', (s) => s.returns),
  withLines('production orders', (s) => s.productionOrders),
  withLines('delivery notes', (s) => s.deliveryNotes),
];

function labelsOf(
  dependents: Dependent<ReferringTables>[],
  state: ReferringTables,
  brandId: number,
  ids: number[],
): string[] {
  return dependents.filter((d) => ids.some((id) => d.refersTo(state, brandId, id))).map((d) => d.label);
}

export const customerDependents = (state: ReferringTables, brandId: number, customerId: number): string[] =>
  labelsOf(CUSTOMER_DEPENDENTS, state, brandId, [customerId]);

export const supplierDependents = (state: ReferringTables, brandId: number, supplierId: number): string[] =>
  labelsOf(SUPPLIER_DEPENDENTS, state, brandId, [supplierId]);

export const variantDependents = (state: ReferringTables, brandId: number, variantId: number): string[] =>
  labelsOf(VARIANT_DEPENDENTS, state, brandId, [variantId]);

/** A product is held by whatever holds any of its variants. */
export function productDependents(state: ReferringTables, brandId: number, productId: number): string[] {
  const variantIds = state.variants.filter((v) => v.brandId === brandId && v.productId === productId).map((v) => v.id);
  return labelsOf(VARIANT_DEPENDENTS, state, brandId, variantIds);
}

/** What the SQL adapters' foreign keys do (translated to `has_dependents`): a referred-to row stays. */
export function refuseIfReferred(dependents: string[], what: string): void {
  if (dependents.length > 0)
    throw new DomainError('has_dependents', `${what} still has dependent data (${dependents.join(', ')})`);
}
