import { createApiApp } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface CreateAppOptions {
  brand: number;
  name: string;
  internalCode?: string;
}

/** `brand create-app --brand <id> --name <name> [--internal-code <code>]` */
export const createAppCommand: CliCommand<CreateAppOptions> = {
  name: 'create-app',
  summary: 'Register an API app (integration); prints its secret app key once',
  configure(command) {
    command
      .requiredOption('--brand <id>', 'id of the brand', parseId)
      .requiredOption('--name <name>', 'the app name')
      .option('--internal-code <code>', 'partner portal type this app acts as (a-z, 0-9, _ or -)');
  },
  async run({ storage, clock, hasher }, options) {
    const { app, appKey } = await createApiApp(
      { uow: storage.uow, clock, hasher },
      { brandId: options.brand, name: options.name, internalCode: options.internalCode ?? null },
    );
    return {
      json: {
        app_id: app.id,
        app_key: appKey,
        brand_id: app.brandId,
        name: app.name,
        internal_code: app.internalCode,
        created_at: app.createdAt,
      },
      text: [
        `Created API app ${app.id} "${app.name}" in brand ${app.brandId}${app.internalCode ? ` (internal code ${app.internalCode})` : ''}.`,
        `App key (send as X-Service-App-Key; shown only now): ${appKey}`,
      ].join('\n'),
    };
  },
};
