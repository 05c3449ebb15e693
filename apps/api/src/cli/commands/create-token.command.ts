import { issueAccessToken } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseExpiresIn, parseId, parseScopes } from '../cli-arguments';

interface CreateTokenOptions {
  user: number;
  app: number;
  scopes?: string[];
  expiresIn?: number;
}

/** `brand create-token --user <id> --app <id> [--scopes a:read,b:write] [--expires-in 30d]` */
export const createTokenCommand: CliCommand<CreateTokenOptions> = {
  name: 'create-token',
  summary: 'Issue a personal access token to a user for one app; prints the token once',
  configure(command) {
    command
      .requiredOption('--user <id>', 'id of the user the token acts for', parseId)
      .requiredOption('--app <id>', 'id of the API app (same brand as the user)', parseId)
      .option('--scopes <list>', 'comma-separated scopes, e.g. catalog:read,orders:write (default: all)', parseScopes)
      .option(
        '--expires-in <duration>',
        'lifetime in seconds or with a unit: 12h, 30d, 1y (default: 1y)',
        parseExpiresIn,
      );
  },
  async run({ storage, clock, hasher }, options) {
    const { token, accessToken } = await issueAccessToken(
      { uow: storage.uow, clock, hasher },
      {
        userId: options.user,
        appId: options.app,
        ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
        ...(options.expiresIn !== undefined ? { expiresInSeconds: options.expiresIn } : {}),
      },
    );
    return {
      json: {
        access_token: accessToken,
        token_id: token.id,
        expires_at: token.expiresAt,
        scopes: token.scopes,
        user_id: token.userId,
        app_id: token.appId,
        brand_id: token.brandId,
      },
      text: [
        `Issued token ${token.id} to user ${token.userId} for app ${token.appId}, valid until ${token.expiresAt}.`,
        `Scopes: ${token.scopes.length > 0 ? token.scopes.join(', ') : '(none)'}`,
        `Access token (send as Authorization: Bearer; shown only now): ${accessToken}`,
      ].join('\n'),
    };
  },
};
