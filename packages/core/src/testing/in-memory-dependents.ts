import { CatalogState } from './in-memory-catalog';
import { OrdersState } from './in-memory-orders';
import { ProductionState } from './in-memory-production';
import { ReturnsState } from './in-memory-returns';

type DocumentsState = CatalogState & OrdersState & ReturnsState & ProductionState;

/** One kind of data that may refer to a record, named as the refusal names it ("orders"). */
interface Dependent<S> {
  label: string;
  refersTo(state: S, brandId: number, id: number): boolean;
}

const withLines = <L extends { variantId: number | null }>(
  label: string,
  rows: (state: DocumentsState) => { brandId: number; lines: L[] }[],
): Dependent<DocumentsState> => ({
  label,
  refersTo: (state, brandId, variantId) =>
    rows(state).some((row) => row.brandId === brandId && row.lines.some((line) => line.variantId === variantId)),
});

const byColumn = <K extends 'customerId' | 'supplierId'>(
  label: string,
  column: K,
  rows: (state: DocumentsState) => ({ brandId: number } & Record<K, number>)[],
): Dependent<DocumentsState> => ({
  label,
  refersTo: (state, brandId, id) => rows(state).some((row) => row.brandId === brandId && row[column] === id),
});

/**
 * What still refers to a customer, supplier or variant, in the order and with the labels of the
 * SQL adapters' dependent tables, so that deleting one is refused alike on every adapter (a core
 * test could otherwise delete a customer that has orders).
 */
const CUSTOMER_DEPENDENTS: Dependent<DocumentsState>[] = [
  byColumn('orders', 'customerId', (s) => s.orders),
  byColumn('shipments', 'customerId', (s) => s.shipments),
  byColumn('invoices', 'customerId', (s) => s.invoices),
  byColumn('credit notes', 'customerId', (s) => s.creditNotes),
  byColumn('returns', 'customerId', (s) => s.returns),
];

const SUPPLIER_DEPENDENTS: Dependent<DocumentsState>[] = [
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
const VARIANT_DEPENDENTS: Dependent<DocumentsState>[] = [
  withLines('orders', (s) => s.orders),
  withLines('shipments', (s) => s.shipments),
  withLines('invoices', (s) => s.invoices),
  withLines('credit notes', (s) => s.creditNotes),
  withLines('returns', (s) => s.returns),
  withLines('production orders', (s) => s.productionOrders),
  withLines('delivery notes', (s) => s.deliveryNotes),
];

function labelsOf(
  dependents: Dependent<DocumentsState>[],
  state: DocumentsState,
  brandId: number,
  ids: number[],
): string[] {
  return dependents.filter((d) => ids.some((id) => d.refersTo(state, brandId, id))).map((d) => d.label);
}

export const customerDependents = (state: DocumentsState, brandId: number, customerId: number): string[] =>
  labelsOf(CUSTOMER_DEPENDENTS, state, brandId, [customerId]);

export const supplierDependents = (state: DocumentsState, brandId: number, supplierId: number): string[] =>
  labelsOf(SUPPLIER_DEPENDENTS, state, brandId, [supplierId]);

export const variantDependents = (state: DocumentsState, brandId: number, variantId: number): string[] =>
  labelsOf(VARIANT_DEPENDENTS, state, brandId, [variantId]);

/** A product is held by whatever holds any of its variants. */
export function productDependents(state: DocumentsState, brandId: number, productId: number): string[] {
  const variantIds = state.variants.filter((v) => v.brandId === brandId && v.productId === productId).map((v) => v.id);
  return labelsOf(VARIANT_DEPENDENTS, state, brandId, variantIds);
}
