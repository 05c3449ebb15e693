/**
 * @brand/core — the framework-free domain of the Brand commerce platform.
 *
 * Use cases are plain async functions taking their ports first (`{ uow, clock, hasher }`) and a
 * command second. Storage is reached only through `UnitOfWork` and the repositories it binds to
 * a transaction; `@brand/persistence-kysely` provides them for SQLite and Postgres, and
 * `@brand/core/testing` an in-memory set for tests.
 */

// Errors: the one error use cases throw (`DomainError`), its codes and the violations it lists.
export { DomainError, isDomainError, pointerToPath, ViolationList } from './shared/errors';
export type { ErrorCode, Violation } from './shared/errors';

// Clock and sequences: what time it is, integer ids and gap-free document numbers.
export { FixedClock, systemClock } from './shared/clock.ports';
export type { Clock } from './shared/clock.ports';
export type {
  DocumentKind,
  DocumentNumberSequence,
  EntityKind,
  EntityKinds,
  IdGenerator,
  SequenceRepositories,
} from './shared/sequences.ports';

// Unit of work: the transaction boundary every use case goes through, and the repositories it binds.
export type { Repositories, UnitOfWork } from './shared/unit-of-work.ports';
export type { TransactionEnd, TransactionEndRepositories } from './shared/transaction-end.ports';
export type { ResourceLockRepositories, ResourceLocks } from './shared/resource-locks.ports';
export { BeforeCommitSteps, NO_TRANSACTION, withStepsBeforeCommit } from './shared/before-commit-steps';
export { settleAll } from './shared/settle-all';
export { SharedTransaction, SharingUnitOfWork, TransactionMustRestart } from './shared/shared-transaction';
export type { AmbientContext } from './shared/shared-transaction';

// State machines: the transition tables behind every lifecycle (each module exports its own lifecycle).
export { defineStateMachine, StateMachine } from './shared/state-machine';
export type { TransitionTable } from './shared/state-machine';

// Amounts and references: decimals, money in minor units, id-or-code references and sync outcomes.
export { formatDecimal, MONEY_SCALE, parseDecimal, PERCENT_SCALE } from './shared/decimal';
export { divideRounded, lineTotal } from './shared/money';
export type { IdOrCode } from './shared/reference';
export type { SyncOutcome } from './shared/sync-outcome';

// Listing: the filter, sort and page vocabulary of every list use case, and the list definitions behind it.
export { DEFAULT_LIMIT, FILTER_OPERATORS, MAX_LIMIT, sortSignature } from './listing/list-query';
export type {
  FieldDefinition,
  FieldType,
  Filter,
  FilterGroup,
  FilterOperator,
  KeysetPosition,
  ListDefinition,
  ListQuery,
  ListRows,
  Page,
  Primitive,
  RawFilter,
  RawFilterGroup,
  RawListQuery,
  Sort,
  SortDirection,
} from './listing/list-query';
export { validateListQuery } from './listing/validate-list-query';
export type { DecodedCursor } from './listing/validate-list-query';
export { runList } from './listing/run-list';
export type { ListRequest } from './listing/run-list';

// Addresses: addresses of customers and suppliers and how a sync replaces or merges them.
export type { Address, AddressInput, AddressSync, AddressSyncKey, AddressSyncMode } from './addresses/address';

// Identity: brands, users, API apps, access tokens, scopes and the request log.
export type {
  AccessToken,
  ApiApp,
  Brand,
  OAuthClient,
  Principal,
  RecordedRequest,
  RequestLogEntry,
  RequestLogPosition,
  User,
  UserCredentials,
} from './identity/identity.entities';
export type {
  AccessTokenRepository,
  ApiAppRepository,
  BrandRepository,
  BrandRequestLogQuery,
  IdentityRepositories,
  LoginAttemptRepository,
  PasswordHasher,
  RequestLogRepository,
  SecretHasher,
  TokenVerifier,
  UserRepository,
} from './identity/identity.ports';
export { createApiApp } from './identity/create-api-app';
export type { CreateApiAppInput } from './identity/create-api-app';
export { createBrand } from './identity/create-brand';
export type { CreateBrandInput } from './identity/create-brand';
export { createUser } from './identity/create-user';
export type { CreateUserInput } from './identity/create-user';
export { issueAccessToken } from './identity/issue-access-token';
export type { IssueAccessTokenInput } from './identity/issue-access-token';
export { recordRequests } from './identity/record-requests';
export { revokeAccessToken } from './identity/revoke-access-token';
export { ALL_SCOPES, isScope, missingScopes } from './identity/scopes';
export type { Scope, ScopeArea } from './identity/scopes';
export { createStoredTokenVerifier } from './identity/verify-access-token';

// Log-in and OAuth clients: users' passwords and throttled log-in, apps as OAuth clients with redirect URIs and rotating keys (DESIGN §11).
export { logIn } from './identity/log-in';
export type { LogInInput } from './identity/log-in';
export { setUserPassword } from './identity/set-user-password';
export type { SetUserPasswordInput } from './identity/set-user-password';
export { DEFAULT_LOGIN_THROTTLE, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './identity/login-rules';
export type { LoginThrottlePolicy } from './identity/login-rules';
export { findOAuthClient } from './identity/find-oauth-client';
export { authenticateOAuthClient } from './identity/authenticate-oauth-client';
export { setRedirectUris } from './identity/set-redirect-uris';
export type { SetRedirectUrisInput } from './identity/set-redirect-uris';
export { listApiApps } from './identity/list-api-apps';
export { findApiApp } from './identity/find-api-app';
export { rotateApiAppKey } from './identity/rotate-api-app-key';
export type { RotateApiAppKeyInput } from './identity/rotate-api-app-key';
export { isRegisteredRedirectUri, MAX_REDIRECT_URIS, redirectUriProblem } from './identity/redirect-uris';

// Customers: customers, customer groups and payment terms.
export type { Customer, CustomerGroup, PaymentTerms } from './customers/customer.entities';
export type {
  CustomerGroupRepository,
  CustomerRepositories,
  CustomerRepository,
  PaymentTermsRepository,
} from './customers/customer.ports';
export {
  customerGroupListDefinition,
  customerListDefinition,
  discountPercentage,
  paymentTermsListDefinition,
} from './customers/customer.list-definitions';
export { createCustomer } from './customers/create-customer';
export type { NewCustomer } from './customers/create-customer';
export { createCustomerGroup } from './customers/create-customer-group';
export { createPaymentTerms } from './customers/create-payment-terms';
export type { CustomerFields } from './customers/customer-rules';
export { getCustomer } from './customers/get-customer';
export type { CustomerDetail } from './customers/get-customer';
export { listCustomerGroups } from './customers/list-customer-groups';
export { listCustomers } from './customers/list-customers';
export type { CustomerListResult } from './customers/list-customers';
export type { CustomerRelations } from './customers/customer-relations';
export { listPaymentTerms } from './customers/list-payment-terms';
export { syncCustomers } from './customers/sync-customers';
export type { CustomerSyncItem } from './customers/sync-customers';
export { updateCustomer } from './customers/update-customer';
export type { CustomerChanges } from './customers/update-customer';

// Suppliers: suppliers and their sync.
export type { Supplier } from './suppliers/supplier.entities';
export type { SupplierRepositories, SupplierRepository } from './suppliers/supplier.ports';
export { supplierListDefinition } from './suppliers/supplier.list-definitions';
export { createSupplier } from './suppliers/create-supplier';
export type { NewSupplier } from './suppliers/create-supplier';
export { getSupplier } from './suppliers/get-supplier';
export { listSuppliers } from './suppliers/list-suppliers';
export type { SupplierFields } from './suppliers/supplier-rules';
export { syncSuppliers } from './suppliers/sync-suppliers';
export type { SupplierSyncItem } from './suppliers/sync-suppliers';
export { updateSupplier } from './suppliers/update-supplier';
export type { SupplierChanges } from './suppliers/update-supplier';

// Catalog: products, variants, drops, locales, subbrands, product sync, single product and variant writes (the sync's rules, one item), and product images.
export type {
  Category,
  Collection,
  CostPriceSet,
  Drop,
  LeadTimeType,
  Meta,
  Product,
  ProductAggregate,
  ProductImage,
  ProductLocale,
  ProductSupplierLink,
  ProductTranslation,
  Subbrand,
  SyncMode,
  Variant,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
  WeightUnit,
} from './catalog/catalog.entities';
export type {
  CatalogRepositories,
  CategoryRepository,
  CollectionRepository,
  CostPriceSetRepository,
  DropRepository,
  ProductImageRepository,
  ProductLocaleRepository,
  ProductRepository,
  SaleableVariant,
  SubbrandRepository,
  VariantRef,
} from './catalog/catalog.ports';
export type { BlobStore, FetchedImage, ImageFetcher } from './catalog/image-storage.ports';
export {
  availableStockListDefinition,
  categoryListDefinition,
  collectionListDefinition,
  dropListDefinition,
  inventoryLocationListDefinition,
  legacyProductListDefinition,
  productListDefinition,
  variantListDefinition,
} from './catalog/catalog.list-definitions';
export type {
  DecimalInput,
  InventoryChangeInput,
  ProductCategoryInput,
  ProductSupplierInput,
  ProductSyncCommand,
  ProductSyncItem,
  ProductSyncOutcome,
  ProductTranslationInput,
  SyncAction,
  VariantCostPriceInput,
  VariantImageInput,
  VariantPriceInput,
  VariantSyncItem,
  VariantSyncOutcome,
} from './catalog/product-sync.input';
export { createDrop } from './catalog/create-drop';
export { createProductLocale } from './catalog/create-product-locale';
export { createSubbrand } from './catalog/create-subbrand';
export { getProduct } from './catalog/get-product';
export type { ProductDetail } from './catalog/product-detail';
export { getVariant } from './catalog/get-variant';
export type { VariantDetail } from './catalog/variant-detail';
export { listDrops } from './catalog/list-drops';
export { listProductLocales, productLocaleListDefinition } from './catalog/list-product-locales';
export { emptyCatalogRelations } from './catalog/catalog-relations';
export type { CatalogRelations, VariantRelations } from './catalog/catalog-relations';
export { listProducts } from './catalog/list-products';
export type { ProductListResult } from './catalog/list-products';
export { listVariants } from './catalog/list-variants';
export type { VariantListResult } from './catalog/list-variants';
export { MAX_PRODUCTS_PER_IMAGE_SYNC, syncProductImages } from './catalog/sync-product-images';
export type {
  ProductImageAction,
  ProductImagesSyncCommand,
  ProductImagesSyncDeps,
  ProductImagesSyncItem,
  ProductImagesSyncResult,
  ProductImageSyncInput,
  SkippedProductImage,
  SyncedProductImage,
} from './catalog/sync-product-images';
export { syncProducts } from './catalog/sync-products';
export type { SyncProductsDeps } from './catalog/sync-products';
export type {
  NewProductInput,
  NewVariantInput,
  ProductChanges,
  ProductWriteDeps,
  VariantChanges,
} from './catalog/product-writes';
export { createProduct } from './catalog/create-product';
export { updateProduct } from './catalog/update-product';
export { addVariant } from './catalog/add-variant';
export { updateVariant } from './catalog/update-variant';

// Catalog, legacy v1: categories, collections and the v1 product and variant endpoints.
export { createCategory } from './catalog/legacy/create-category';
export { COLLECTION_VISIBILITIES, createCollection } from './catalog/legacy/create-collection';
export type { CollectionVisibility, CreateCollectionInput } from './catalog/legacy/create-collection';
export { createLegacyProduct } from './catalog/legacy/create-legacy-product';
export type { CreateLegacyProductInput } from './catalog/legacy/create-legacy-product';
export { createLegacyVariant } from './catalog/legacy/create-legacy-variant';
export { deleteCategory } from './catalog/legacy/delete-category';
export { deleteLegacyProduct } from './catalog/legacy/delete-legacy-product';
export { deleteLegacyVariant } from './catalog/legacy/delete-legacy-variant';
export { getCategory } from './catalog/legacy/get-category';
export type { LegacyCategoryView } from './catalog/legacy/get-category';
export { getCollection } from './catalog/legacy/get-collection';
export { getLegacyProduct } from './catalog/legacy/get-legacy-product';
export type { LegacyCategoryRelations } from './catalog/legacy/legacy-category-view';
export {
  attributeNamesOf,
  legacyColliOf,
  legacyEanOf,
  legacyImageOf,
  legacyImagesOf,
  productAttributes,
  variantsInOrder,
} from './catalog/legacy/legacy-product-fields';
export type {
  LegacyProductRelations,
  LegacyProductView,
  LegacyStock,
  LegacyVariantView,
} from './catalog/legacy/legacy-product-view';
export type {
  LegacyPriceInput,
  LegacyProductChanges,
  LegacyProductFields,
  LegacyStockInput,
  LegacyVariantChanges,
  LegacyVariantInput,
} from './catalog/legacy/legacy-product.input';
export { listCategories } from './catalog/legacy/list-categories';
export type { LegacyCategoryListResult } from './catalog/legacy/list-categories';
export { listCollections } from './catalog/legacy/list-collections';
export { listLegacyProducts } from './catalog/legacy/list-legacy-products';
export type { LegacyProductListRequest, LegacyProductListResult } from './catalog/legacy/list-legacy-products';
export { updateCategory } from './catalog/legacy/update-category';
export { updateLegacyProduct } from './catalog/legacy/update-legacy-product';
export { updateLegacyVariant } from './catalog/legacy/update-legacy-variant';

// Inventory: inventory locations, the stock ledger and available stock.
export type {
  AppliedStock,
  AvailableStock,
  InventoryLocation,
  NewStockMovement,
  StockBalance,
  StockMovement,
  StockReason,
} from './inventory/inventory.entities';
export type { InventoryLocationRepository, InventoryRepositories, StockRepository } from './inventory/inventory.ports';
export { createInventoryLocation } from './inventory/create-inventory-location';
export { DEFAULT_LOCATION_NAME, ensureDefaultLocation } from './inventory/ensure-default-location';
export { applyStockMovements, applyStockMovementsWithEvents } from './inventory/apply-stock-movements';
export { listAvailableStock } from './inventory/list-available-stock';
export { listInventoryLocations } from './inventory/list-inventory-locations';

// Orders: order channels, placing, approving and cancelling orders, and their reads.
export type {
  DocumentTotals,
  Order,
  OrderAddress,
  OrderChannel,
  OrderLine,
  OrderStatus,
  OrderType,
  Reservation,
  ResponsiblePerson,
  ShippingCode,
} from './orders/order.entities';
export { ORDER_TYPES } from './orders/order.entities';
export type { OrderChannelRepository, OrderRepositories, OrderRepository } from './orders/order.ports';
export { orderLifecycle } from './orders/order.lifecycle';
export {
  orderChannelListDefinition,
  orderExportListDefinition,
  orderListDefinition,
} from './orders/order.list-definitions';
export { approveOrder } from './orders/approve-order';
export { cancelOrder } from './orders/cancel-order';
export { createOrderChannel } from './orders/create-order-channel';
export { getOrder } from './orders/get-order';
export { getOrderChannel } from './orders/get-order-channel';
export { listOrderChannels } from './orders/list-order-channels';
export { listOrders } from './orders/list-orders';
export { reservedQuantityOf } from './orders/order-stock';
export { placeOrder } from './orders/place-order';
export type { PlaceOrderInput } from './orders/place-order.input';
export type { VariantLineInput } from './orders/variant-lines';

// Fulfilment: shipments: partial shipments, delivery, cancellation and their reads.
export type { Colli, ColliLine, Shipment, ShipmentLine, ShipmentStatus } from './fulfilment/shipment.entities';
export type { ShipmentRepositories, ShipmentRepository } from './fulfilment/shipment.ports';
export { shipmentLifecycle } from './fulfilment/shipment.lifecycle';
export {
  shipmentExportListDefinition,
  shipmentListDefinition,
  thirdPartyShipmentExportListDefinition,
  thirdPartyShipmentListDefinition,
} from './fulfilment/shipment.list-definitions';
export { cancelShipment } from './fulfilment/cancel-shipment';
export { createPartialShipment } from './fulfilment/create-partial-shipment';
export { deliverShipment } from './fulfilment/deliver-shipment';
export type { DeliveredColli, Delivery } from './fulfilment/deliver-shipment';
export { getShipment } from './fulfilment/get-shipment';
export { listShipments } from './fulfilment/list-shipments';
export { listThirdPartyShipments } from './fulfilment/list-third-party-shipments';
export type { ShipmentView } from './fulfilment/shipment-view';

// Finance: invoices, credit notes and accounting entries.
export type {
  Account,
  AccountingDocumentType,
  AccountingEntry,
  AccountingLine,
  CreditNote,
  FinancialDocumentStatus,
  FinancialLine,
  Invoice,
} from './finance/finance.entities';
export type {
  AccountingEntryRepository,
  CreditNoteRepository,
  FinanceRepositories,
  InvoiceRepository,
} from './finance/finance.ports';
export { financialDocumentLifecycle } from './finance/finance.lifecycle';
export {
  accountingEntryExportListDefinition,
  accountingEntryListDefinition,
  creditNoteExportListDefinition,
  creditNoteListDefinition,
  invoiceExportListDefinition,
  invoiceListDefinition,
} from './finance/finance.list-definitions';
export { bookCreditNote } from './finance/book-credit-note';
export { bookInvoice } from './finance/book-invoice';
export { creditInvoice } from './finance/credit-invoice';
export type { CreditLineInput } from './finance/credit-invoice';
export { getAccountingEntry } from './finance/get-accounting-entry';
export type { AccountingEntryDetail } from './finance/get-accounting-entry';
export { getCreditNote } from './finance/get-credit-note';
export type { CreditNoteDetail } from './finance/get-credit-note';
export { getInvoice } from './finance/get-invoice';
export type { InvoiceDetail } from './finance/get-invoice';
export { listAccountingEntries } from './finance/list-accounting-entries';
export { listCreditNotes } from './finance/list-credit-notes';
export { listInvoices } from './finance/list-invoices';

// Documents and exports: the timeline, export marks and the export walks over orders, shipments and finance documents.
export type {
  DocumentType,
  ExportMark,
  ExportScope,
  NewTimelineEvent,
  TimelineEvent,
  TimelineKind,
} from './documents/document.entities';
export type { DocumentRepositories, ExportMarkRepository, TimelineRepository } from './documents/document.ports';
export { exportAccountingEntries } from './documents/export-accounting-entries';
export { exportCreditNotes } from './documents/export-credit-notes';
export { normalizeInstant, systemIdProblem } from './documents/export-documents';
export type { ExportRequest, ExportResult } from './documents/export-documents';
export { exportInvoices } from './documents/export-invoices';
export { exportOrders } from './documents/export-orders';
export { exportShipments } from './documents/export-shipments';
export { exportThirdPartyShipments } from './documents/export-third-party-shipments';
export { markDocumentsExported } from './documents/mark-documents-exported';
export type { MarkableDocumentType } from './documents/mark-documents-exported';
export { MAX_MARKS_PER_CALL } from './documents/export-marks';
export type { MarkItem, MarkRequest } from './documents/export-marks';
export { markOrdersExported } from './documents/mark-orders-exported';
export type { OrderMarkItem } from './documents/mark-orders-exported';

// Production: production orders and delivery notes.
export type {
  DeliveryNote,
  DeliveryNoteLine,
  DeliveryNoteStatus,
  ProductionOrder,
  ProductionOrderLine,
  ProductionOrderStatus,
} from './production/production.entities';
export type {
  DeliveryNoteRepository,
  ProductionOrderRepository,
  ProductionRepositories,
} from './production/production.ports';
export { deliveryNoteLifecycle } from './production/delivery-note.lifecycle';
export { productionOrderLifecycle } from './production/production.lifecycle';
export {
  deliveryNoteListDefinition,
  productionOrderExportListDefinition,
  productionOrderListDefinition,
  thirdPartyDeliveryNoteListDefinition,
} from './production/production.list-definitions';
export { approveProductionOrder } from './production/approve-production-order';
export { closeProductionOrder } from './production/close-production-order';
export { createDeliveryNote } from './production/create-delivery-note';
export type { CreateDeliveryNoteInput } from './production/create-delivery-note';
export { createProductionOrder } from './production/create-production-order';
export type { CreateProductionOrderInput } from './production/create-production-order';
export { exportProductionOrders } from './production/export-production-orders';
export { getProductionOrder } from './production/get-production-order';
export { listDeliveryNotes } from './production/list-delivery-notes';
export { listProductionOrders } from './production/list-production-orders';
export { listThirdPartyDeliveryNotes } from './production/list-third-party-delivery-notes';
export type { DeliveryNoteView, ProductionRelated } from './production/production-view';
export { receiveDeliveryNote } from './production/receive-delivery-note';
export type { DeliveryNoteReceipt } from './production/receive-delivery-note';

// Returns: returns, claim causes, return portals, third-party receipts and alerts.
export { GIFT_CARD_BONUS_TYPES, INTERNAL_RETURN_PORTAL_TYPE } from './returns/return.entities';
export type {
  Alert,
  AlertStatus,
  ClaimCause,
  ClaimType,
  GiftCardBonusType,
  Return,
  ReturnLine,
  ReturnPortal,
  ReturnSource,
  ReturnStatus,
} from './returns/return.entities';
export type {
  AlertRepository,
  ClaimCauseRepository,
  ReturnPortalRepository,
  ReturnRepositories,
  ReturnRepository,
} from './returns/return.ports';
export { alertLifecycle } from './returns/alert.lifecycle';
export { returnLifecycle } from './returns/return.lifecycle';
export {
  alertListDefinition,
  claimCauseListDefinition,
  returnListDefinition,
  returnPortalListDefinition,
  thirdPartyReturnExportListDefinition,
  thirdPartyReturnListDefinition,
} from './returns/return.list-definitions';
export { approveReturn } from './returns/approve-return';
export { createAdHocReturn } from './returns/create-ad-hoc-return';
export type { AdHocReturnLineInput, AdHocReturnOutcome } from './returns/create-ad-hoc-return';
export { createClaimCause } from './returns/create-claim-cause';
export { createReturnPortal, RETURN_PORTAL_TYPE_PATTERN } from './returns/create-return-portal';
export { createReturn } from './returns/create-return';
export type { CreateReturnLineInput } from './returns/create-return';
export { creditNoteFromAlert } from './returns/credit-note-from-alert';
export { exportThirdPartyReturns } from './returns/export-third-party-returns';
export { finalizePortalReturn } from './returns/finalize-portal-return';
export type { FinalizePortalReturnInput } from './returns/finalize-portal-return';
export { getReturn } from './returns/get-return';
export { getThirdPartyReturns } from './returns/get-third-party-returns';
export { listAlerts } from './returns/list-alerts';
export { listClaimCauses } from './returns/list-claim-causes';
export { listReturnPortals } from './returns/list-return-portals';
export { listReturns } from './returns/list-returns';
export { listThirdPartyReturns } from './returns/list-third-party-returns';
export { netOfVat } from './returns/portal-return-lines';
export type { PortalReturnLineInput } from './returns/portal-return-lines';
export { receiveThirdPartyReturn } from './returns/receive-third-party-return';
export type { ReceiptLineInput } from './returns/receive-third-party-return';
export { CLAIM_TYPES } from './returns/return-line-builders';
export type { ReturnView } from './returns/return-view';
export { upsertPortalReturn } from './returns/upsert-portal-return';
export type { PortalReturnInput, PortalReturnResult, UpsertPortalReturnInput } from './returns/upsert-portal-return';

// Settings: per-brand settings.
export { AD_HOC_RETURN_MODES, INVOICING_MODES } from './settings/settings.entities';
export type { AdHocReturnMode, BrandSettings, InvoicingMode } from './settings/settings.entities';
export type { BrandSettingsRepository, SettingsRepositories } from './settings/settings.ports';
export { getBrandSettings } from './settings/get-brand-settings';
export { updateBrandSettings } from './settings/update-brand-settings';
export type { BrandSettingsChanges } from './settings/update-brand-settings';

// Events: typed domain events written with the change that caused them (the outbox), and the feed.
export { EVENT_TYPES, isEventType } from './events/event.entities';
export type {
  DocumentEventType,
  DomainEvent,
  EmittedEventType,
  EventObjects,
  EventType,
  NewDomainEvent,
  TimelineNote,
} from './events/event.entities';
export type { EventRepositories, EventRepository } from './events/event.ports';
export { EVENT_ID_PREFIX, eventListDefinition } from './events/event.list-definitions';
export { recordEvents } from './events/record-events';
export { getEvent } from './events/get-event';
export { listEvents } from './events/list-events';
export { EVENT_RETENTION_DAYS, pruneEvents } from './events/prune-events';

// Webhooks: endpoints that events are pushed to, their secrets and their rules.
export { ALL_EVENTS, ROTATED_SECRET_VALID_HOURS } from './webhooks/webhook.entities';
export type { WebhookEndpoint, WebhookEndpointWithSecret } from './webhooks/webhook.entities';
export type { WebhookEndpointRepository, WebhookRepositories } from './webhooks/webhook.ports';
export { webhookEndpointListDefinition } from './webhooks/webhook.list-definitions';
export { MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH } from './webhooks/webhook-rules';
export { createWebhookEndpoint } from './webhooks/create-webhook-endpoint';
export { deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint';
export { getWebhookEndpoint } from './webhooks/get-webhook-endpoint';
export { listWebhookEndpoints } from './webhooks/list-webhook-endpoints';
export { rotateWebhookSecret } from './webhooks/rotate-webhook-secret';
export { updateWebhookEndpoint } from './webhooks/update-webhook-endpoint';
export type { WebhookEndpointChanges } from './webhooks/update-webhook-endpoint';
export { DELIVERY_STATUSES } from './webhooks/webhook.entities';
export type { ClaimedDelivery, DeliveryStatus, WebhookDelivery } from './webhooks/webhook.entities';
export type { DeliveryLease, WebhookDeliveryRepository } from './webhooks/webhook.ports';
export type { WebhookAttempt, WebhookAttemptOutcome, WebhookSender } from './webhooks/webhook-sender.ports';
export { webhookDeliveryListDefinition } from './webhooks/webhook.list-definitions';
export { DEFAULT_RETRY_SCHEDULE_MS, nextAttemptAt, parseRetrySchedule, RETRY_JITTER } from './webhooks/retry-schedule';
export { deliverDueWebhooks, signingSecrets } from './webhooks/deliver-due-webhooks';
export type { DispatchPass } from './webhooks/deliver-due-webhooks';
export { listWebhookDeliveries } from './webhooks/list-webhook-deliveries';
export { releaseWebhookClaims } from './webhooks/release-webhook-claims';
export { retryWebhookDelivery } from './webhooks/retry-webhook-delivery';

// OAuth grants: authorization codes with PKCE, grants and their tokens, refresh rotation with reuse detection, revocation (DESIGN §11).
export {
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
  DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS,
  PKCE_METHODS,
} from './oauth/oauth.entities';
export type {
  GrantAccessTokenLink,
  GrantTokenLifetimes,
  GrantTokens,
  OAuthAuthorizationCode,
  OAuthGrant,
  OAuthRefreshToken,
  PkceMethod,
} from './oauth/oauth.entities';
export type {
  OAuthAuthorizationCodeRepository,
  OAuthGrantRepository,
  OAuthRefreshTokenRepository,
  OAuthRepositories,
} from './oauth/oauth.ports';
export { issueAuthorizationCode } from './oauth/issue-authorization-code';
export type { IssueAuthorizationCodeInput } from './oauth/issue-authorization-code';
export { findAuthorizationCode } from './oauth/find-authorization-code';
export { consumeAuthorizationCode } from './oauth/consume-authorization-code';
export { issueGrantTokens } from './oauth/issue-grant-tokens';
export type { IssueGrantTokensInput } from './oauth/issue-grant-tokens';
export { findRefreshToken } from './oauth/find-refresh-token';
export { spendRefreshToken } from './oauth/spend-refresh-token';
export { rotateRefreshToken } from './oauth/rotate-refresh-token';
export type { RotateRefreshTokenInput } from './oauth/rotate-refresh-token';
export { revokeOAuthToken } from './oauth/revoke-oauth-token';

// Console sessions: a browser's log-in to the OAuth pages and the console, cookie secrets stored as hashes, and the console's token list (DESIGN §11).
export {
  CONSOLE_SESSION_ABSOLUTE_SECONDS,
  CONSOLE_SESSION_IDLE_SECONDS,
  consoleSessionCookieValue,
  consoleSessionEnded,
  parseConsoleSessionCookie,
} from './console/console-session.entities';
export type { ConsoleSession } from './console/console-session.entities';
export type { ConsoleRepositories, ConsoleSessionRepository } from './console/console-session.ports';
export { startConsoleSession } from './console/start-console-session';
export { resolveConsoleSession } from './console/resolve-console-session';
export { endConsoleSession } from './console/end-console-session';
export { listConsoleAccessTokens } from './console/list-console-access-tokens';

// Console request log: a brand's recorded API requests, newest first, a page at a time, by app and status (DESIGN §11).
export {
  CONSOLE_REQUESTS_PER_PAGE,
  isRequestStatusFilter,
  listConsoleRequests,
  REQUEST_STATUS_FILTERS,
} from './console/list-console-requests';
export type { ConsoleRequestsPage, RequestStatusFilter } from './console/list-console-requests';

// Integration health: per API app the last day's requests by hour and status class, its error rate and slowest routes; per exporting system what it has not exported; per webhook endpoint its success rate and oldest pending delivery (DESIGN §17).
export {
  EXPORT_BACKLOG_COUNT_CAP,
  EXPORT_BACKLOG_TYPES,
  SLOWEST_ROUTES_SHOWN,
  STATUS_CLASSES,
  TRAFFIC_HOURS,
} from './integration-health/integration-health.entities';
export type {
  AppTraffic,
  ExportBacklog,
  ExportBacklogType,
  ExportSystemHealth,
  HourOfRequests,
  IntegrationHealth,
  RouteTiming,
  StatusClass,
  WebhookEndpointHealth,
} from './integration-health/integration-health.entities';
export type {
  DeliveryCountRow,
  ExportBacklogScope,
  IntegrationHealthRepositories,
  IntegrationHealthRepository,
  RequestCountRow,
  RouteTimingRow,
} from './integration-health/integration-health.ports';
export { getIntegrationHealth } from './integration-health/get-integration-health';

// Monitoring: the queue depths the operator's metrics show, counted brand by brand (DESIGN §17).
export type { QueueDepthRepositories, QueueDepthRepository } from './monitoring/queue-depth.ports';
export { readQueueDepths } from './monitoring/read-queue-depths';
export type { QueueDepths } from './monitoring/read-queue-depths';

// Idempotency keys: a write retried with the same key runs once and replays its stored answer (DESIGN §12).
export type { IdempotencyRecord, IdempotencyScope, StoredAnswer } from './idempotency/idempotency.entities';
export type { IdempotencyKeyRepository, IdempotencyRepositories } from './idempotency/idempotency.ports';
export {
  IDEMPOTENCY_CLAIM_LEASE_MS,
  IDEMPOTENCY_KEY_RETENTION_MS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  canonicalJson,
  parseIdempotencyKey,
  requestFingerprint,
} from './idempotency/idempotency-rules';
export { beginIdempotentRequest } from './idempotency/begin-idempotent-request';
export type { IdempotentStart } from './idempotency/begin-idempotent-request';
export {
  completeIdempotentRequest,
  idempotencyKeyInUse,
  idempotencyKeyReused,
} from './idempotency/complete-idempotent-request';
export { releaseIdempotentRequest } from './idempotency/release-idempotent-request';
export { pruneIdempotencyKeys } from './idempotency/prune-idempotency-keys';

// Housekeeping: the periodic deletion of what nothing accepts or shows any more, a bounded batch per transaction: ended console sessions, codes, grants and tokens, closed log-in throttle windows, and the request log past its retention (DESIGN §11).
export { ENDED_ACCESS_TOKEN_RETENTION_DAYS, sweepExpiredCredentials } from './identity/sweep-expired-credentials';
export type { CredentialSweepRepositories, SweptCredentials } from './identity/sweep-expired-credentials';
export { pruneRequestLog } from './identity/prune-request-log';
export { REQUEST_LOG_RETENTION_DAYS } from './identity/identity.entities';

// Bulk operations: a whole file of sync items, uploaded once, run in chunks by any process with a lease, and reported line by line (DESIGN §16).
export {
  BULK_CHUNK_LINES,
  BULK_CHUNK_MAX_ATTEMPTS,
  BULK_OPERATION_STATUSES,
  BULK_OPERATION_TYPES,
  FINISHED_BULK_OPERATION_STATUSES,
  isBulkOperationType,
} from './bulk-operations/bulk-operation.entities';
export type {
  BulkLineResult,
  BulkOperation,
  BulkOperationError,
  BulkOperationLease,
  BulkOperationLine,
  BulkOperationStatus,
  BulkOperationType,
  ClaimedBulkOperation,
} from './bulk-operations/bulk-operation.entities';
export type {
  BulkOperationEnding,
  BulkOperationRepositories,
  BulkOperationRepository,
} from './bulk-operations/bulk-operation.ports';
export type {
  AnnouncingRepositories,
  BulkItemApplier,
  BulkItemAppliers,
  BulkLineErrors,
} from './bulk-operations/bulk-item-applier.ports';
export { bulkOperationListDefinition } from './bulk-operations/bulk-operation.list-definitions';
export { startBulkUpload } from './bulk-operations/start-bulk-upload';
export { appendBulkUploadLines } from './bulk-operations/append-bulk-upload-lines';
export { discardBulkUpload } from './bulk-operations/discard-bulk-upload';
export { queueBulkOperation } from './bulk-operations/queue-bulk-operation';
export { getBulkOperation } from './bulk-operations/get-bulk-operation';
export { findBulkOperationForOperator } from './bulk-operations/find-bulk-operation-for-operator';
export { listBulkOperations } from './bulk-operations/list-bulk-operations';
export { readBulkOperationResults } from './bulk-operations/read-bulk-operation-results';
export { cancelBulkOperation } from './bulk-operations/cancel-bulk-operation';
export { runNextBulkOperation } from './bulk-operations/run-next-bulk-operation';
export {
  ABANDONED_BULK_UPLOAD_HOURS,
  sweepAbandonedBulkUploads,
} from './bulk-operations/sweep-abandoned-bulk-uploads';
export type { BulkRunInput, BulkRunnerDeps } from './bulk-operations/run-next-bulk-operation';
