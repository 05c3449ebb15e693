import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';
import { BRAND_POLICY } from './0018-row-level-security';

/**
 * Bulk operations, their lines and the lines' results (DESIGN §16), under the tenancy rules of
 * DESIGN §9: keyed with brand_id first, the lines and results referring to their operation with
 * the brand in the key, every index led by brand_id, and on Postgres row-level security as 0018
 * gave the tables before them.
 *
 * Results have a table of their own, written once per chunk and never updated: the lines are
 * written once on upload and only read afterwards. `processed_through_line` is the last line of
 * the last committed chunk, where a runner taking an operation over goes on.
 *
 * The partial unique index on (brand_id, type) among running operations is what keeps one running
 * operation per brand and type when two processes claim at once: the second claim fails and is
 * tried again, and then finds the type busy.
 */
export function bulkOperationsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await sql`create sequence ${sql.id('ids_bulk_operations')}`.execute(db);
      await db.schema
        .createTable('bulk_operations')
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('user_id', bigint)
        .addColumn('total_lines', 'integer', (c) => c.notNull())
        .addColumn('processed_lines', 'integer', (c) => c.notNull())
        .addColumn('failed_lines', 'integer', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('chunk_attempts', 'integer', (c) => c.notNull())
        .addColumn('processed_through_line', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addPrimaryKeyConstraint('bulk_operations_pk', ['brand_id', 'id'])
        .execute();
      await db.schema
        .createIndex('bulk_operations_status_idx')
        .on('bulk_operations')
        .columns(['brand_id', 'status', 'id'])
        .execute();
      await db.schema
        .createIndex('bulk_operations_one_running_idx')
        .on('bulk_operations')
        .columns(['brand_id', 'type'])
        .unique()
        .where(sql.ref('status'), '=', 'running')
        .execute();
      await db.schema
        .createTable('bulk_operation_lines')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('operation_id', bigint, (c) => c.notNull())
        .addColumn('line', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('bulk_operation_lines_pk', ['brand_id', 'operation_id', 'line'])
        .addForeignKeyConstraint(
          'bulk_operation_lines_operation_fk',
          ['brand_id', 'operation_id'],
          'bulk_operations',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createTable('bulk_operation_results')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('operation_id', bigint, (c) => c.notNull())
        .addColumn('line', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('bulk_operation_results_pk', ['brand_id', 'operation_id', 'line'])
        .addForeignKeyConstraint(
          'bulk_operation_results_operation_fk',
          ['brand_id', 'operation_id'],
          'bulk_operations',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      if (dialect !== 'postgres') return;
      for (const table of ['bulk_operations', 'bulk_operation_lines', 'bulk_operation_results']) {
        const name = sql.table(table);
        await sql`alter table ${name} enable row level security`.execute(db);
        await sql`alter table ${name} force row level security`.execute(db);
        await sql`create policy ${sql.ref(BRAND_POLICY)} on ${name}
          using (brand_id = nullif(current_setting('brand.id', true), '')::bigint)
          with check (brand_id = nullif(current_setting('brand.id', true), '')::bigint)`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('bulk_operation_results').execute();
      await db.schema.dropTable('bulk_operation_lines').execute();
      await db.schema.dropTable('bulk_operations').execute();
      if (dialect === 'postgres') await sql`drop sequence ${sql.id('ids_bulk_operations')}`.execute(db);
    },
  };
}
