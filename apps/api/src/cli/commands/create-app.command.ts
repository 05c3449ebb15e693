import { createApiApp } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface CreateAppOptions {
  brand: number;
  name: string;
  internalCode?: string;
  redirectUri: string[];
}

/** Commander's collector for a repeatable option: each occurrence adds one value. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `brand create-app --brand <id> --name <name> [--internal-code <code>] [--redirect-uri <url>]…` */
export const createAppCommand: CliCommand<CreateAppOptions> = {
  name: 'create-app',
  summary: 'Register an API app (integration, OAuth client); prints its client id and its secret app key once',
  configure(command) {
    command
      .requiredOption('--brand <id>', 'id of the brand', parseId)
      .requiredOption('--name <name>', 'the app name')
      .option('--internal-code <code>', 'partner portal type this app acts as (a-z, 0-9, _ or -)')
      .option(
        '--redirect-uri <url>',
        'an OAuth redirect URI (https, or http on localhost/127.0.0.1/[::1]); repeat for several, at most 10',
        collect,
        [],
      );
  },
  async run({ storage, clock, hasher }, options) {
    const { app, appKey, redirectUris } = await createApiApp(
      { uow: storage.uow, clock, hasher },
      {
        brandId: options.brand,
        name: options.name,
        internalCode: options.internalCode ?? null,
        redirectUris: options.redirectUri,
      },
    );
    return {
      json: {
        app_id: app.id,
        client_id: app.clientId,
        app_key: appKey,
        brand_id: app.brandId,
        name: app.name,
        internal_code: app.internalCode,
        redirect_uris: redirectUris,
        created_at: app.createdAt,
      },
      text: [
        `Created API app ${app.id} "${app.name}" in brand ${app.brandId}${app.internalCode ? ` (internal code ${app.internalCode})` : ''}.`,
        `OAuth client id: ${app.clientId} (the app key is its client secret)${redirectUris.length > 0 ? `; redirect URIs: ${redirectUris.join(' ')}` : ''}.`,
        `App key (send as X-Service-App-Key; shown only now): ${appKey}`,
      ].join('\n'),
    };
  },
};
