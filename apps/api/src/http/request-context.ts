import { Response } from 'express';
import { Principal } from '@brand/core';

// res.locals lives exactly as long as the request; these helpers keep its one key typed.
const PRINCIPAL_KEY = 'principal';

export function setPrincipal(res: Response, principal: Principal): void {
  res.locals[PRINCIPAL_KEY] = principal;
}

/** The principal the authentication step resolved, or null on routes that need no token. */
export function principalOf(res: Response): Principal | null {
  return (res.locals[PRINCIPAL_KEY] as Principal | undefined) ?? null;
}
