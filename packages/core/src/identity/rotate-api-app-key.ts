import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ApiApp } from './identity.entities';
import { SecretHasher } from './identity.ports';

/** Which app `rotateApiAppKey` gives a new key. */
export interface RotateApiAppKeyInput {
  appId: number;
  /**
   * The brand the caller acts for (the console): another brand's app is treated as missing, so
   * tenants never learn of each other. The CLI, an operator's tool, names no brand.
   */
  brandId?: number;
}

/**
 * Gives an app a new random key (also its OAuth `client_secret`), returned once; only its hash is
 * stored. The old key stops working at once, on every process: the new hash is stored and the
 * credentials revision advanced in one transaction, so every verifier drops the credentials it
 * had cached with the old key before its next request. Access tokens issued to the app stay valid:
 * they are users' grants, and go on working with the new key.
 * @example const { app, appKey } = await rotateApiAppKey({ uow, hasher }, { brandId: user.brandId, appId: 7 });
 */
export async function rotateApiAppKey(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps'>>; hasher: SecretHasher },
  input: RotateApiAppKeyInput,
): Promise<{ app: ApiApp; appKey: string }> {
  const appKey = deps.hasher.randomSecret();
  const appKeyHash = deps.hasher.hash(appKey);
  return deps.uow.run(async (tx) => {
    const app =
      input.brandId !== undefined
        ? await tx.apiApps.findById(input.brandId, input.appId)
        : await tx.apiApps.findByIdAnyBrand(input.appId);
    if (!app || !(await tx.apiApps.replaceAppKeyHash(app.brandId, app.id, appKeyHash)))
      throw DomainError.notFound('api app', input.appId);
    return { app: { ...app, appKeyHash }, appKey };
  });
}
