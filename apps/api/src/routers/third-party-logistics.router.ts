import { Surface } from '../http/route';

/** The warehouse (3PL) interface under /3pl; its resources arrive in later changes. */
export function thirdPartyLogisticsRouter(): Surface<'current'> {
  return new Surface('3pl', 'current', ['/3pl']);
}
