import { Address } from '../addresses/address';
import { BulkOperation } from '../bulk-operations/bulk-operation.entities';
import { Customer, CustomerGroup, PaymentTerms } from '../customers/customer.entities';
import { AccessToken, ApiApp, Brand, User } from '../identity/identity.entities';
import { InventoryLocation } from '../inventory/inventory.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Supplier } from '../suppliers/supplier.entities';
import { insertBrand } from './contract-support';

/** An address as a builder takes it: its id is drawn when the customer or supplier is saved. */
export type AddressDraft = Omit<Address, 'id'>;

/** A complete address, Danish unless `overrides` say otherwise. */
export function anAddress(overrides: Partial<AddressDraft> = {}): AddressDraft {
  return {
    title: 'Head office',
    name: 'Receiving',
    address: 'Strandgade 1',
    address2: null,
    zip: '1401',
    city: 'København',
    region: null,
    country: 'DK',
    remoteErpId: null,
    ...overrides,
  };
}

/** The numbers ascending (a copy). */
export const ascending = (values: number[]): number[] => [...values].sort((a, b) => a - b);

/** The items by id ascending (a copy): for lookups whose order the ports do not promise. */
export const byId = <T extends { id: number }>(items: T[]): T[] => [...items].sort((a, b) => a.id - b.id);

/** What a new customer may be given; the rest is filled in, and address ids are drawn. */
export type CustomerFields = Partial<Omit<Customer, 'id' | 'brandId' | 'addresses'>> & { addresses?: AddressDraft[] };

/** What a new supplier may be given; the rest is filled in, and address ids are drawn. */
export type SupplierFields = Partial<Omit<Supplier, 'id' | 'brandId' | 'addresses'>> & { addresses?: AddressDraft[] };

/**
 * The builders the contract suites share, over a suite's storage (`uow`, as `useContractStorage`
 * answers it): each saves one new row through the repositories, its id drawn from the storage,
 * made and changed at `at`, and returns it. Every suite makes its own brands with `aBrand`, so no
 * test depends on another or on the database being empty.
 *
 * @example
 * const uow = useContractStorage(open);
 * const { aBrand, aCustomer } = contractBuilders(uow, { at: T0, brandLabel: 'Orders brand' });
 */
export function contractBuilders(uow: () => UnitOfWork, options: { at: string; brandLabel?: string }) {
  const { at, brandLabel = 'Brand' } = options;

  /** A new brand named `<label> <id>`. */
  const aBrand = (label = brandLabel): Promise<Brand> => insertBrand(uow(), label, at);

  async function aUser(brandId: number): Promise<User> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('users');
      const user: User = { id: id!, brandId, email: `user${id}@brand.example`, name: `User ${id}`, createdAt: at };
      await tx.users.insert(user);
      return user;
    });
  }

  async function anApp(brandId: number, internalCode: string | null = null): Promise<ApiApp> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('api_apps');
      const app: ApiApp = {
        id: id!,
        brandId,
        clientId: `app_contract_${id}_${Math.random().toString(36).slice(2)}`,
        name: `App ${id}`,
        appKeyHash: `app-key-hash-${id}`,
        internalCode,
        createdAt: at,
      };
      await tx.apiApps.insert(app);
      return app;
    });
  }

  async function aToken(user: User, app: ApiApp, overrides: Partial<AccessToken> = {}): Promise<AccessToken> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('access_tokens');
      const token: AccessToken = {
        id: id!,
        brandId: user.brandId,
        userId: user.id,
        appId: app.id,
        tokenHash: `token-hash-${id}-${Math.random().toString(36).slice(2)}`,
        scopes: ['customers:read', 'orders:write', 'catalog:read'],
        expiresAt: '2027-01-01T00:00:00.000Z',
        revokedAt: null,
        createdAt: at,
        ...overrides,
      };
      await tx.accessTokens.insert(token);
      return token;
    });
  }

  async function aCustomerGroup(brandId: number, code: string): Promise<CustomerGroup> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('customer_groups');
      const group: CustomerGroup = { id: id!, brandId, code, name: `Group ${code}`, createdAt: at, updatedAt: at };
      await tx.customerGroups.insert(group);
      return group;
    });
  }

  async function somePaymentTerms(brandId: number, code: string, days = 30): Promise<PaymentTerms> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('payment_terms');
      const terms: PaymentTerms = { id: id!, brandId, code, name: `Net ${days}`, days, createdAt: at, updatedAt: at };
      await tx.paymentTerms.insert(terms);
      return terms;
    });
  }

  /** Draws ids for the customer and its addresses inside `tx` and saves it. */
  async function saveNewCustomer(
    tx: Pick<Repositories, 'customers' | 'ids'>,
    brandId: number,
    fields: CustomerFields = {},
  ): Promise<Customer> {
    const { addresses = [], ...rest } = fields;
    const [id] = await tx.ids.next('customers');
    const addressIds = addresses.length > 0 ? await tx.ids.next('customer_addresses', addresses.length) : [];
    const customer: Customer = {
      id: id!,
      brandId,
      customerNumber: `C-${id}`,
      name: `Customer ${id}`,
      currency: 'EUR',
      discountBasisPoints: 0,
      active: true,
      customerGroupId: null,
      paymentTermsId: null,
      email: null,
      telephone: null,
      vatNumber: null,
      eoriNumber: null,
      createdAt: at,
      updatedAt: at,
      ...rest,
      addresses: addresses.map((a, i) => ({ ...a, id: addressIds[i]! })),
    };
    await tx.customers.save(customer);
    return customer;
  }

  async function aCustomer(brandId: number, fields: CustomerFields = {}): Promise<Customer> {
    return uow().run((tx) => saveNewCustomer(tx, brandId, fields));
  }

  async function aSupplier(brandId: number, fields: SupplierFields = {}): Promise<Supplier> {
    return uow().run(async (tx) => {
      const { addresses = [], ...rest } = fields;
      const [id] = await tx.ids.next('suppliers');
      const addressIds = addresses.length > 0 ? await tx.ids.next('supplier_addresses', addresses.length) : [];
      const supplier: Supplier = {
        id: id!,
        brandId,
        supplierNumber: `S-${id}`,
        name: `Supplier ${id}`,
        currency: 'EUR',
        active: true,
        email: null,
        createdAt: at,
        updatedAt: at,
        ...rest,
        addresses: addresses.map((a, i) => ({ ...a, id: addressIds[i]! })),
      };
      await tx.suppliers.save(supplier);
      return supplier;
    });
  }

  async function newAddressIds(kind: 'customer_addresses' | 'supplier_addresses', count: number): Promise<number[]> {
    return uow().run((tx) => tx.ids.next(kind, count));
  }

  /** A new inventory location, not the default one unless `fields` say so. */
  async function aLocation(
    brandId: number,
    fields: Partial<Omit<InventoryLocation, 'id' | 'brandId'>> = {},
  ): Promise<InventoryLocation> {
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('inventory_locations');
      const location: InventoryLocation = {
        id: id!,
        brandId,
        name: `Location ${id}`,
        isDefault: false,
        createdAt: at,
        updatedAt: at,
        ...fields,
      };
      await tx.inventoryLocations.insert(location);
      return location;
    });
  }

  /**
   * A customers bulk operation of `lines` lines (1..n, `{"n":…}`), created at `createdAt` (the
   * builders' instant by default) and queued unless `receiving`; answers its id.
   */
  async function aBulkOperation(
    brandId: number,
    options: { lines?: number; createdAt?: string; receiving?: boolean } = {},
  ): Promise<number> {
    const lines = options.lines ?? 0;
    return uow().run(async (tx) => {
      const [id] = await tx.ids.next('bulk_operations');
      const operation: BulkOperation = {
        id: id!,
        brandId,
        type: 'customers.sync',
        status: 'receiving',
        userId: null,
        totalLines: 0,
        processedLines: 0,
        failedLines: 0,
        createdAt: options.createdAt ?? at,
        startedAt: null,
        finishedAt: null,
        error: null,
      };
      await tx.bulkOperations.insert(operation);
      if (lines > 0)
        await tx.bulkOperations.appendLines(
          brandId,
          id!,
          Array.from({ length: lines }, (_, i) => ({ line: i + 1, text: `{"n":${i + 1}}` })),
        );
      if (!options.receiving) await tx.bulkOperations.queue(brandId, id!, lines);
      return id!;
    });
  }

  return {
    aBulkOperation,
    aBrand,
    aUser,
    anApp,
    aToken,
    aCustomerGroup,
    somePaymentTerms,
    saveNewCustomer,
    aCustomer,
    aSupplier,
    newAddressIds,
    aLocation,
  };
}
