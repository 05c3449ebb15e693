import {
  BrandLookupsTable,
  DocumentSequencesTable,
  IdCountersTable,
  RateLimitCountersTable,
  RowCountsTable,
  SharedSecretsTable,
} from './tables/infrastructure.tables';

/**
 * The whole schema as Kysely sees it; one schema for both dialects. Here only the storage's own
 * tables, which belong to no module; each `tables/*.tables.ts` file adds its tables by declaration
 * merging (`declare module '../database' { interface Database { … } }`), so a new module's tables
 * are declared in its own file.
 */
export interface Database {
  id_counters: IdCountersTable;
  document_sequences: DocumentSequencesTable;
  rate_limit_counters: RateLimitCountersTable;
  shared_secrets: SharedSecretsTable;
  row_counts: RowCountsTable;
  brand_lookups: BrandLookupsTable;
}
