import { CustomerGroupRepository, CustomerRepository, PaymentTermsRepository } from '../customers/customer.ports';
import {
  AccessTokenRepository,
  ApiAppRepository,
  BrandRepository,
  RequestLogRepository,
  UserRepository,
} from '../identity/identity.ports';
import { SupplierRepository } from '../suppliers/supplier.ports';
import {
  CategoryRepository,
  CollectionRepository,
  CostPriceSetRepository,
  DropRepository,
  ProductImageRepository,
  ProductLocaleRepository,
  ProductRepository,
  SubbrandRepository,
} from '../catalog/catalog.ports';
import { InventoryLocationRepository, StockRepository } from '../inventory/inventory.ports';
import { DocumentNumberSequence, IdGenerator } from './sequences.port';
import { BrandSettingsRepository } from '../settings/settings.ports';
import { ExportMarkRepository, TimelineRepository } from '../documents/document.ports';
import { OrderChannelRepository, OrderRepository } from '../orders/order.ports';
import { ShipmentRepository } from '../fulfilment/shipment.ports';
import { AccountingEntryRepository, CreditNoteRepository, InvoiceRepository } from '../finance/finance.ports';
import { DeliveryNoteRepository, ProductionOrderRepository } from '../production/production.ports';
import {
  AlertRepository,
  ClaimCauseRepository,
  ReturnPortalRepository,
  ReturnRepository,
} from '../returns/return.ports';

/** Every repository, bound to one transaction (or, in `read`, to a plain connection). */
export interface Repositories {
  ids: IdGenerator;
  documentNumbers: DocumentNumberSequence;
  brands: BrandRepository;
  users: UserRepository;
  apiApps: ApiAppRepository;
  accessTokens: AccessTokenRepository;
  requestLogs: RequestLogRepository;
  customers: CustomerRepository;
  customerGroups: CustomerGroupRepository;
  paymentTerms: PaymentTermsRepository;
  suppliers: SupplierRepository;
  products: ProductRepository;
  categories: CategoryRepository;
  collections: CollectionRepository;
  subbrands: SubbrandRepository;
  drops: DropRepository;
  costPriceSets: CostPriceSetRepository;
  productLocales: ProductLocaleRepository;
  productImages: ProductImageRepository;
  inventoryLocations: InventoryLocationRepository;
  stock: StockRepository;
  settings: BrandSettingsRepository;
  exportMarks: ExportMarkRepository;
  timeline: TimelineRepository;
  orderChannels: OrderChannelRepository;
  orders: OrderRepository;
  shipments: ShipmentRepository;
  invoices: InvoiceRepository;
  creditNotes: CreditNoteRepository;
  accountingEntries: AccountingEntryRepository;
  productionOrders: ProductionOrderRepository;
  deliveryNotes: DeliveryNoteRepository;
  returns: ReturnRepository;
  claimCauses: ClaimCauseRepository;
  returnPortals: ReturnPortalRepository;
  alerts: AlertRepository;
}

/**
 * The one transaction boundary. `run` opens a transaction, hands every repository bound to it
 * to `work`, commits when it resolves and rolls back when it throws. When storage reports a
 * write conflict (a unique key taken by a concurrent transaction, a serialization failure) the
 * adapter rolls back and runs `work` again, a few times, before giving up with
 * `concurrency_conflict`; `work` must therefore be safe to repeat (it is: it only uses `tx`).
 *
 * @example
 * const customer = await uow.run(async (tx) => {
 *   const [id] = await tx.ids.next('customers');
 *   await tx.customers.save({ ...draft, id });
 *   return draft;
 * });
 */
export interface UnitOfWork {
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Reads without opening a transaction (one consistent snapshot is not promised). */
  read<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>;
}
