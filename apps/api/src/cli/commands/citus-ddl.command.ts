import { readCitusDistribution } from '@brand/persistence-kysely';
import { CliCommand } from '../cli-command';
import { databaseUrlFrom } from '../open-cli-context';

/**
 * `brand citus-ddl`: the statements that distribute the current schema on Citus (DESIGN §9):
 * global tables as reference tables, every tenant table by brand_id, co-located, each after the
 * tables it references. Run them on the coordinator after `brand migrate` (docs/scale-out.md).
 */
export const citusDdlCommand: CliCommand<Record<string, never>> = {
  name: 'citus-ddl',
  summary: 'Print the Citus statements that distribute the schema by brand (Postgres only)',
  configure() {},
  async run({ storage, env }) {
    if (storage.dialect !== 'postgres')
      throw new Error('citus-ddl needs a Postgres DATABASE_URL: Citus distributes Postgres');
    const distribution = await readCitusDistribution(databaseUrlFrom(env));
    return {
      json: {
        reference_tables: distribution.referenceTables,
        distributed_tables: distribution.distributedTables,
        local_tables: distribution.localTables,
        statements: distribution.statements,
      },
      text: distribution.statements.join('\n'),
    };
  },
};
