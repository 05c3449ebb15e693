/**
 * Bulk operations (DESIGN §16), keyed (brand_id, id); the runner holding one is `lease_owner`
 * until `lease_until`. `status` includes `receiving`, an upload still streaming in.
 * `chunk_attempts` counts the failed attempts at the next chunk (cleared by each chunk that
 * commits); `error` (JSON) says why an operation `failed`. `processed_through_line` is the last
 * line of the last committed chunk (0 before the first): a runner taking the operation over goes
 * on after it.
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
  processed_through_line: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The lines of an operation as uploaded (`body`): written once, then only read. */
export interface BulkOperationLinesTable {
  brand_id: number;
  operation_id: number;
  line: number;
  body: string;
}

/**
 * What became of each line run: `status` `ok` or `failed`, `result` the id (JSON `{id}`) or the
 * error objects (JSON `{errors}`). Inserted with the chunk that ran the line, never updated.
 */
export interface BulkOperationResultsTable {
  brand_id: number;
  operation_id: number;
  line: number;
  status: string;
  result: string;
}

declare module '../database' {
  interface Database {
    bulk_operations: BulkOperationsTable;
    bulk_operation_lines: BulkOperationLinesTable;
    bulk_operation_results: BulkOperationResultsTable;
  }
}
