import { Kysely, Migration } from 'kysely';

/**
 * The console's integration health page (DESIGN §17):
 * - `request_logs.route`: the template of the route that answered (`/v10/orders/:id`), so the
 *   slowest routes group the requests of one route whatever ids their paths hold. Nullable: the
 *   requests recorded before it have none, and the page groups them as one unnamed route. The
 *   page's request counts walk `(brand_id, created_at, id)` of 0013 over the last day.
 * - `document_exports (brand_id, document_type, system_id, document_id)`: which systems export
 *   which document types, read one distinct pair per seek; the primary key has the document id
 *   before the system, so without it every mark of the brand would be read. The document id comes
 *   last so that this index, too, answers the exports' "is this document marked by this system"
 *   probe with one seek: with only the first three columns Postgres was seen to pick it for that
 *   probe on a type with few marks and then read every mark of the system per document. Each
 *   pair's backlog walks the document table's `(brand_id, status, id)` or its key and probes the
 *   marks, as the exports do.
 */
export function integrationHealthMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('request_logs').addColumn('route', 'text').execute();
      await db.schema
        .createIndex('document_exports_systems_idx')
        .on('document_exports')
        .columns(['brand_id', 'document_type', 'system_id', 'document_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('document_exports_systems_idx').execute();
      await db.schema.alterTable('request_logs').dropColumn('route').execute();
    },
  };
}
