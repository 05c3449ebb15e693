import { Kysely, Migration } from 'kysely';

/**
 * `request_logs.trace_id`: the OpenTelemetry trace a request was recorded in (DESIGN §17), so the
 * console's request log leads to the trace. Nullable: requests recorded before, and every request
 * while tracing is off, have none. Never searched by, so no index.
 */
export function requestTraceIdsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('request_logs').addColumn('trace_id', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('request_logs').dropColumn('trace_id').execute();
    },
  };
}
