import { Surface } from '../http/route';

/**
 * The older interface under /api: token plus a non-empty X-ServiceAppIdentifier (no app key).
 * Its resources (categories, collections, products, variants) arrive in later changes; until
 * then the surface authenticates and answers 404 for every path.
 */
export function legacyRouter(): Surface<'legacy'> {
  return new Surface('legacy', 'legacy', ['/api']);
}
