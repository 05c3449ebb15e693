import { AddressSync, applyAddressSync, checkAddressSync } from '../addresses/address';
import { isCurrencyCode } from '../shared/codes';
import { DomainError, ViolationList } from '../shared/errors';
import { numberNewAddresses, sameData } from '../shared/sync-outcome';
import { Repositories } from '../shared/unit-of-work.ports';
import { Supplier } from './supplier.entities';

// The rules of a supplier's fields, in one place for the sync (`syncSuppliers`),
// `createSupplier` and `updateSupplier`, so that no endpoint accepts what another refuses.

/**
 * The fields of a supplier that a sync item, a create and a change may set: all but the supplier
 * number, already of the right JSON types. A field left out keeps its value.
 */
export interface SupplierFields {
  name?: string;
  currency?: string;
  active?: boolean;
  email?: string | null;
  addresses?: AddressSync;
}

/** Collects what is wrong with a supplier number, under `pointer` (the item: `/suppliers/3`, or `` for a body). */
export function checkSupplierNumber(supplierNumber: string, pointer: string, violations: ViolationList): void {
  if (supplierNumber.trim() === '') violations.add(`${pointer}/supplier_number`, 'must not be empty');
}

/**
 * Collects what is wrong with the fields sent for a supplier, under `pointer`. A new supplier
 * needs a name and a currency; a name, once sent, must not be blank.
 */
export function checkSupplierFields(
  fields: SupplierFields,
  isNew: boolean,
  pointer: string,
  violations: ViolationList,
): void {
  if (isNew && (fields.name === undefined || fields.name.trim() === ''))
    violations.add(`${pointer}/name`, 'is required for a new supplier');
  else if (fields.name !== undefined && fields.name.trim() === '')
    violations.add(`${pointer}/name`, 'must not be empty');
  if (isNew && fields.currency === undefined) violations.add(`${pointer}/currency`, 'is required for a new supplier');
  if (fields.currency !== undefined && !isCurrencyCode(fields.currency))
    violations.add(`${pointer}/currency`, 'must be a 3-letter ISO 4217 code such as EUR');
  if (fields.addresses) checkAddressSync(fields.addresses, pointer, violations);
}

/**
 * Refuses a supplier number another supplier of the brand holds (`duplicate`, naming
 * `/supplier_number`). `self` is the supplier being changed, which may keep its own number.
 */
export async function ensureSupplierNumberFree(
  tx: Pick<Repositories, 'suppliers'>,
  brandId: number,
  supplierNumber: string,
  self: number | null = null,
): Promise<void> {
  const [holder] = await tx.suppliers.findByNumbers(brandId, [supplierNumber]);
  if (holder && holder.id !== self)
    throw new DomainError('duplicate', `supplier number ${supplierNumber} is taken by supplier ${holder.id}`, {
      violations: [
        { pointer: '/supplier_number', detail: `supplier_number ${supplierNumber} is taken by supplier ${holder.id}` },
      ],
      data: { supplier_id: holder.id },
    });
}

/** A supplier before any field is applied: what a create starts from. */
export function blankSupplier(id: number, brandId: number, supplierNumber: string, now: string): Supplier {
  return {
    id,
    brandId,
    supplierNumber,
    name: '',
    currency: '',
    active: true,
    email: null,
    addresses: [],
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The supplier with the checked fields applied; new addresses get their ids. `updatedAt` is left
 * as it was: the caller sets it only when something changed (`supplierChanged`).
 */
export async function applySupplierFields(
  tx: Pick<Repositories, 'ids'>,
  base: Supplier,
  fields: SupplierFields,
): Promise<Supplier> {
  return {
    ...base,
    name: fields.name?.trim() ?? base.name,
    currency: fields.currency ?? base.currency,
    active: fields.active ?? base.active,
    email: fields.email !== undefined ? fields.email : base.email,
    addresses: fields.addresses
      ? await numberNewAddresses(tx.ids, 'supplier_addresses', applyAddressSync(base.addresses, fields.addresses))
      : base.addresses,
  };
}

/** Whether applying fields changed anything a reader sees (the time of the last change aside). */
export function supplierChanged(next: Supplier, current: Supplier): boolean {
  return !sameData({ ...next, updatedAt: '' }, { ...current, updatedAt: '' });
}
