import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer } from './customer.entities';
import {
  CustomerFields,
  applyCustomerFields,
  blankCustomer,
  checkCustomerFields,
  checkCustomerNumber,
  ensureCustomerNumberFree,
  resolveCustomerReferences,
} from './customer-rules';

/** A new customer (`POST /v10/customers`): its number, and the fields of a sync item. */
export interface NewCustomer extends CustomerFields {
  customerNumber: string;
}

type CreateCustomerRepositories = Pick<
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
 * Adds one customer, by the rules a customer sync applies to a new one (name and currency
 * required, the same checks of every field). Unlike the sync it never updates: a customer number
 * the brand already uses is refused (`duplicate`, naming `/customer_number`), also when a
 * concurrent request took it a moment earlier. Announces `customer.created` in the same
 * transaction.
 *
 * @example
 * const customer = await createCustomer({ uow, clock }, { brandId, customer: { customerNumber: 'C-1', name: 'Anna', currency: 'EUR' } });
 */
export async function createCustomer(
  deps: { uow: UnitOfWork<CreateCustomerRepositories>; clock: Clock },
  input: { brandId: number; customer: NewCustomer },
): Promise<Customer> {
  const { brandId, customer: fields } = input;
  return deps.uow.run(async (tx) => {
    const violations = new ViolationList();
    checkCustomerNumber(fields.customerNumber, '', violations);
    checkCustomerFields(fields, true, '', violations);
    const references = await resolveCustomerReferences(tx, brandId, [{ fields, pointer: '' }], violations);
    violations.throwIfAny();
    await ensureCustomerNumberFree(tx, brandId, fields.customerNumber);

    const now = deps.clock.now();
    const [id] = await tx.ids.next('customers');
    const customer = await applyCustomerFields(
      tx,
      blankCustomer(id!, brandId, fields.customerNumber, now),
      fields,
      references,
    );
    await tx.customers.save(customer);
    await recordEvents(tx, brandId, now, [{ type: 'customer.created', object: customer }]);
    return customer;
  });
}
