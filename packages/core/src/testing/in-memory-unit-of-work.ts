import { AccessToken, ApiApp, Brand, RequestLogEntry, User } from '../identity/identity.entities';
import { Customer, CustomerGroup, PaymentTerms } from '../customers/customer.entities';
import { listInMemory } from '../listing/in-memory-list';
import {
  customerGroupListDefinition,
  customerListDefinition,
  paymentTermsListDefinition,
} from '../customers/customer.list-definitions';
import { supplierListDefinition } from '../suppliers/supplier.list-definition';
import { Supplier } from '../suppliers/supplier.entities';
import { IdGenerator } from '../shared/sequences.port';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.port';
import { CatalogState, catalogRepositories, emptyCatalogState } from './in-memory-catalog';
import { OrdersState, emptyOrdersState, ordersRepositories } from './in-memory-orders';
import { ReturnsState, emptyReturnsState, returnsRepositories } from './in-memory-returns';
import { ProductionState, emptyProductionState, productionRepositories } from './in-memory-production';
import { customerDependents, productDependents, supplierDependents, variantDependents } from './in-memory-dependents';

interface MemoryState extends CatalogState, OrdersState, ReturnsState, ProductionState {
  counters: Record<string, number>;
  documentNumbers: Record<string, number>;
  brands: Brand[];
  users: User[];
  apiApps: ApiApp[];
  accessTokens: AccessToken[];
  requestLogs: RequestLogEntry[];
  customers: Customer[];
  customerGroups: CustomerGroup[];
  paymentTerms: PaymentTerms[];
  suppliers: Supplier[];
}

function emptyState(): MemoryState {
  return {
    counters: {},
    documentNumbers: {},
    brands: [],
    users: [],
    apiApps: [],
    accessTokens: [],
    requestLogs: [],
    customers: [],
    customerGroups: [],
    paymentTerms: [],
    suppliers: [],
    ...emptyCatalogState(),
    ...emptyOrdersState(),
    ...emptyReturnsState(),
    ...emptyProductionState(),
  };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Inserts or replaces by id, keeping a copy so callers cannot mutate stored state. */
function put<T extends { id: number }>(rows: T[], row: T): void {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index >= 0) rows[index] = clone(row);
  else rows.push(clone(row));
}

/** What the SQL adapters' foreign keys do (translated to `has_dependents`): a referred-to row stays. */
function refuseIfReferred(dependents: string[], what: string): void {
  if (dependents.length > 0)
    throw new DomainError('has_dependents', `${what} still has dependent data (${dependents.join(', ')})`);
}

function bind(state: () => MemoryState): Repositories {
  const s = state;
  const ids: IdGenerator = {
    async next(kind, count = 1) {
      const start = (s().counters[kind] ?? 0) + 1;
      s().counters[kind] = start + count - 1;
      return Array.from({ length: count }, (_, i) => start + i);
    },
  };
  const catalog = catalogRepositories(s, ids);
  return {
    ids,
    documentNumbers: {
      async next(brandId, kind) {
        const key = `${brandId}:${kind}`;
        const next = (s().documentNumbers[key] ?? 0) + 1;
        s().documentNumbers[key] = next;
        return next;
      },
    },
    brands: {
      async insert(brand) {
        put(s().brands, brand);
      },
      async findById(id) {
        return clone(s().brands.find((b) => b.id === id) ?? null);
      },
      async findFirst() {
        return clone([...s().brands].sort((a, b) => a.id - b.id)[0] ?? null);
      },
    },
    users: {
      async insert(user) {
        put(s().users, user);
      },
      async findById(id) {
        return clone(s().users.find((u) => u.id === id) ?? null);
      },
    },
    apiApps: {
      async insert(app) {
        put(s().apiApps, app);
      },
      async findById(id) {
        return clone(s().apiApps.find((a) => a.id === id) ?? null);
      },
    },
    accessTokens: {
      async insert(token) {
        put(s().accessTokens, token);
      },
      async findByHash(hash) {
        return clone(s().accessTokens.find((t) => t.tokenHash === hash) ?? null);
      },
      async findById(id) {
        return clone(s().accessTokens.find((t) => t.id === id) ?? null);
      },
      async revoke(id, at) {
        const token = s().accessTokens.find((t) => t.id === id);
        if (!token || token.revokedAt) return false;
        token.revokedAt = at;
        return true;
      },
    },
    requestLogs: {
      async append(entries) {
        s().requestLogs.push(...clone(entries));
      },
      async listForUser(brandId, userId, limit) {
        return clone(
          s()
            .requestLogs.filter((e) => e.brandId === brandId && e.userId === userId)
            .reverse()
            .slice(0, limit),
        );
      },
    },
    customers: {
      async findByNumbers(brandId, numbers) {
        return clone(s().customers.filter((c) => c.brandId === brandId && numbers.includes(c.customerNumber)));
      },
      async findById(brandId, id) {
        return clone(s().customers.find((c) => c.brandId === brandId && c.id === id) ?? null);
      },
      async save(customer) {
        put(s().customers, customer);
      },
      async delete(brandId, id) {
        refuseIfReferred(customerDependents(s(), brandId, id), `customer ${id}`);
        s().customers = s().customers.filter((c) => !(c.brandId === brandId && c.id === id));
      },
      async dependentsOf(brandId, id) {
        return customerDependents(s(), brandId, id);
      },
      async list(brandId, query) {
        const { rows, total } = listInMemory(
          customerListDefinition,
          query,
          s().customers.filter((c) => c.brandId === brandId),
        );
        const withAddresses = query.includes.includes('addresses');
        return { rows: clone(rows).map((c) => (withAddresses ? c : { ...c, addresses: [] })), total };
      },
    },
    customerGroups: {
      async insert(group) {
        put(s().customerGroups, group);
      },
      async findByIds(brandId, ids) {
        return clone(s().customerGroups.filter((g) => g.brandId === brandId && ids.includes(g.id)));
      },
      async findByCodes(brandId, codes) {
        return clone(s().customerGroups.filter((g) => g.brandId === brandId && codes.includes(g.code)));
      },
      async list(brandId, query) {
        const { rows, total } = listInMemory(
          customerGroupListDefinition,
          query,
          s().customerGroups.filter((g) => g.brandId === brandId),
        );
        return { rows: clone(rows), total };
      },
    },
    paymentTerms: {
      async insert(terms) {
        put(s().paymentTerms, terms);
      },
      async findByIds(brandId, ids) {
        return clone(s().paymentTerms.filter((t) => t.brandId === brandId && ids.includes(t.id)));
      },
      async findByCodes(brandId, codes) {
        return clone(s().paymentTerms.filter((t) => t.brandId === brandId && codes.includes(t.code)));
      },
      async list(brandId, query) {
        const { rows, total } = listInMemory(
          paymentTermsListDefinition,
          query,
          s().paymentTerms.filter((t) => t.brandId === brandId),
        );
        return { rows: clone(rows), total };
      },
    },
    suppliers: {
      async findByNumbers(brandId, numbers) {
        return clone(s().suppliers.filter((x) => x.brandId === brandId && numbers.includes(x.supplierNumber)));
      },
      async findById(brandId, id) {
        return clone(s().suppliers.find((x) => x.brandId === brandId && x.id === id) ?? null);
      },
      async save(supplier) {
        put(s().suppliers, supplier);
      },
      async delete(brandId, id) {
        refuseIfReferred(supplierDependents(s(), brandId, id), `supplier ${id}`);
        s().suppliers = s().suppliers.filter((x) => !(x.brandId === brandId && x.id === id));
      },
      async dependentsOf(brandId, id) {
        return supplierDependents(s(), brandId, id);
      },
      async list(brandId, query) {
        const { rows, total } = listInMemory(
          supplierListDefinition,
          query,
          s().suppliers.filter((x) => x.brandId === brandId),
        );
        const withAddresses = query.includes.includes('addresses');
        return { rows: clone(rows).map((x) => (withAddresses ? x : { ...x, addresses: [] })), total };
      },
    },
    ...catalog,
    products: {
      ...catalog.products,
      // The catalog's own store cannot see the documents; here the whole state is at hand.
      dependentsOfProduct: async (brandId, productId) => productDependents(s(), brandId, productId),
      dependentsOfVariant: async (brandId, variantId) => variantDependents(s(), brandId, variantId),
      deleteProduct: async (brandId, productId) => {
        refuseIfReferred(productDependents(s(), brandId, productId), `product ${productId}`);
        await catalog.products.deleteProduct(brandId, productId);
      },
      deleteVariant: async (brandId, variantId) => {
        refuseIfReferred(variantDependents(s(), brandId, variantId), `variant ${variantId}`);
        await catalog.products.deleteVariant(brandId, variantId);
      },
    },
    ...ordersRepositories(s, ids),
    ...returnsRepositories(s),
    ...productionRepositories(s),
  };
}

/**
 * The ports in memory, for tests of the core and of code embedding it. Transactions are
 * serialised and work on a copy of the state that replaces the original only on success, so a
 * failed transaction leaves nothing behind, like the SQL adapters.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  private state: MemoryState = emptyState();
  private queue: Promise<unknown> = Promise.resolve();

  async run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      const draft = clone(this.state);
      const value = await work(bind(() => draft));
      this.state = draft;
      return value;
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  async read<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return work(bind(() => this.state));
  }
}
