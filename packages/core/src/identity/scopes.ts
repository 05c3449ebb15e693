/** Areas a token can be allowed to read or write. */
export const SCOPE_AREAS = [
  'catalog',
  'customers',
  'orders',
  'fulfilment',
  'returns',
  'finance',
  'production',
  'settings',
  'webhooks',
] as const;
/** One of `SCOPE_AREAS`. */
export type ScopeArea = (typeof SCOPE_AREAS)[number];
/** A permission of an access token: read or write access to one area (`orders:read`). */
export type Scope = `${ScopeArea}:${'read' | 'write'}`;

/** Every scope, read and write of each area: what a token gets when none are named. */
export const ALL_SCOPES: Scope[] = SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as Scope[]);

/** Whether `value` names a scope (`orders:read`), so it can be trusted as a `Scope`. */
export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as string[]).includes(value);
}

/** The scopes of `required` that `granted` lacks. A write scope does not imply read: each is asked for by name. */
export function missingScopes(granted: readonly Scope[], required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !granted.includes(scope));
}
