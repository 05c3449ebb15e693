import { Clock, Scope, createApiApp, createBrand, createUser, issueAccessToken } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';

/** A brand with a user, an API app and a token: everything an integration needs to call the API. */
export interface Integrator {
  brandId: number;
  userId: number;
  appId: number;
  tokenId: number;
  accessToken: string;
  appKey: string;
  /** Authorization and X-Service-App-Key headers for the current interface. */
  headers: { Authorization: string; 'X-Service-App-Key': string };
}

let brands = 0;

/** Registers a new brand (so every call is a separate tenant) through the core use cases, as the CLI would. */
export async function createIntegrator(
  storage: Storage,
  clock: Clock,
  options: { brandName?: string; scopes?: Scope[]; expiresInSeconds?: number } = {},
): Promise<Integrator> {
  const deps = { uow: storage.uow, clock, hasher: nodeSecretHasher };
  brands += 1;
  const brand = await createBrand(deps, { name: options.brandName ?? `Brand ${brands}`, currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: `admin${brands}@brand.example`, name: 'Admin' });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP connector' });
  const { token, accessToken } = await issueAccessToken(deps, {
    userId: user.id,
    appId: app.id,
    ...(options.scopes ? { scopes: options.scopes } : {}),
    ...(options.expiresInSeconds ? { expiresInSeconds: options.expiresInSeconds } : {}),
  });
  return {
    brandId: brand.id,
    userId: user.id,
    appId: app.id,
    tokenId: token.id,
    accessToken,
    appKey,
    headers: { Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey },
  };
}
