import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SyncOutcome } from '../shared/sync-outcome';
import {
  CustomerFields,
  applyCustomerFields,
  blankCustomer,
  checkCustomerFields,
  checkCustomerNumber,
  customerChanged,
  resolveCustomerReferences,
} from './customer-rules';

/** One item of `POST /customers/sync`, already of the right JSON types. Absent fields stay as they are. */
export interface CustomerSyncItem extends CustomerFields {
  customerNumber: string;
  delete?: boolean;
}

type SyncCustomersRepositories = Pick<
  Repositories,
  | 'customerGroups'
  | 'customers'
  | 'events'
  | 'ids'
  | 'paymentTerms'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * Creates, updates or deletes customers matched by customer number. The whole request is
 * checked first (and inside the same transaction as the writes), so an invalid item leaves
 * nothing of the request written; each problem names the item index and field. Each customer
 * created, changed or deleted is announced (`customer.created` / `customer.updated` with the
 * customer as saved, `customer.deleted` with the customer as stored before, in request order) in
 * the same transaction; an unchanged item, or a delete of a customer that does not exist,
 * announces nothing. The fields follow the same rules as `createCustomer` and
 * `updateCustomer` (`customer-rules.ts`).
 */
export async function syncCustomers(
  deps: { uow: UnitOfWork<SyncCustomersRepositories>; clock: Clock },
  input: { brandId: number; customers: CustomerSyncItem[] },
): Promise<SyncOutcome[]> {
  const { brandId, customers: items } = input;
  return deps.uow.run(async (tx) => {
    const violations = new ViolationList();
    const existing = new Map(
      (await tx.customers.findByNumbers(brandId, [...new Set(items.map((i) => i.customerNumber))])).map((c) => [
        c.customerNumber,
        c,
      ]),
    );

    const firstIndex = new Map<string, number>();
    items.forEach((item, i) => {
      const pointer = `/customers/${i}`;
      const earlier = firstIndex.get(item.customerNumber);
      if (earlier !== undefined)
        violations.add(
          `${pointer}/customer_number`,
          `repeats customers[${earlier}]; send each customer once per request`,
        );
      else firstIndex.set(item.customerNumber, i);
      checkCustomerNumber(item.customerNumber, pointer, violations);
      if (item.delete) return;
      checkCustomerFields(item, !existing.has(item.customerNumber), pointer, violations);
    });

    const references = await resolveCustomerReferences(
      tx,
      brandId,
      items.flatMap((item, i) => (item.delete ? [] : [{ fields: item, pointer: `/customers/${i}` }])),
      violations,
    );

    for (const [i, item] of items.entries()) {
      const current = existing.get(item.customerNumber);
      if (item.delete && current) {
        const dependents = await tx.customers.dependentsOf(brandId, current.id);
        if (dependents.length > 0) {
          violations.add(
            `/customers/${i}/delete`,
            `cannot delete customer ${item.customerNumber}: it still has ${dependents.join(', ')}`,
          );
        }
      }
    }
    violations.throwIfAny();

    const now = deps.clock.now();
    const outcomes: SyncOutcome[] = [];
    const events: NewDomainEvent<'customer.created' | 'customer.updated' | 'customer.deleted'>[] = [];
    for (const item of items) {
      const current = existing.get(item.customerNumber);
      if (item.delete) {
        if (current) {
          await tx.customers.delete(brandId, current.id);
          events.push({ type: 'customer.deleted', object: current });
        }
        outcomes.push({ number: item.customerNumber, id: current?.id ?? null, action: current ? 'deleted' : 'absent' });
        continue;
      }
      const id = current?.id ?? (await tx.ids.next('customers'))[0]!;
      const base = current ?? blankCustomer(id, brandId, item.customerNumber, now);
      const next = await applyCustomerFields(tx, base, item, references);
      const changed = !current || customerChanged(next, current);
      if (changed) {
        const saved = { ...next, updatedAt: now };
        await tx.customers.save(saved);
        events.push({ type: current ? 'customer.updated' : 'customer.created', object: saved });
      }
      outcomes.push({
        number: item.customerNumber,
        id,
        action: current ? (changed ? 'updated' : 'unchanged') : 'created',
      });
    }
    await recordEvents(tx, brandId, now, events);
    return outcomes;
  });
}
