import { AddressSync, applyAddressSync, checkAddressSync } from '../addresses/address';
import { Clock } from '../shared/clock.ports';
import { isCurrencyCode } from '../shared/codes';
import { ViolationList } from '../shared/errors';
import { numberNewAddresses, sameData, SyncOutcome } from '../shared/sync-outcome';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Supplier } from './supplier.entities';

/** One item of `POST /production/suppliers/sync`, already of the right JSON types. Absent fields stay as they are. */
export interface SupplierSyncItem {
  supplierNumber: string;
  name?: string;
  currency?: string;
  active?: boolean;
  email?: string | null;
  addresses?: AddressSync;
  delete?: boolean;
}

/**
 * Creates, updates or deletes suppliers matched by supplier number; the whole request is
 * checked before anything is written, and a failed check names the item index and field.
 */
export async function syncSuppliers(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'suppliers'>>; clock: Clock },
  input: { brandId: number; suppliers: SupplierSyncItem[] },
): Promise<SyncOutcome[]> {
  const { brandId, suppliers: items } = input;
  return deps.uow.run(async (tx) => {
    const violations = new ViolationList();
    const existing = new Map(
      (await tx.suppliers.findByNumbers(brandId, [...new Set(items.map((i) => i.supplierNumber))])).map((s) => [
        s.supplierNumber,
        s,
      ]),
    );
    const firstIndex = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      const pointer = `/suppliers/${i}`;
      const earlier = firstIndex.get(item.supplierNumber);
      if (earlier !== undefined)
        violations.add(
          `${pointer}/supplier_number`,
          `repeats suppliers[${earlier}]; send each supplier once per request`,
        );
      else firstIndex.set(item.supplierNumber, i);
      if (item.supplierNumber.trim() === '') violations.add(`${pointer}/supplier_number`, 'must not be empty');
      const current = existing.get(item.supplierNumber);
      if (item.delete) {
        const dependents = current ? await tx.suppliers.dependentsOf(brandId, current.id) : [];
        if (dependents.length > 0)
          violations.add(
            `${pointer}/delete`,
            `cannot delete supplier ${item.supplierNumber}: it still has ${dependents.join(', ')}`,
          );
        continue;
      }
      if (!current && (item.name === undefined || item.name.trim() === ''))
        violations.add(`${pointer}/name`, 'is required for a new supplier');
      if (!current && item.currency === undefined)
        violations.add(`${pointer}/currency`, 'is required for a new supplier');
      if (item.currency !== undefined && !isCurrencyCode(item.currency))
        violations.add(`${pointer}/currency`, 'must be a 3-letter ISO 4217 code such as EUR');
      if (item.addresses) checkAddressSync(item.addresses, pointer, violations);
    }
    violations.throwIfAny();

    const now = deps.clock.now();
    const outcomes: SyncOutcome[] = [];
    for (const item of items) {
      const current = existing.get(item.supplierNumber);
      if (item.delete) {
        if (current) await tx.suppliers.delete(brandId, current.id);
        outcomes.push({ number: item.supplierNumber, id: current?.id ?? null, action: current ? 'deleted' : 'absent' });
        continue;
      }
      const id = current?.id ?? (await tx.ids.next('suppliers'))[0]!;
      const base: Supplier = current ?? {
        id,
        brandId,
        supplierNumber: item.supplierNumber,
        name: '',
        currency: '',
        active: true,
        email: null,
        addresses: [],
        createdAt: now,
        updatedAt: now,
      };
      const next: Supplier = {
        ...base,
        name: item.name?.trim() ?? base.name,
        currency: item.currency ?? base.currency,
        active: item.active ?? base.active,
        email: item.email !== undefined ? item.email : base.email,
        addresses: item.addresses
          ? await numberNewAddresses(tx.ids, 'supplier_addresses', applyAddressSync(base.addresses, item.addresses))
          : base.addresses,
      };
      const changed = !current || !sameData({ ...next, updatedAt: '' }, { ...current, updatedAt: '' });
      if (changed) await tx.suppliers.save({ ...next, updatedAt: now });
      outcomes.push({
        number: item.supplierNumber,
        id,
        action: current ? (changed ? 'updated' : 'unchanged') : 'created',
      });
    }
    return outcomes;
  });
}
