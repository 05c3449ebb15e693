import { AccessTokensTable, ApiAppsTable, BrandsTable, RequestLogsTable, UsersTable } from './tables/identity.tables';
import {
  DocumentSequencesTable,
  IdCountersTable,
  RateLimitCountersTable,
  RowCountsTable,
  SharedSecretsTable,
} from './tables/infrastructure.tables';
import {
  CategoriesTable,
  CollectionsTable,
  CostPriceSetsTable,
  DropsTable,
  ProductCategoriesTable,
  ProductImagesTable,
  ProductImageVariantsTable,
  ProductLocalesTable,
  ProductsTable,
  ProductSuppliersTable,
  ProductTranslationsTable,
  SubbrandsTable,
  VariantCostPricesTable,
  VariantDropsTable,
  VariantPricesTable,
  VariantsTable,
} from './tables/catalog.tables';
import { InventoryLocationsTable, StockBalancesTable, StockMovementsTable } from './tables/inventory.tables';
import {
  AccountingEntriesTable,
  BrandSettingsTable,
  CreditNoteLinesTable,
  CreditNotesTable,
  DocumentExportsTable,
  InvoiceLinesTable,
  InvoicesTable,
  OrderChannelsTable,
  OrderLinesTable,
  OrdersTable,
  ShipmentLinesTable,
  ShipmentsTable,
  TimelineEventsTable,
} from './tables/orders.tables';
import {
  DeliveryNoteLinesTable,
  DeliveryNotesTable,
  ProductionOrderLinesTable,
  ProductionOrdersTable,
} from './tables/production.tables';
import {
  AddressesTable,
  CustomerGroupsTable,
  CustomersTable,
  PaymentTermsTable,
  SuppliersTable,
} from './tables/partner.tables';
import {
  AlertsTable,
  ClaimCausesTable,
  ReturnLinesTable,
  ReturnPortalsTable,
  ReturnsTable,
} from './tables/returns.tables';

/** The whole schema as Kysely sees it; one schema for both dialects. */
export interface Database {
  brands: BrandsTable;
  users: UsersTable;
  api_apps: ApiAppsTable;
  access_tokens: AccessTokensTable;
  request_logs: RequestLogsTable;
  customers: CustomersTable;
  customer_addresses: AddressesTable;
  customer_groups: CustomerGroupsTable;
  payment_terms: PaymentTermsTable;
  suppliers: SuppliersTable;
  supplier_addresses: AddressesTable;
  id_counters: IdCountersTable;
  document_sequences: DocumentSequencesTable;
  rate_limit_counters: RateLimitCountersTable;
  shared_secrets: SharedSecretsTable;
  row_counts: RowCountsTable;
  products: ProductsTable;
  variants: VariantsTable;
  variant_prices: VariantPricesTable;
  cost_price_sets: CostPriceSetsTable;
  variant_cost_prices: VariantCostPricesTable;
  product_suppliers: ProductSuppliersTable;
  product_locales: ProductLocalesTable;
  product_translations: ProductTranslationsTable;
  categories: CategoriesTable;
  product_categories: ProductCategoriesTable;
  collections: CollectionsTable;
  subbrands: SubbrandsTable;
  drops: DropsTable;
  variant_drops: VariantDropsTable;
  product_images: ProductImagesTable;
  product_image_variants: ProductImageVariantsTable;
  inventory_locations: InventoryLocationsTable;
  stock_balances: StockBalancesTable;
  stock_movements: StockMovementsTable;
  brand_settings: BrandSettingsTable;
  order_channels: OrderChannelsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  shipments: ShipmentsTable;
  shipment_lines: ShipmentLinesTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  credit_notes: CreditNotesTable;
  credit_note_lines: CreditNoteLinesTable;
  accounting_entries: AccountingEntriesTable;
  document_exports: DocumentExportsTable;
  timeline_events: TimelineEventsTable;
  production_orders: ProductionOrdersTable;
  production_order_lines: ProductionOrderLinesTable;
  delivery_notes: DeliveryNotesTable;
  delivery_note_lines: DeliveryNoteLinesTable;
  claim_causes: ClaimCausesTable;
  return_portals: ReturnPortalsTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  alerts: AlertsTable;
}
