import { Surface } from '../http/route';

/**
 * The external return portal interface (/v10/external-return-portals/{publicId}/…). It sits
 * under /v10 and authenticates the same way; it is its own surface because its callers are
 * partner portals rather than ERPs. Its resources arrive in later changes.
 */
export function portalsRouter(): Surface<'current'> {
  return new Surface('portals', 'current', ['/v10/external-return-portals']);
}
