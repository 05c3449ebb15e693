import { Clock, Scope, issueAccessToken } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';
import { Integrator } from './integrator';

/**
 * Another token of the same brand, user and app, with only `scopes`: what a scope refusal is
 * tested with, so that the records it may not write are its own brand's (a token of another brand
 * would be refused by the brand boundary as well).
 */
export async function withScopes(
  storage: Storage,
  clock: Clock,
  who: Integrator,
  scopes: Scope[],
): Promise<Integrator> {
  const { token, accessToken } = await issueAccessToken(
    { uow: storage.uow, clock, hasher: nodeSecretHasher },
    { userId: who.userId, appId: who.appId, scopes },
  );
  return {
    ...who,
    tokenId: token.id,
    accessToken,
    headers: { Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': who.appKey },
  };
}
