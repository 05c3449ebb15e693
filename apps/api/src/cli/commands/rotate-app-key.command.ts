import { rotateApiAppKey } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface RotateAppKeyOptions {
  app: number;
}

/** `brand rotate-app-key --app <id>` */
export const rotateAppKeyCommand: CliCommand<RotateAppKeyOptions> = {
  name: 'rotate-app-key',
  summary: 'Give an API app a new key (also its OAuth client secret), printed once; the old key stops working at once',
  configure(command) {
    command.requiredOption('--app <id>', 'id of the app', parseId);
  },
  async run({ storage, hasher }, options) {
    const { app, appKey } = await rotateApiAppKey({ uow: storage.uow, hasher }, { appId: options.app });
    return {
      json: { app_id: app.id, client_id: app.clientId, app_key: appKey, brand_id: app.brandId, name: app.name },
      text: [
        `Rotated the key of API app ${app.id} "${app.name}" in brand ${app.brandId}; the old key no longer works.`,
        `New app key (send as X-Service-App-Key; the OAuth client secret of ${app.clientId}; shown only now): ${appKey}`,
      ].join('\n'),
    };
  },
};
