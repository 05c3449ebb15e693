import { AddressSync, applyAddressSync, checkAddressSync } from '../addresses/address';
import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { isCurrencyCode } from '../shared/codes';
import { PERCENT_SCALE, parseDecimal } from '../shared/decimal';
import { ViolationList } from '../shared/errors';
import { IdOrCode, resolveReferences } from '../shared/reference';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer } from './customer.entities';
import { numberNewAddresses, sameData, SyncOutcome } from '../shared/sync-outcome';

/** One item of `POST /customers/sync`, already of the right JSON types. Absent fields stay as they are. */
export interface CustomerSyncItem {
  customerNumber: string;
  name?: string;
  currency?: string;
  /** 0 to 100, at most 2 decimals. */
  discountPercentage?: number;
  active?: boolean;
  email?: string | null;
  telephone?: string | null;
  vatNumber?: string | null;
  eoriNumber?: string | null;
  /** `null` clears the terms. */
  paymentTerms?: IdOrCode | null;
  customerGroup?: IdOrCode | null;
  addresses?: AddressSync;
  delete?: boolean;
}

type SyncCustomersRepositories = Pick<
  Repositories,
  'customerGroups' | 'customers' | 'events' | 'ids' | 'paymentTerms' | 'webhookDeliveries' | 'webhookEndpoints'
>;

/**
 * Creates, updates or deletes customers matched by customer number. The whole request is
 * checked first (and inside the same transaction as the writes), so an invalid item leaves
 * nothing of the request written; each problem names the item index and field. Each customer
 * created or changed is announced (`customer.created` / `customer.updated`, in request order, with
 * the customer as saved) in the same transaction; an unchanged item announces nothing, and
 * deletes have no event type.
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
      if (item.customerNumber.trim() === '') violations.add(`${pointer}/customer_number`, 'must not be empty');
      const current = existing.get(item.customerNumber);
      if (item.delete) return;
      if (!current && (item.name === undefined || item.name.trim() === ''))
        violations.add(`${pointer}/name`, 'is required for a new customer');
      if (!current && item.currency === undefined)
        violations.add(`${pointer}/currency`, 'is required for a new customer');
      if (item.currency !== undefined && !isCurrencyCode(item.currency))
        violations.add(`${pointer}/currency`, 'must be a 3-letter ISO 4217 code such as EUR');
      if (item.discountPercentage !== undefined) {
        const basisPoints = parseDecimal(item.discountPercentage, PERCENT_SCALE);
        if (basisPoints === null || basisPoints < 0 || basisPoints > 100_00)
          violations.add(`${pointer}/discount_percentage`, 'must be from 0 to 100 with at most 2 decimals');
      }
      if (item.addresses) checkAddressSync(item.addresses, pointer, violations);
    });

    const termsRefs = items.flatMap((item, i) =>
      item.paymentTerms && !item.delete ? [{ ref: item.paymentTerms, pointer: `/customers/${i}/payment_terms` }] : [],
    );
    const groupRefs = items.flatMap((item, i) =>
      item.customerGroup && !item.delete
        ? [{ ref: item.customerGroup, pointer: `/customers/${i}/customer_group` }]
        : [],
    );
    const terms = await resolveReferences(
      termsRefs,
      'payment terms',
      {
        byIds: (ids) => tx.paymentTerms.findByIds(brandId, ids),
        byCodes: (codes) => tx.paymentTerms.findByCodes(brandId, codes),
      },
      violations,
    );
    const groups = await resolveReferences(
      groupRefs,
      'customer group',
      {
        byIds: (ids) => tx.customerGroups.findByIds(brandId, ids),
        byCodes: (codes) => tx.customerGroups.findByCodes(brandId, codes),
      },
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
    const events: NewDomainEvent<'customer.created' | 'customer.updated'>[] = [];
    for (const item of items) {
      const current = existing.get(item.customerNumber);
      if (item.delete) {
        if (current) await tx.customers.delete(brandId, current.id);
        outcomes.push({ number: item.customerNumber, id: current?.id ?? null, action: current ? 'deleted' : 'absent' });
        continue;
      }
      const id = current?.id ?? (await tx.ids.next('customers'))[0]!;
      const base: Customer = current ?? {
        id,
        brandId,
        customerNumber: item.customerNumber,
        name: '',
        currency: '',
        discountBasisPoints: 0,
        active: true,
        customerGroupId: null,
        paymentTermsId: null,
        email: null,
        telephone: null,
        vatNumber: null,
        eoriNumber: null,
        addresses: [],
        createdAt: now,
        updatedAt: now,
      };
      const next: Customer = {
        ...base,
        name: item.name?.trim() ?? base.name,
        currency: item.currency ?? base.currency,
        discountBasisPoints:
          item.discountPercentage !== undefined
            ? parseDecimal(item.discountPercentage, PERCENT_SCALE)!
            : base.discountBasisPoints,
        active: item.active ?? base.active,
        email: item.email !== undefined ? item.email : base.email,
        telephone: item.telephone !== undefined ? item.telephone : base.telephone,
        vatNumber: item.vatNumber !== undefined ? item.vatNumber : base.vatNumber,
        eoriNumber: item.eoriNumber !== undefined ? item.eoriNumber : base.eoriNumber,
        paymentTermsId:
          item.paymentTerms === null
            ? null
            : item.paymentTerms
              ? terms.get(item.paymentTerms)!.id
              : base.paymentTermsId,
        customerGroupId:
          item.customerGroup === null
            ? null
            : item.customerGroup
              ? groups.get(item.customerGroup)!.id
              : base.customerGroupId,
        addresses: item.addresses
          ? await numberNewAddresses(tx.ids, 'customer_addresses', applyAddressSync(base.addresses, item.addresses))
          : base.addresses,
      };
      const changed = !current || !sameData({ ...next, updatedAt: '' }, { ...current, updatedAt: '' });
      if (changed) {
        const saved: Customer = { ...next, updatedAt: now };
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
