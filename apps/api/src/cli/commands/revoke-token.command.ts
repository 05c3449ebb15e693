import { revokeAccessToken } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface RevokeTokenOptions {
  tokenId?: number;
  token?: string;
}

/** `brand revoke-token (--token-id <id> | --token <plain token>)` */
export const revokeTokenCommand: CliCommand<RevokeTokenOptions> = {
  name: 'revoke-token',
  summary: 'Revoke an access token by id or by the token itself (effective on the next request)',
  configure(command) {
    command.option('--token-id <id>', 'id of the token', parseId).option('--token <token>', 'the plain access token');
  },
  usageProblem(options) {
    const given = [options.tokenId, options.token].filter((value) => value !== undefined).length;
    return given === 1 ? null : "give exactly one of '--token-id <id>' and '--token <token>'";
  },
  async run({ storage, clock, hasher }, options) {
    const result = await revokeAccessToken(
      { uow: storage.uow, clock, hasher },
      options.tokenId !== undefined ? { tokenId: options.tokenId } : { accessToken: options.token! },
    );
    return {
      json: { token_id: result.tokenId, revoked_at: result.revokedAt, already_revoked: result.alreadyRevoked },
      text: result.alreadyRevoked
        ? `Token ${result.tokenId} was already revoked at ${result.revokedAt}.`
        : `Revoked token ${result.tokenId} at ${result.revokedAt}.`,
    };
  },
};
