import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { INTERNAL_RETURN_PORTAL_TYPE, ReturnPortal } from './return.entities';

/** Who calls a portal route: the token's brand and the internal code of its app (partner apps have one). */
export interface PortalCaller {
  brandId: number;
  appInternalCode: string | null;
}

/** The portal type any app of the brand may use; other external types belong to one partner. */
export const CUSTOM_RETURN_PORTAL_TYPE = 'custom';

/**
 * The portal of `/v10/external-return-portals/{publicId}/…` the caller may use:
 * - missing, or another brand's: 404 (a foreign portal is as unknown as a missing one, so public
 *   ids of other brands cannot be probed);
 * - the internal `service` portal: 422, it is the platform's own and not driven from outside;
 * - a partner type (anything but `custom`): only an app whose internal code is that type, else 403.
 */
export async function findCallerPortal(
  repos: Pick<Repositories, 'returnPortals'>,
  caller: PortalCaller,
  publicId: string,
): Promise<ReturnPortal> {
  const portal = await repos.returnPortals.findByPublicIdAnyBrand(publicId);
  if (!portal || portal.brandId !== caller.brandId) throw DomainError.notFound('return portal', publicId);
  if (portal.type === INTERNAL_RETURN_PORTAL_TYPE) {
    throw new DomainError(
      'validation_failed',
      `return portal ${publicId} is the internal (service) portal; external return portal calls need an external portal`,
      {
        data: { public_id: publicId, type: portal.type },
      },
    );
  }
  if (portal.type !== CUSTOM_RETURN_PORTAL_TYPE && caller.appInternalCode !== portal.type) {
    throw new DomainError(
      'forbidden',
      `return portal ${publicId} is of type ${portal.type}: only the app with internal code ${portal.type} may use it`,
      {
        data: { public_id: publicId, type: portal.type },
      },
    );
  }
  return portal;
}
