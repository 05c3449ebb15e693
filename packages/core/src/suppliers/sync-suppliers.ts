import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { SyncOutcome } from '../shared/sync-outcome';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import {
  SupplierFields,
  applySupplierFields,
  blankSupplier,
  checkSupplierFields,
  checkSupplierNumber,
  supplierChanged,
} from './supplier-rules';

/** One item of `POST /production/suppliers/sync`, already of the right JSON types. Absent fields stay as they are. */
export interface SupplierSyncItem extends SupplierFields {
  supplierNumber: string;
  delete?: boolean;
}

type SyncSuppliersRepositories = Pick<
  Repositories,
  'events' | 'ids' | 'suppliers' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'
>;

/**
 * Creates, updates or deletes suppliers matched by supplier number; the whole request is
 * checked before anything is written, and a failed check names the item index and field. The
 * fields follow the same rules as `createSupplier` and `updateSupplier` (`supplier-rules.ts`).
 * Each supplier deleted is announced (`supplier.deleted`, in request order, with the supplier as
 * stored before) in the same transaction, so a copy kept from `GET` learns that it is gone;
 * creating or changing a supplier has no event type (DESIGN §10 names none).
 */
export async function syncSuppliers(
  deps: { uow: UnitOfWork<SyncSuppliersRepositories>; clock: Clock },
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
      checkSupplierNumber(item.supplierNumber, pointer, violations);
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
      checkSupplierFields(item, !current, pointer, violations);
    }
    violations.throwIfAny();

    const now = deps.clock.now();
    const outcomes: SyncOutcome[] = [];
    const events: NewDomainEvent<'supplier.deleted'>[] = [];
    for (const item of items) {
      const current = existing.get(item.supplierNumber);
      if (item.delete) {
        if (current) {
          await tx.suppliers.delete(brandId, current.id);
          events.push({ type: 'supplier.deleted', object: current });
        }
        outcomes.push({ number: item.supplierNumber, id: current?.id ?? null, action: current ? 'deleted' : 'absent' });
        continue;
      }
      const id = current?.id ?? (await tx.ids.next('suppliers'))[0]!;
      const next = await applySupplierFields(tx, current ?? blankSupplier(id, brandId, item.supplierNumber, now), item);
      const changed = !current || supplierChanged(next, current);
      if (changed) await tx.suppliers.save({ ...next, updatedAt: now });
      outcomes.push({
        number: item.supplierNumber,
        id,
        action: current ? (changed ? 'updated' : 'unchanged') : 'created',
      });
    }
    await recordEvents(tx, brandId, now, events);
    return outcomes;
  });
}
