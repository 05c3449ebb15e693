/**
 * Bulk operations (DESIGN §16), keyed (brand_id, id); the runner holding one is `lease_owner`
 * until `lease_until`. `status` includes `receiving`, an upload still streaming in.
 * `chunk_attempts` counts the failed attempts at the next chunk (cleared by each chunk that
 * commits); `error` (JSON) says why an operation `failed`.
 */
export interface BulkOperationsTable {
  brand_id: number;
  id: number;
  type: string;
  status: string;
  user_id: number | null;
  total_lines: number;
  processed_lines: number;
  failed_lines: number;
  lease_owner: string | null;
  lease_until: string | null;
  chunk_attempts: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/**
 * The lines of an operation as uploaded (`body`), and once run their outcome: `result_status`
 * `ok` or `failed`, `result` the id (JSON) or the error objects (JSON). A line without a result
 * has not run yet: the runner goes on from the first of them.
 */
export interface BulkOperationLinesTable {
  brand_id: number;
  operation_id: number;
  line: number;
  body: string;
  result_status: string | null;
  result: string | null;
}

declare module '../database' {
  interface Database {
    bulk_operations: BulkOperationsTable;
    bulk_operation_lines: BulkOperationLinesTable;
  }
}
