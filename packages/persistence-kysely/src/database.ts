import { AccessTokensTable, ApiAppsTable, BrandsTable, RequestLogsTable, UsersTable } from './tables/identity.tables';
import { DocumentSequencesTable, IdCountersTable, RateLimitCountersTable, RowCountsTable, SharedSecretsTable } from './tables/infrastructure.tables';
import { AddressesTable, CustomerGroupsTable, CustomersTable, PaymentTermsTable, SuppliersTable } from './tables/partner.tables';

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
}
