import { SecretHasher } from '../identity/identity.ports';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ReturnPortal } from './return.entities';

/** Length of a portal's public id: a cut of a 256-bit URL-safe secret, as order channels do. */
const PUBLIC_ID_LENGTH = 24;

/**
 * A portal type is `service` (the platform's own), `custom` (any app may use it) or a partner's
 * type, which only an app whose internal code is that type may use: so a type has the shape of
 * an app internal code.
 */
export const RETURN_PORTAL_TYPE_PATTERN = /^[a-z0-9_-]{1,64}$/;

/**
 * Back office: adds a return portal. Portals announce returns at
 * `/v10/external-return-portals/{publicId}/returns`; the public id is generated (unguessable, unique
 * across brands) because that route finds the portal before it knows the brand.
 *
 * @example
 * const portal = await createReturnPortal({ uow, clock, hasher }, { brandId, name: 'Webshop returns', type: 'custom' });
 */
export async function createReturnPortal(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'returnPortals'>>; clock: Clock; hasher: SecretHasher },
  input: { brandId: number; name: string; type: string; requiresClaimCauses?: boolean },
): Promise<ReturnPortal> {
  const name = input.name.trim();
  const violations = new ViolationList();
  if (name === '') violations.add('/name', 'must not be empty');
  if (!RETURN_PORTAL_TYPE_PATTERN.test(input.type)) {
    violations.add(
      '/type',
      'must be service, custom or a partner portal type (lower-case letters, digits, _ and -; at most 64)',
    );
  }
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    let publicId = deps.hasher.randomSecret().slice(0, PUBLIC_ID_LENGTH);
    // A clash is astronomically unlikely; checking costs one indexed read.
    while (await tx.returnPortals.findByPublicIdAnyBrand(publicId))
      publicId = deps.hasher.randomSecret().slice(0, PUBLIC_ID_LENGTH);
    const [id] = await tx.ids.next('return_portals');
    const now = deps.clock.now();
    const portal: ReturnPortal = {
      id: id!,
      brandId: input.brandId,
      publicId,
      name,
      type: input.type,
      requiresClaimCauses: input.requiresClaimCauses ?? false,
      createdAt: now,
      updatedAt: now,
    };
    await tx.returnPortals.insert(portal);
    return portal;
  });
}
