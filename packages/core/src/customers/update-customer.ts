import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer } from './customer.entities';
import {
  CustomerFields,
  applyCustomerFields,
  checkCustomerFields,
  checkCustomerNumber,
  customerChanged,
  ensureCustomerNumberFree,
  resolveCustomerReferences,
} from './customer-rules';

/** What `PATCH /v10/customers/{id}` may change: the number and the fields of a sync item; left out keeps its value. */
export interface CustomerChanges extends CustomerFields {
  customerNumber?: string;
}

type UpdateCustomerRepositories = Pick<
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
 * Changes the fields sent of one customer, by the rules a customer sync applies to an existing
 * one. The number may change too (unlike in the sync, which matches by it), but not to one another
 * customer of the brand holds (`duplicate`, naming `/customer_number`). A customer of another
 * brand is `not_found`, exactly like a missing one. Announces `customer.updated` in the same
 * transaction when something changed; a change to the values already stored writes nothing,
 * announces nothing and keeps `updatedAt`.
 *
 * @example
 * const customer = await updateCustomer({ uow, clock }, { brandId, id: 42, changes: { active: false } });
 */
export async function updateCustomer(
  deps: { uow: UnitOfWork<UpdateCustomerRepositories>; clock: Clock },
  input: { brandId: number; id: number; changes: CustomerChanges },
): Promise<Customer> {
  const { brandId, changes } = input;
  return deps.uow.run(async (tx) => {
    const current = await tx.customers.findById(brandId, input.id);
    if (!current) throw DomainError.notFound('customer', input.id);
    const violations = new ViolationList();
    const renumbered = changes.customerNumber !== undefined && changes.customerNumber !== current.customerNumber;
    if (changes.customerNumber !== undefined) checkCustomerNumber(changes.customerNumber, '', violations);
    checkCustomerFields(changes, false, '', violations);
    const references = await resolveCustomerReferences(tx, brandId, [{ fields: changes, pointer: '' }], violations);
    violations.throwIfAny();
    if (renumbered) await ensureCustomerNumberFree(tx, brandId, changes.customerNumber!, current.id);

    const next = await applyCustomerFields(
      tx,
      renumbered ? { ...current, customerNumber: changes.customerNumber! } : current,
      changes,
      references,
    );
    if (!customerChanged(next, current)) return current;
    const now = deps.clock.now();
    const saved: Customer = { ...next, updatedAt: now };
    await tx.customers.save(saved);
    await recordEvents(tx, brandId, now, [{ type: 'customer.updated', object: saved }]);
    return saved;
  });
}
